package io.viewbase.storage.memory;

import io.viewbase.storage.spi.Versioned;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * The memory store's data: partition to (key to versioned value), both ordered as unsigned bytes,
 * copy-on-write so that freezing it for a snapshot or a cursor costs nothing.
 *
 * <p>{@link #freeze()} hands out the current maps and promises never to change them again: the next
 * write copies the partition map, and each partition map it touches, once. Not thread-safe; the
 * store guards it with its lock.
 */
final class PartitionedData {
  static final Comparator<byte[]> UNSIGNED = Arrays::compareUnsigned;

  private NavigableMap<byte[], NavigableMap<byte[], Versioned>> partitions =
      new TreeMap<>(UNSIGNED);

  /** Whether {@link #partitions} has been handed out by {@link #freeze()} since it was made. */
  private boolean partitionsFrozen;

  /** The key maps made since the last freeze: the only ones that may be changed in place. */
  private final Set<NavigableMap<byte[], Versioned>> writable =
      Collections.newSetFromMap(new IdentityHashMap<>());

  Versioned get(byte[] partition, byte[] key) {
    NavigableMap<byte[], Versioned> keys = partitions.get(partition);
    return keys == null ? null : keys.get(key);
  }

  /** The current state, never to be changed again. */
  NavigableMap<byte[], NavigableMap<byte[], Versioned>> freeze() {
    partitionsFrozen = true;
    writable.clear();
    return Collections.unmodifiableNavigableMap(partitions);
  }

  void put(byte[] partition, byte[] key, Versioned value) {
    writableKeys(partition).put(key, value);
  }

  void remove(byte[] partition, byte[] key) {
    if (get(partition, key) == null) {
      return;
    }
    NavigableMap<byte[], Versioned> keys = writableKeys(partition);
    keys.remove(key);
    if (keys.isEmpty()) {
      // an empty partition does not exist: partitions() must not list it
      partitions.remove(partition);
      writable.remove(keys);
    }
  }

  private NavigableMap<byte[], Versioned> writableKeys(byte[] partition) {
    if (partitionsFrozen) {
      partitions = new TreeMap<>(partitions);
      partitionsFrozen = false;
    }
    NavigableMap<byte[], Versioned> keys = partitions.get(partition);
    if (keys == null || !writable.contains(keys)) {
      keys = keys == null ? new TreeMap<>(UNSIGNED) : new TreeMap<>(keys);
      partitions.put(partition, keys);
      writable.add(keys);
    }
    return keys;
  }
}
