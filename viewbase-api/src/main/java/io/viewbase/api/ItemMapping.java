package io.viewbase.api;

/**
 * A pure function of an item (its rendering as an HTTP answer, say) whose results a database may
 * keep beside the items it caches: see {@link Table#get(String, String, ItemMapping)}.
 *
 * <p>Two mappings that are {@link Object#equals equal} must map every item alike (a record of the
 * mapping's parameters is a good implementation), and a result must never change once made: the
 * database may hand one result to several readers, at once and later.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public interface ItemMapping<T> {
  T map(Item item);

  /**
   * About how many bytes of heap {@code result} holds, and this mapping with it (a cache keeps
   * both), counted against the database's cache bound.
   */
  long weight(T result);
}
