package io.viewbase.storage.rocksdb;

import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.PartitionCursor;
import io.viewbase.storage.spi.Snapshot;
import io.viewbase.storage.spi.Versioned;
import java.util.Optional;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;

/**
 * A RocksDB snapshot: a sequence number that pins the versions it can see against compaction. Close
 * it promptly; an old snapshot keeps overwritten data alive.
 */
final class RocksDbSnapshot implements Snapshot {
  private final NativeGuard guard;
  private final RocksDB db;
  private final org.rocksdb.Snapshot snapshot;
  private final ReadOptions pointReads;
  private final RocksDbReads reads;
  private boolean released;

  /** Takes the snapshot; the caller holds the guard. */
  RocksDbSnapshot(NativeGuard guard, RocksDB db) {
    this.guard = guard;
    this.db = db;
    snapshot = db.getSnapshot();
    pointReads = new ReadOptions().setSnapshot(snapshot);
    // no value cache: its entries may be newer than the snapshot
    reads = new RocksDbReads(guard, db, pointReads, snapshot, null);
    guard.register(this);
  }

  @Override
  public Optional<Versioned> get(byte[] partition, byte[] key) {
    return reads.get(partition, key);
  }

  @Override
  public Cursor scan(byte[] partition, KeyRange range, boolean reverse) {
    return reads.scan(partition, range, reverse);
  }

  @Override
  public Cursor scanAll(byte[] partitionPrefix, byte[] afterPartition, byte[] afterKey) {
    return reads.scanAll(partitionPrefix, afterPartition, afterKey);
  }

  @Override
  public PartitionCursor partitions(byte[] prefix, byte[] afterPartition) {
    return reads.partitions(prefix, afterPartition);
  }

  @Override
  public synchronized void close() {
    if (released) {
      return;
    }
    released = true;
    pointReads.close();
    db.releaseSnapshot(snapshot);
    guard.unregister(this);
  }
}
