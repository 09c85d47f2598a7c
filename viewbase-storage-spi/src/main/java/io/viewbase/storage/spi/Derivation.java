package io.viewbase.storage.spi;

/**
 * A pure function of a stored entry, whose result a store that caches recent reads may keep beside
 * the cached entry: see {@link ReadView#get(byte[], byte[], Derivation)}.
 *
 * <p>Two derivations whose {@link #key() keys} are {@link Object#equals equal} must derive equal
 * results from every entry, and a result must never change once derived: the store may hand one
 * result to several readers, at once and later.
 */
public interface Derivation<T> {
  /**
   * The result for one stored entry. {@code value} may be the store's own array: read it, but do
   * not change it or keep it.
   */
  T derive(long version, byte[] value);

  /**
   * About how many bytes of heap {@code result} holds, and {@link #key()} with it (a cache keeps
   * both), counted against the store's cache bound.
   */
  long weight(T result);

  /**
   * What a cache keeps, beside a result, to recognise the derivation that made it: by default the
   * derivation itself; a derivation that carries per-read state returns only what decides the
   * result.
   */
  default Object key() {
    return this;
  }
}
