package io.viewbase.storage.spi;

import java.util.Optional;

/**
 * Reads of a store, live or at a snapshot. Keys and partitions are compared as unsigned bytes.
 * Every cursor sees one consistent state of the data (the state when it was opened, or a later one;
 * never a mix of half a batch).
 */
public interface ReadView {
  /** The value at (partition, key): one lookup. */
  Optional<Versioned> get(byte[] partition, byte[] key);

  /**
   * The value at (partition, key) turned into a result by {@code derivation}: what {@code
   * get(partition, key).map(v -> derivation.derive(v.version(), v.value()))} returns, except that a
   * store caching recent reads may keep the result beside the cached entry, and answer a later read
   * of the same, unchanged entry with it when the later derivation's {@link Derivation#key() key}
   * is equal, without deriving again. Exact like {@link #get(byte[], byte[])}: never a result
   * derived from an entry older than the last acknowledged write of the key.
   */
  default <T> Optional<T> get(byte[] partition, byte[] key, Derivation<T> derivation) {
    return get(partition, key).map(v -> derivation.derive(v.version(), v.value()));
  }

  /** Entries of one partition whose keys fall in {@code range}, ascending or descending by key. */
  Cursor scan(byte[] partition, KeyRange range, boolean reverse);

  /**
   * Entries of every partition whose key starts with {@code partitionPrefix}, partition by
   * partition (in byte order when {@link Capabilities#orderedPartitions()}, else in the backend's
   * order), keys ascending within each partition. With {@code afterPartition}/{@code afterKey}
   * non-null the walk resumes strictly after that entry, as a previous walk reported it; with
   * {@code afterPartition} non-null and {@code afterKey} null it resumes after that whole
   * partition.
   */
  Cursor scanAll(byte[] partitionPrefix, byte[] afterPartition, byte[] afterKey);

  /**
   * Partitions whose key starts with {@code prefix}, in the same order as {@link #scanAll}, after
   * {@code afterPartition} if non-null.
   */
  PartitionCursor partitions(byte[] prefix, byte[] afterPartition);
}
