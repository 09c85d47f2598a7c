package io.viewbase.storage.memory;

import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.Versioned;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;

/**
 * A cursor over entries of a frozen state of the memory store: the entries of one partition, or of
 * a run of partitions in order. It walks the frozen maps' own iterators, one partition after the
 * other, and hands out the stored arrays' copies (the stored ones in place to {@link #readValue}
 * and measured in place by {@link #keyLength}), so that a scan testing a filter copies nothing. A
 * scan is the memory backend's hot path: no stream stages and no {@code clone()} (which C1, the
 * emulator profile's compiler, makes a call into the VM) per entry.
 */
final class MemoryCursor implements Cursor {
  private static final Iterator<Map.Entry<byte[], NavigableMap<byte[], Versioned>>> NO_PARTITIONS =
      Collections.emptyIterator();

  private final MemoryStore store;

  /** The partitions still to walk, each with the keys to walk in it. */
  private final Iterator<Map.Entry<byte[], NavigableMap<byte[], Versioned>>> partitions;

  /** Where the first partition's walk resumes: after this key of {@code resumePartition}. */
  private final byte[] resumePartition;

  private final byte[] resumeKey;

  private byte[] partition;
  private Iterator<Map.Entry<byte[], Versioned>> entries = Collections.emptyIterator();
  private Map.Entry<byte[], Versioned> current;
  private boolean closed;

  private MemoryCursor(
      MemoryStore store,
      Iterator<Map.Entry<byte[], NavigableMap<byte[], Versioned>>> partitions,
      byte[] resumePartition,
      byte[] resumeKey) {
    this.store = store;
    this.partitions = partitions;
    this.resumePartition = resumePartition;
    this.resumeKey = resumeKey;
  }

  /** A cursor on no entry. */
  static MemoryCursor empty(MemoryStore store) {
    return new MemoryCursor(store, NO_PARTITIONS, null, null);
  }

  /** The entries of {@code keys}, all of one partition, in the map's order. */
  static MemoryCursor of(
      MemoryStore store, byte[] partition, NavigableMap<byte[], Versioned> keys) {
    MemoryCursor cursor = empty(store);
    cursor.partition = partition;
    cursor.entries = keys.entrySet().iterator();
    return cursor;
  }

  /**
   * The entries of each partition in turn; in {@code resumePartition}, if it comes, only those
   * after {@code resumeKey} (null: all).
   */
  static MemoryCursor across(
      MemoryStore store,
      Iterator<Map.Entry<byte[], NavigableMap<byte[], Versioned>>> partitions,
      byte[] resumePartition,
      byte[] resumeKey) {
    return new MemoryCursor(store, partitions, resumePartition, resumeKey);
  }

  @Override
  public boolean next() {
    store.ensureOpen();
    if (!closed && entries.hasNext()) {
      current = entries.next();
      return true;
    }
    return nextPartition();
  }

  /** Moves into the next partition that has an entry to walk; false when none is left. */
  private boolean nextPartition() {
    while (!closed && partitions.hasNext()) {
      Map.Entry<byte[], NavigableMap<byte[], Versioned>> next = partitions.next();
      NavigableMap<byte[], Versioned> keys = next.getValue();
      if (resumeKey != null && Arrays.equals(next.getKey(), resumePartition)) {
        keys = keys.tailMap(resumeKey, false);
      }
      partition = next.getKey();
      entries = keys.entrySet().iterator();
      if (entries.hasNext()) {
        current = entries.next();
        return true;
      }
    }
    current = null;
    return false;
  }

  @Override
  public byte[] partition() {
    position();
    return Arrays.copyOf(partition, partition.length);
  }

  @Override
  public byte[] key() {
    byte[] key = position().getKey();
    return Arrays.copyOf(key, key.length);
  }

  /** Measured on the stored key: no copy. */
  @Override
  public int keyLength() {
    return position().getKey().length;
  }

  @Override
  public long version() {
    return position().getValue().version();
  }

  @Override
  public byte[] value() {
    byte[] value = position().getValue().value();
    return Arrays.copyOf(value, value.length);
  }

  /** Hands over the stored value itself, which a frozen state never changes: no copy. */
  @Override
  public <T> T readValue(ValueReader<T> reader) {
    byte[] value = position().getValue().value();
    return reader.read(value, 0, value.length);
  }

  private Map.Entry<byte[], Versioned> position() {
    if (current == null) {
      throw new NoSuchElementException(
          "the cursor is not on an entry: call next() first, and only while it returns true");
    }
    return current;
  }

  @Override
  public void close() {
    closed = true;
    current = null;
  }
}
