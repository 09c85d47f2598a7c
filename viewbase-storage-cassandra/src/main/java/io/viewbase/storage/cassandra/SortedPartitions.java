package io.viewbase.storage.cassandra;

import io.viewbase.storage.spi.PartitionCursor;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.TreeSet;

/**
 * The partitions under a prefix in byte order, which the SPI's walks promise, from Cassandra's walk
 * in token order: each batch walks every partition key of the table once and keeps the {@link
 * #BATCH} smallest after the last one handed out, so memory stays bounded and a walk over P
 * partitions costs about P / BATCH + 1 passes over the partition keys.
 */
final class SortedPartitions {
  static final int BATCH = 4096;

  private final CassandraStore store;
  private final byte[] prefix;
  private final Deque<byte[]> batch = new ArrayDeque<>();
  private byte[] after;
  private boolean afterInclusive;
  private boolean exhausted;

  /**
   * From {@code after} on (null: from the first), including {@code after} itself when {@code
   * inclusive}.
   */
  SortedPartitions(CassandraStore store, byte[] prefix, byte[] after, boolean inclusive) {
    this.store = store;
    this.prefix = prefix;
    this.after = after;
    this.afterInclusive = inclusive;
  }

  /** The next partition in byte order, or null when there is none. */
  byte[] next() {
    if (batch.isEmpty() && !exhausted) {
      fill();
    }
    return batch.pollFirst();
  }

  private void fill() {
    TreeSet<byte[]> smallest = new TreeSet<>(Arrays::compareUnsigned);
    try (PartitionCursor walk = store.partitionsInTokenOrder(prefix)) {
      while (walk.next()) {
        byte[] p = walk.partition();
        int c = after == null ? 1 : Arrays.compareUnsigned(p, after);
        if (c > 0 || (c == 0 && afterInclusive)) {
          smallest.add(p);
          if (smallest.size() > BATCH) {
            smallest.pollLast();
          }
        }
      }
    }
    exhausted = smallest.size() < BATCH;
    batch.addAll(smallest);
    if (!smallest.isEmpty()) {
      after = smallest.last();
      afterInclusive = false;
    }
  }
}
