package io.viewbase.storage.rocksdb;

import io.viewbase.storage.spi.Bytes;
import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.Derivation;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.OrderedKeyCodec;
import io.viewbase.storage.spi.PartitionCursor;
import io.viewbase.storage.spi.ReadView;
import io.viewbase.storage.spi.StorageException;
import io.viewbase.storage.spi.Versioned;
import java.util.Arrays;
import java.util.Optional;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Snapshot;

/**
 * Reads of the RocksDB store, live or at a snapshot, translated to encoded key ranges:
 *
 * <table>
 *   <caption>what each read walks</caption>
 *   <tr><th>read</th><th>from (inclusive)</th><th>to (exclusive)</th></tr>
 *   <tr><td>scan(p, [lo, hi))</td><td>encode(p, lo), or encode(p, lo) + 0x00 if lo is exclusive</td>
 *       <td>encode(p, hi), + 0x00 if hi is inclusive; partitionEnd(p) if open</td></tr>
 *   <tr><td>scanAll(prefix)</td><td>escaped(prefix); resumed: just after (p, k), or partitionEnd(p)</td>
 *       <td>prefixEnd(escaped(prefix)), none if that does not exist</td></tr>
 *   <tr><td>partitions(prefix)</td><td>as scanAll, seeking from partition to partition</td>
 *       <td>as scanAll</td></tr>
 * </table>
 *
 * <p>{@code encode(p, k) + 0x00} is the next possible key after (p, k), since keys follow the
 * encoded partition unescaped.
 */
final class RocksDbReads implements ReadView {
  private static final byte[] SUCCESSOR = {0x00};

  /**
   * Each thread's buffer for point reads: it starts at 4 KiB, larger than most items, and grows to
   * fit a larger value up to {@link #MAX_READ_BUFFER}. A value that does not fit costs a second
   * lookup.
   */
  private static final ThreadLocal<byte[]> READ_BUFFER =
      ThreadLocal.withInitial(() -> new byte[4096]);

  private static final int MAX_READ_BUFFER = 64 * 1024;

  private final NativeGuard guard;
  private final RocksDB db;
  private final ReadOptions pointReads;
  private final Snapshot snapshot;
  private final ValueCache cache;

  /**
   * @param pointReads options for {@link #get}, shared by every thread (RocksDB only reads them)
   * @param snapshot the snapshot cursors read at, or null for live reads
   * @param cache the entries {@link #get} consults first, or null (no cache, or a snapshot's reads)
   */
  RocksDbReads(
      NativeGuard guard, RocksDB db, ReadOptions pointReads, Snapshot snapshot, ValueCache cache) {
    this.guard = guard;
    this.db = db;
    this.pointReads = pointReads;
    this.snapshot = snapshot;
    this.cache = cache;
  }

  /**
   * A point read asks the value cache first (if any); on a miss it copies the stored value into
   * this thread's buffer, and from there only the value (without its version) into the array
   * returned: one array per read instead of RocksDB's copy plus ours. What it read goes into the
   * cache unless the key was written meanwhile (see {@link ValueCache}).
   */
  @Override
  public Optional<Versioned> get(byte[] partition, byte[] key) {
    byte[] encoded = OrderedKeyCodec.encode(partition, key);
    if (cache == null) {
      guard.enter();
      try {
        return read(encoded, partition, key).handOver(); // cached nowhere: no copy needed
      } finally {
        guard.exit();
      }
    }
    ValueCache.Entry entry = lookup(new ValueCache.Key(encoded), partition, key);
    // a value the cache holds is copied for the caller; one it did not keep is the caller's alone
    return entry.isCached() ? entry.toResult() : entry.handOver();
  }

  /**
   * As {@link #get(byte[], byte[])}, and a hit in the value cache is answered by the result the
   * entry holds, if a derivation with an equal key made it; a result derived from a cached entry
   * stays with it.
   */
  @Override
  public <T> Optional<T> get(byte[] partition, byte[] key, Derivation<T> derivation) {
    if (cache == null) {
      return ReadView.super.get(partition, key, derivation);
    }
    ValueCache.Key cacheKey = new ValueCache.Key(OrderedKeyCodec.encode(partition, key));
    return cache.derive(lookup(cacheKey, partition, key), derivation);
  }

  /**
   * The value cache's entry for a key: the one it holds, or else what RocksDB holds, which goes
   * into the cache unless the key was written meanwhile (see {@link ValueCache}).
   */
  private ValueCache.Entry lookup(ValueCache.Key cacheKey, byte[] partition, byte[] key) {
    ValueCache.Entry hit = cache.get(cacheKey);
    if (hit != null) {
      guard.checkOpen(); // a hit touches no native handle, but a closed store still answers nothing
      return hit;
    }
    guard.enter();
    try {
      long stamp = cache.stamp(cacheKey);
      ValueCache.Entry entry = read(cacheKey.bytes(), partition, key);
      // inserted under the guard, so that closing the store (which clears the cache) comes after
      cache.insert(cacheKey, stamp, entry);
      return entry;
    } finally {
      guard.exit();
    }
  }

