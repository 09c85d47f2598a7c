package io.viewbase.storage.cassandra;

import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.PartitionCursor;
import io.viewbase.storage.spi.Snapshot;
import io.viewbase.storage.spi.Versioned;
import java.util.Optional;

/**
 * What {@link CassandraStore#snapshot()} gives, since Cassandra keeps no point-in-time views: reads
 * of the live data at the store's consistency level. The store declares {@code snapshots = false},
 * so callers that need a frozen view (verify) know that what they compare may move under them.
 */
final class LiveSnapshot implements Snapshot {
  private final CassandraStore store;

  LiveSnapshot(CassandraStore store) {
    this.store = store;
  }

  @Override
  public Optional<Versioned> get(byte[] partition, byte[] key) {
    return store.get(partition, key);
  }

  @Override
  public Cursor scan(byte[] partition, KeyRange range, boolean reverse) {
    return store.scan(partition, range, reverse);
  }

  @Override
  public Cursor scanAll(byte[] partitionPrefix, byte[] afterPartition, byte[] afterKey) {
    return store.scanAll(partitionPrefix, afterPartition, afterKey);
  }

  @Override
  public PartitionCursor partitions(byte[] prefix, byte[] afterPartition) {
    return store.partitions(prefix, afterPartition);
  }

  @Override
  public void close() {
    // nothing is held
  }
}
