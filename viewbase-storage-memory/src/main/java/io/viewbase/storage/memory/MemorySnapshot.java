package io.viewbase.storage.memory;

import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.PartitionCursor;
import io.viewbase.storage.spi.Snapshot;
import io.viewbase.storage.spi.Versioned;
import java.util.Optional;

/** A frozen state of the memory store; closing it only lets the garbage collector have it. */
final class MemorySnapshot implements Snapshot {
  private final FrozenView view;

  MemorySnapshot(FrozenView view) {
    this.view = view;
  }

  @Override
  public Optional<Versioned> get(byte[] partition, byte[] key) {
    return view.get(partition, key);
  }

  @Override
  public Cursor scan(byte[] partition, KeyRange range, boolean reverse) {
    return view.scan(partition, range, reverse);
  }

  @Override
  public Cursor scanAll(byte[] partitionPrefix, byte[] afterPartition, byte[] afterKey) {
    return view.scanAll(partitionPrefix, afterPartition, afterKey);
  }

  @Override
  public PartitionCursor partitions(byte[] prefix, byte[] afterPartition) {
    return view.partitions(prefix, afterPartition);
  }

  @Override
  public void close() {
    // nothing is pinned: the frozen maps go when the last reader drops them
  }
}