  /** Reads one entry from RocksDB; the caller holds the guard. */
  private ValueCache.Entry read(byte[] encoded, byte[] partition, byte[] key) {
    byte[] buffer = READ_BUFFER.get();
    int size;
    try {
      size = db.get(pointReads, encoded, buffer);
      if (size > buffer.length) {
        buffer = new byte[size];
        if (size <= MAX_READ_BUFFER) {
          READ_BUFFER.set(buffer); // this thread reads values this large: keep a buffer for them
        }
        size = db.get(pointReads, encoded, buffer);
        // written in between by another thread: the entry is now larger again, so read it whole
        if (size > buffer.length) {
          buffer = db.get(pointReads, encoded);
          size = buffer == null ? RocksDB.NOT_FOUND : buffer.length;
        }
      }
    } catch (RocksDBException e) {
      throw new StorageException(
          "RocksDB failed to read "
              + Bytes.toDisplay(partition)
              + "/"
              + Bytes.toDisplay(key)
              + ": "
              + e.getMessage(),
          e);
    }
    if (size == RocksDB.NOT_FOUND) {
      return ValueCache.Entry.absent();
    }
    if (size < StoredValue.VERSION_BYTES) {
      throw new StorageException(
          "corrupt entry: the stored value of "
              + Bytes.toDisplay(partition)
              + "/"
              + Bytes.toDisplay(key)
              + " is shorter than its version",
          null);
    }
    return new ValueCache.Entry(
        StoredValue.version(buffer), Arrays.copyOfRange(buffer, StoredValue.VERSION_BYTES, size));
  }

  @Override
  public Cursor scan(byte[] partition, KeyRange range, boolean reverse) {
    if (range.isEmpty()) {
      guard.enter(); // still fail on a closed store, like every other read
      guard.exit();
      return new EmptyCursor();
    }
    byte[] start = OrderedKeyCodec.partitionStart(partition);
    byte[] lower = range.lower() == null ? start : OrderedKeyCodec.encode(partition, range.lower());
    if (range.lower() != null && !range.lowerInclusive()) {
      lower = Bytes.concat(lower, SUCCESSOR);
    }
    byte[] upper;
    if (range.upper() == null) {
      upper = OrderedKeyCodec.partitionEnd(partition);
    } else {
      upper = OrderedKeyCodec.encode(partition, range.upper());
      if (range.upperInclusive()) {
        upper = Bytes.concat(upper, SUCCESSOR);
      }
    }
    guard.enter();
    try {
      return new RocksDbCursor(
          guard, db, snapshot, lower, upper, lower, reverse, start.length, true);
    } finally {
      guard.exit();
    }
  }

  @Override
  public Cursor scanAll(byte[] partitionPrefix, byte[] afterPartition, byte[] afterKey) {
    byte[] lower = OrderedKeyCodec.escapedPartition(partitionPrefix);
    byte[] start = lower;
    if (afterPartition != null) {
      byte[] resume =
          afterKey == null
              ? OrderedKeyCodec.partitionEnd(afterPartition)
              : Bytes.concat(OrderedKeyCodec.encode(afterPartition, afterKey), SUCCESSOR);
      start = max(lower, resume);
    }
    guard.enter();
    try {
      // a full walk would evict the hot set from the block cache: read it without filling the cache
      return new RocksDbCursor(
          guard, db, snapshot, lower, Bytes.prefixEnd(lower), start, false, -1, false);
    } finally {
      guard.exit();
    }
  }

  @Override
  public PartitionCursor partitions(byte[] prefix, byte[] afterPartition) {
    byte[] lower = OrderedKeyCodec.escapedPartition(prefix);
    byte[] start =
        afterPartition == null ? lower : max(lower, OrderedKeyCodec.partitionEnd(afterPartition));
    guard.enter();
    try {
      return new RocksDbPartitionCursor(guard, db, snapshot, lower, Bytes.prefixEnd(lower), start);
    } finally {
      guard.exit();
    }
  }

  private static byte[] max(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b) >= 0 ? a : b;
  }

  /** The cursor of a range that cannot hold a key: no native iterator needed. */
  private static final class EmptyCursor implements Cursor {
    @Override
    public boolean next() {
      return false;
    }

    @Override
    public byte[] partition() {
      throw new java.util.NoSuchElementException("an empty range has no entries");
    }

    @Override
    public byte[] key() {
      return partition();
    }

    @Override
    public long version() {
      partition();
      return 0;
    }

    @Override
    public byte[] value() {
      return partition();
    }

    @Override
    public void close() {}
  }
}
