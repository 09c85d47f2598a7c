package io.viewbase.storage.cassandra;

import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;

/**
 * Every entry under a partition prefix in (partition, key) byte order: the partitions from {@link
 * SortedPartitions}, each read with one clustering-ordered scan. Resumes strictly after an entry,
 * as {@code Store.scanAll} asks: the rest of that entry's partition, then the partitions after it.
 *
 * <p>The first {@code pageSize} entries are read when the cursor opens, so a walk that fits in one
 * page reads the data as it was then (as one page of a plain Cassandra walk would); longer walks
 * read each later partition when they reach it.
 */
final class OrderedCursor implements Cursor {
  private record Entry(byte[] partition, byte[] key, long version, byte[] value) {}

  private final CassandraStore store;
  private final SortedPartitions partitions;
  private final byte[] afterPartition;
  private final byte[] afterKey;
  private final Deque<Entry> opening = new ArrayDeque<>();
  private Entry entry;
  private Cursor current;
  private boolean closed;

  OrderedCursor(
      CassandraStore store, byte[] prefix, byte[] afterPartition, byte[] afterKey, int pageSize) {
    this.store = store;
    this.afterPartition = afterPartition;
    this.afterKey = afterKey;
    // With a key, the entry's own partition still has entries after it; without one, it is done.
    this.partitions = new SortedPartitions(store, prefix, afterPartition, afterKey != null);
    while (opening.size() < pageSize && advance()) {
      opening.add(
          new Entry(current.partition(), current.key(), current.version(), current.value()));
    }
  }

  @Override
  public boolean next() {
    store.ensureOpen();
    if (closed) {
      return false;
    }
    if (!opening.isEmpty()) {
      entry = opening.poll();
      return true;
    }
    if (advance()) {
      entry = new Entry(current.partition(), current.key(), current.version(), current.value());
      return true;
    }
    entry = null;
    return false;
  }

  /**
   * Moves {@link #current} to the next entry, through the partitions in order; false at the end.
   */
  private boolean advance() {
    while (true) {
      if (current != null && current.next()) {
        return true;
      }
      if (current != null) {
        current.close();
        current = null;
      }
      byte[] p = partitions.next();
      if (p == null) {
        return false;
      }
      boolean resumed = afterKey != null && Arrays.equals(p, afterPartition);
      current = store.scan(p, resumed ? KeyRange.ALL.after(afterKey) : KeyRange.ALL, false);
    }
  }

  @Override
  public byte[] partition() {
    return entry.partition().clone();
  }

  @Override
  public byte[] key() {
    return entry.key().clone();
  }

  @Override
  public long version() {
    return entry.version();
  }

  @Override
  public byte[] value() {
    return entry.value().clone();
  }

  @Override
  public void close() {
    closed = true;
    opening.clear();
    if (current != null) {
      current.close();
      current = null;
    }
  }
}
