package io.viewbase.storage.memory;

import io.viewbase.storage.spi.Bytes;
import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.PartitionCursor;
import io.viewbase.storage.spi.ReadView;
import io.viewbase.storage.spi.Versioned;
import java.util.Arrays;
import java.util.Collections;
import java.util.NavigableMap;
import java.util.Optional;

/**
 * Reads over a frozen state of the memory store (see {@link PartitionedData#freeze()}). The maps
 * never change, so cursors walk them lazily without a lock.
 */
final class FrozenView implements ReadView {
  private final NavigableMap<byte[], NavigableMap<byte[], Versioned>> partitions;
  private final MemoryStore store;

  FrozenView(NavigableMap<byte[], NavigableMap<byte[], Versioned>> partitions, MemoryStore store) {
    this.partitions = partitions;
    this.store = store;
  }

  @Override
  public Optional<Versioned> get(byte[] partition, byte[] key) {
    store.ensureOpen();
    NavigableMap<byte[], Versioned> keys = partitions.get(partition);
    return MemoryStore.copyOf(keys == null ? null : keys.get(key));
  }

  @Override
  public Cursor scan(byte[] partition, KeyRange range, boolean reverse) {
    store.ensureOpen();
    byte[] p = Arrays.copyOf(partition, partition.length);
    NavigableMap<byte[], Versioned> all = partitions.get(p);
    if (all == null || range.isEmpty()) {
      return MemoryCursor.empty(store);
    }
    NavigableMap<byte[], Versioned> keys = inRange(all, range);
    return MemoryCursor.of(store, p, reverse ? keys.descendingMap() : keys);
  }

  @Override
  public Cursor scanAll(byte[] partitionPrefix, byte[] afterPartition, byte[] afterKey) {
    store.ensureOpen();
    return MemoryCursor.across(
        store,
        partitionsFrom(partitionPrefix, afterPartition, afterKey != null).entrySet().iterator(),
        afterPartition,
        afterKey);
  }

  @Override
  public PartitionCursor partitions(byte[] prefix, byte[] afterPartition) {
    store.ensureOpen();
    return new MemoryPartitionCursor(
        partitionsFrom(prefix, afterPartition, false).keySet().iterator(), store);
  }

  /**
   * The partitions whose name starts with {@code prefix}, from {@code after} on (including it if
   * {@code includeAfter}, to resume inside it): a view of the frozen map bounded at both ends, so
   * that a walk over it checks no name against the prefix.
   */
  private NavigableMap<byte[], NavigableMap<byte[], Versioned>> partitionsFrom(
      byte[] prefix, byte[] after, boolean includeAfter) {
    byte[] from = prefix;
    boolean inclusive = true;
    if (after != null && PartitionedData.UNSIGNED.compare(after, prefix) >= 0) {
      from = after;
      inclusive = includeAfter;
    }
    byte[] end = Bytes.prefixEnd(prefix);
    if (end == null) {
      return partitions.tailMap(from, inclusive);
    }
    if (PartitionedData.UNSIGNED.compare(from, end) >= 0) {
      return Collections.emptyNavigableMap();
    }
    return partitions.subMap(from, inclusive, end, false);
  }

  private static NavigableMap<byte[], Versioned> inRange(
      NavigableMap<byte[], Versioned> keys, KeyRange range) {
    if (range.lower() != null) {
      keys = keys.tailMap(range.lower(), range.lowerInclusive());
    }
    if (range.upper() != null) {
      keys = keys.headMap(range.upper(), range.upperInclusive());
    }
    return keys;
  }
}
