package io.viewbase.storage.rocksdb;

import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.OrderedKeyCodec;
import io.viewbase.storage.spi.StorageException;
import java.util.Arrays;
import java.util.NoSuchElementException;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;

/**
 * A cursor over a range of encoded keys, on a RocksDB iterator bounded by
 * {@code iterate_lower_bound}/{@code iterate_upper_bound} so that it never reads past the range.
 * The iterator sees the data as of its creation (or of the snapshot it is given). Its native
 * iterator, options and bound slices are freed on {@link #close()}, when it runs out, or when
 * the store closes.
 */
final class RocksDbCursor implements Cursor {
  private final NativeGuard guard;
  private final BoundedIterator bounded;
  private final RocksIterator iterator;
  private final byte[] start;
  private final boolean reverse;
  /** The length of the encoded partition before each key when it is one partition, else -1. */
  private final int fixedKeyOffset;
  private boolean started;
  private boolean released;
  private byte[] currentKey;
  private byte[] currentStored;

  /**
   * @param lower          the smallest encoded key in the range (inclusive)
   * @param upper          the end of the range (exclusive), or null for no end
   * @param start          where an ascending walk starts (at or after lower); ignored when reversed
   * @param fixedKeyOffset see {@link #fixedKeyOffset}
   */
  RocksDbCursor(NativeGuard guard, RocksDB db, Snapshot snapshot, byte[] lower, byte[] upper, byte[] start,
      boolean reverse, int fixedKeyOffset, boolean fillCache) {
    this.guard = guard;
    this.start = start;
    this.reverse = reverse;
    this.fixedKeyOffset = fixedKeyOffset;
    bounded = new BoundedIterator(db, snapshot, lower, upper, fillCache);
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
        if (!started) {
          started = true;
          if (reverse) {
            // with iterate_upper_bound set, SeekToLast is SeekForPrev(upper) minus the bound itself
            iterator.seekToLast();
          } else {
            iterator.seek(start);
          }
        } else if (reverse) {
          iterator.prev();
        } else {
          iterator.next();
        }
        currentStored = null;
        if (iterator.isValid()) {
          currentKey = iterator.key();
          return true;
        }
        currentKey = null;
        checkStatus();
        close(); // exhausted: free the native side now rather than when the caller gets round to it
        return false;
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
      throw new StorageException("RocksDB failed while scanning: " + e.getMessage(), e);
    }
  }

  @Override
  public byte[] partition() {
    byte[] key = current();
    if (fixedKeyOffset >= 0) {
      return OrderedKeyCodec.decodePartition(Arrays.copyOf(key, fixedKeyOffset));
    }
    return OrderedKeyCodec.decodePartition(key);
  }

  @Override
  public byte[] key() {
    byte[] key = current();
    int offset = fixedKeyOffset >= 0 ? fixedKeyOffset : OrderedKeyCodec.keyOffset(key);
    return Arrays.copyOfRange(key, offset, key.length);
  }

  @Override
  public long version() {
    return StoredValue.version(stored());
  }

  @Override
  public byte[] value() {
    return StoredValue.value(stored());
  }

  /** The stored value of the current entry, fetched once, when first asked for. */
  private byte[] stored() {
    current();
    if (currentStored == null) {
      guard.enter();
      try {
        synchronized (this) {
          if (released) {
            throw new IllegalStateException("the cursor is closed");
          }
          currentStored = iterator.value();
        }
      } finally {
        guard.exit();
      }
    }
    return currentStored;
  }

  private byte[] current() {
    if (currentKey == null) {
      throw new NoSuchElementException("the cursor is not on an entry: call next() first, and only while it returns true");
    }
    return currentKey;
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
