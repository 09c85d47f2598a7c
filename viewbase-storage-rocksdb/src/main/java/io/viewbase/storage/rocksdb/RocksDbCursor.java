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
 * A cursor over a range of encoded keys, on a RocksDB iterator bounded by {@code
 * iterate_lower_bound}/{@code iterate_upper_bound} so that it never reads past the range. The
 * iterator sees the data as of its creation (or of the snapshot it is given). Its native iterator,
 * options and bound slices are freed on {@link #close()}, when it runs out, or when the store
 * closes.
 *
 * <p>Each native call runs inside the store's {@link NativeGuard} and this cursor's monitor, which
 * together keep the iterator from being freed under it. Entering both costs four atomic
 * instructions, as much as a native call, so a scan that reads values has each value copied in the
 * same section as its key (see {@link #readsValues}): one entry, one guarded section. Once closed,
 * the cursor only answers for the entry it is on from what it has already copied; anything that
 * needs the iterator fails.
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

  /**
   * Whether the caller reads values: set when it first asks for one ({@link #value()}, {@link
   * #version()} or {@link #readValue}), after which {@link #next()} copies each entry's stored
   * value along with its key rather than in a second guarded section. A caller that only walks keys
   * never has a value copied.
   */
  private boolean readsValues;

  /**
   * The current entry's encoded key in {@code keyBuffer[0, keyLength)}, keyLength -1 when the
   * cursor is on no entry; its stored value (version, then value) in {@code storedBuffer[0,
   * storedLength)} once fetched, storedLength -1 before. The buffers are reused from entry to
   * entry, so RocksDB copies into them and no native call allocates a Java array; the accessors
   * copy out what they return.
   */
  private byte[] keyBuffer = new byte[64];

  private int keyLength = -1;
  private byte[] storedBuffer = new byte[256];
  private int storedLength = -1;

  /**
   * Where the current entry's key starts (the length of its encoded partition and terminator), -1
   * until asked for on this entry.
   */
  private int keyOffset = -1;

  /**
   * The encoded partition (with its terminator) of the last entry whose partition was asked for, in
   * {@code lastPrefix[0, lastPrefixLength)}, and that partition decoded: an entry whose key starts
   * with the same bytes is of the same partition (the terminator is found by a scan from the start,
   * which then stops at the same place), so a scan decodes each partition once, not once per entry,
   * and hands out copies of one decoded array for a run of entries of one partition.
   */
  private byte[] lastPrefix = new byte[32];

  private int lastPrefixLength = -1;
  private byte[] lastPartition;

  /**
   * @param lower the smallest encoded key in the range (inclusive)
   * @param upper the end of the range (exclusive), or null for no end
   * @param start where an ascending walk starts (at or after lower); ignored when reversed
   * @param fixedKeyOffset see {@link #fixedKeyOffset}
   */
  RocksDbCursor(
      NativeGuard guard,
      RocksDB db,
      Snapshot snapshot,
      byte[] lower,
      byte[] upper,
      byte[] start,
      boolean reverse,
      int fixedKeyOffset,
      boolean fillCache) {
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
        storedLength = -1;
        keyOffset = fixedKeyOffset;
        if (iterator.isValid()) {
          keyLength = iterator.key(keyBuffer, 0, keyBuffer.length);
          if (keyLength > keyBuffer.length) {
            keyBuffer = new byte[Math.max(keyLength, 2 * keyBuffer.length)];
            iterator.key(keyBuffer, 0, keyBuffer.length);
          }
          if (readsValues) {
            copyStored();
          }
          return true;
        }
        keyLength = -1;
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
    current();
    int n = lastPrefixLength;
    if (n >= 0
        && n <= keyLength
        && (keyOffset < 0 || keyOffset == n)
        && Arrays.equals(keyBuffer, 0, n, lastPrefix, 0, n)) {
      keyOffset = n;
      // the caller's to keep or change; a copy, not clone(), which C1 compiles as a VM call
      return Arrays.copyOf(lastPartition, lastPartition.length);
    }
    int offset = keyOffset();
    byte[] partition = OrderedKeyCodec.decodePartition(keyBuffer, offset);
    if (lastPrefix.length < offset) {
      lastPrefix = new byte[Math.max(offset, 2 * lastPrefix.length)];
    }
    System.arraycopy(keyBuffer, 0, lastPrefix, 0, offset);
    lastPrefixLength = offset;
    lastPartition = partition;
    return Arrays.copyOf(partition, partition.length);
  }

  @Override
  public byte[] key() {
    current();
    return Arrays.copyOfRange(keyBuffer, keyOffset(), keyLength);
  }

  /** Measured in the cursor's buffer: no copy. */
  @Override
  public int keyLength() {
    current();
    return keyLength - keyOffset();
  }

  /** Where the current entry's key starts, found once per entry. */
  private int keyOffset() {
    if (keyOffset < 0) {
      keyOffset = OrderedKeyCodec.keyOffset(keyBuffer, keyLength);
    }
    return keyOffset;
  }

  @Override
  public long version() {
    fetchStored();
    return StoredValue.version(storedBuffer);
  }

  @Override
  public byte[] value() {
    fetchStored();
    return Arrays.copyOfRange(storedBuffer, StoredValue.VERSION_BYTES, storedLength);
  }

  /** Hands over the value in the cursor's own buffer: no copy. */
  @Override
  public <T> T readValue(ValueReader<T> reader) {
    fetchStored();
    return reader.read(
        storedBuffer, StoredValue.VERSION_BYTES, storedLength - StoredValue.VERSION_BYTES);
  }

  /**
   * Makes sure the current entry's stored value is in {@link #storedBuffer}: already there when
   * {@link #next()} copied it, else copied now, and from now on by {@link #next()}.
   */
  private void fetchStored() {
    current();
    if (storedLength >= 0) {
      return;
    }
    readsValues = true;
    guard.enter();
    try {
      synchronized (this) {
        if (released) {
          throw new IllegalStateException("the cursor is closed");
        }
        copyStored();
      }
    } finally {
      guard.exit();
    }
  }

  /**
   * Copies the current entry's stored value into {@link #storedBuffer}, growing it when the value
   * does not fit; the caller holds the guard and the monitor, on an entry the iterator is valid at.
   */
  private void copyStored() {
    int length = iterator.value(storedBuffer, 0, storedBuffer.length);
    if (length > storedBuffer.length) {
      storedBuffer = new byte[Math.max(length, 2 * storedBuffer.length)];
      iterator.value(storedBuffer, 0, storedBuffer.length);
    }
    storedLength = length;
  }

  private void current() {
    if (keyLength < 0) {
      throw new NoSuchElementException(
          "the cursor is not on an entry: call next() first, and only while it returns true");
    }
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
