package io.viewbase.storage.cassandra;

import io.viewbase.storage.spi.PartitionCursor;

/**
 * The partitions under a prefix in byte order, strictly after a given one, from {@link
 * SortedPartitions}.
 */
final class OrderedPartitionCursor implements PartitionCursor {
  private final CassandraStore store;
  private final SortedPartitions partitions;
  private byte[] partition;
  private boolean closed;

  OrderedPartitionCursor(CassandraStore store, byte[] prefix, byte[] afterPartition) {
    this.store = store;
    this.partitions = new SortedPartitions(store, prefix, afterPartition, false);
  }

  @Override
  public boolean next() {
    store.ensureOpen();
    if (closed) {
      return false;
    }
    partition = partitions.next();
    return partition != null;
  }

  @Override
  public byte[] partition() {
    return partition.clone();
  }

  @Override
  public void close() {
    closed = true;
  }
}
