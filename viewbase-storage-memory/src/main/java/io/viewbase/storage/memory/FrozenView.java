package io.viewbase.storage.memory;

import io.viewbase.storage.spi.Bytes;
import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.PartitionCursor;
import io.viewbase.storage.spi.ReadView;
import io.viewbase.storage.spi.Versioned;
import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.stream.Stream;

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
    byte[] p = partition.clone();
    NavigableMap<byte[], Versioned> all = partitions.get(p);
    if (all == null || range.isEmpty()) {
      return new MemoryCursor(Collections.emptyIterator(), store);
    }
    NavigableMap<byte[], Versioned> keys = inRange(all, range);
    if (reverse) {
      keys = keys.descendingMap();
    }
    return new MemoryCursor(
        keys.entrySet().stream().map(e -> new MemoryCursor.Position(p, e)).iterator(), store);
  }

  @Override
  public Cursor scanAll(byte[] partitionPrefix, byte[] afterPartition, byte[] afterKey) {
    store.ensureOpen();
    Stream<MemoryCursor.Position> positions =
        partitionsFrom(partitionPrefix, afterPartition, afterKey != null)
            .flatMap(
                p -> {
                  NavigableMap<byte[], Versioned> keys = p.getValue();
                  if (afterKey != null
                      && PartitionedData.UNSIGNED.compare(p.getKey(), afterPartition) == 0) {
                    keys = keys.tailMap(afterKey, false);
                  }
                  return keys.entrySet().stream()
                      .map(e -> new MemoryCursor.Position(p.getKey(), e));
                });
    return new MemoryCursor(positions.iterator(), store);
  }

  @Override
  public PartitionCursor partitions(byte[] prefix, byte[] afterPartition) {
    store.ensureOpen();
    Iterator<byte[]> names =
        partitionsFrom(prefix, afterPartition, false).map(Map.Entry::getKey).iterator();
    return new MemoryPartitionCursor(names, store);
  }

  /**
   * The partitions whose name starts with {@code prefix}, from {@code after} on (including it if
   * {@code includeAfter}, to resume inside it).
   */
  private Stream<Map.Entry<byte[], NavigableMap<byte[], Versioned>>> partitionsFrom(
      byte[] prefix, byte[] after, boolean includeAfter) {
    NavigableMap<byte[], NavigableMap<byte[], Versioned>> tail = partitions.tailMap(prefix, true);
    if (after != null && PartitionedData.UNSIGNED.compare(after, prefix) >= 0) {
      tail = partitions.tailMap(after, includeAfter);
    }
    return tail.entrySet().stream().takeWhile(e -> Bytes.startsWith(e.getKey(), prefix));
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
