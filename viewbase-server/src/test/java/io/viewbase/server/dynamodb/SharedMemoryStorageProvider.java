package io.viewbase.server.dynamodb;

import io.viewbase.storage.memory.MemoryStore;
import io.viewbase.storage.spi.Capabilities;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.PartitionCursor;
import io.viewbase.storage.spi.Snapshot;
import io.viewbase.storage.spi.StorageProvider;
import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.StoreConfig;
import io.viewbase.storage.spi.Versioned;
import java.util.List;
import java.util.Optional;

/**
 * The memory backend as a store that other servers may share, found by the name {@value #NAME}: its
 * batches are declared not isolated, as Cassandra's are, so the engine over it behaves as it does
 * on Cassandra where the catalog is concerned (it refreshes it, and a new view backfills only once
 * other servers can have learnt of it, about 2 s later), in milliseconds instead of a node's start.
 */
public final class SharedMemoryStorageProvider implements StorageProvider {
  /** The storage name to open it by. */
  public static final String NAME = "shared-memory";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Store open(StoreConfig config) {
    return new Shared(new MemoryStore());
  }

  private record Shared(MemoryStore data) implements Store {
    @Override
    public Capabilities capabilities() {
      Capabilities c = data.capabilities();
      return new Capabilities(
          c.atomicMultiPartitionBatch(),
          false,
          c.orderedPartitions(),
          c.snapshots(),
          c.durableCommits(),
          c.groupCommit(),
          c.sequences());
    }

    @Override
    public Snapshot snapshot() {
      return data.snapshot();
    }

    @Override
    public void commit(List<Mutation> batch) throws ConditionFailedException {
      data.commit(batch);
    }

    @Override
    public Optional<Versioned> get(byte[] partition, byte[] key) {
      return data.get(partition, key);
    }

    @Override
    public Cursor scan(byte[] partition, KeyRange range, boolean reverse) {
      return data.scan(partition, range, reverse);
    }

    @Override
    public Cursor scanAll(byte[] partitionPrefix, byte[] afterPartition, byte[] afterKey) {
      return data.scanAll(partitionPrefix, afterPartition, afterKey);
    }

    @Override
    public PartitionCursor partitions(byte[] prefix, byte[] afterPartition) {
      return data.partitions(prefix, afterPartition);
    }

    @Override
    public void close() {
      data.close();
    }
  }
}
