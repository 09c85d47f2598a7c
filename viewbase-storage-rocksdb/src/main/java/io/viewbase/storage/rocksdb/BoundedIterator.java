package io.viewbase.storage.rocksdb;

import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.Snapshot;

/**
 * A RocksDB iterator bounded to [lower, upper) of the encoded key space, with the native read
 * options and bound slices it needs, all freed together by {@link #close()}. The cursors build on
 * it; the bounds keep RocksDB from reading past the range at all.
 */
final class BoundedIterator implements AutoCloseable {
  private final Slice lowerSlice;
  private final Slice upperSlice;
  private final ReadOptions readOptions;
  private final RocksIterator iterator;

  /**
   * @param upper exclusive upper bound, or null for none
   * @param snapshot the snapshot to read at, or null for the current state
   * @param fillCache whether blocks read may enter the block cache
   */
  BoundedIterator(RocksDB db, Snapshot snapshot, byte[] lower, byte[] upper, boolean fillCache) {
    lowerSlice = new Slice(lower);
    upperSlice = upper == null ? null : new Slice(upper);
    readOptions = new ReadOptions().setIterateLowerBound(lowerSlice).setFillCache(fillCache);
    if (upperSlice != null) {
      readOptions.setIterateUpperBound(upperSlice);
    }
    if (snapshot != null) {
      readOptions.setSnapshot(snapshot);
    }
    iterator = db.newIterator(readOptions);
  }

  RocksIterator iterator() {
    return iterator;
  }

  /**
   * Throws what the iterator failed with, if it stopped because of an error rather than the end.
   */
  void checkStatus() throws RocksDBException {
    iterator.status();
  }

  @Override
  public void close() {
    iterator.close();
    readOptions.close();
    lowerSlice.close();
    if (upperSlice != null) {
      upperSlice.close();
    }
  }
}
