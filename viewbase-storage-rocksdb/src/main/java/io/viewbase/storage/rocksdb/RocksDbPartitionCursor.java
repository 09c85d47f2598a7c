package io.viewbase.storage.rocksdb;

import io.viewbase.storage.spi.OrderedKeyCodec;
import io.viewbase.storage.spi.PartitionCursor;
import io.viewbase.storage.spi.StorageException;
import java.util.NoSuchElementException;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;

/**
 * The partitions in a range of encoded keys: reads the first key of a partition, then seeks to
 * {@link OrderedKeyCodec#partitionEnd} to skip the rest of it, so the walk costs one seek per
 * partition however many keys each holds.
 */
final class RocksDbPartitionCursor implements PartitionCursor {
  private final NativeGuard guard;
  private final BoundedIterator bounded;
  private final RocksIterator iterator;
  private byte[] seekTo;
  private byte[] current;
  private boolean released;

  RocksDbPartitionCursor(
      NativeGuard guard, RocksDB db, Snapshot snapshot, byte[] lower, byte[] upper, byte[] start) {
    this.guard = guard;
    this.seekTo = start;
    bounded = new BoundedIterator(db, snapshot, lower, upper, false);
    iterator = bounded.iterator();
    guard.register(this);
  }

  @Override
  public boolean next() {
    guard.enter();
    try {
      synchronized (this) {
        if (released) {
          return false;
        }
        iterator.seek(seekTo);
        if (!iterator.isValid()) {
          current = null;
          checkStatus();
          close();
          return false;
        }
        current = OrderedKeyCodec.decodePartition(iterator.key());
        seekTo = OrderedKeyCodec.partitionEnd(current);
        return true;
      }
    } finally {
      guard.exit();
    }
  }

  private void checkStatus() {
    try {
      bounded.checkStatus();
    } catch (RocksDBException e) {
      close();
      throw new StorageException("RocksDB failed while listing partitions: " + e.getMessage(), e);
    }
  }

  @Override
  public byte[] partition() {
    if (current == null) {
      throw new NoSuchElementException("the cursor is not on a partition: call next() first");
    }
    return current.clone();
  }

  @Override
  public synchronized void close() {
    if (released) {
      return;
    }
    released = true;
    bounded.close();
    guard.unregister(this);
  }
}
