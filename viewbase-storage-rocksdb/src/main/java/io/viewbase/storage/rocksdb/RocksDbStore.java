package io.viewbase.storage.rocksdb;

import io.viewbase.storage.spi.BackupRun;
import io.viewbase.storage.spi.BatchRules;
import io.viewbase.storage.spi.Capabilities;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.Derivation;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.PartitionCursor;
import io.viewbase.storage.spi.Snapshot;
import io.viewbase.storage.spi.StorageException;
import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.StoreConfig;
import io.viewbase.storage.spi.StoreMeters;
import io.viewbase.storage.spi.Versioned;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/**
 * The default store: one RocksDB database in a data directory that this process owns.
 *
 * <p>Layout: one column family; the RocksDB key is {@link io.viewbase.storage.spi.OrderedKeyCodec}
 * of (partition, key), so a partition is a contiguous key range and partitions sort by their bytes;
 * the RocksDB value is the version (8 bytes, big-endian) followed by the value. Commits go through
 * {@link GroupCommit}; reads through {@link RocksDbReads}, point reads through the {@link
 * ValueCache} first (which group commit keeps exact). Thread-safe.
 */
public final class RocksDbStore implements Store {
  private static final Capabilities CAPABILITIES =
      new Capabilities(true, true, true, true, true, true, true);

  static {
    // Unpacks and loads the native library once per class loader, before any RocksDB object exists.
    RocksDB.loadLibrary();
  }

  private final Path directory;
  private final RocksDbSettings settings;
  private final RocksDB db;
  private final ReadOptions pointReads;
  private final NativeGuard guard;
  private final RocksDbReads reads;
  private final GroupCommit groupCommit;

  /** Recently read entries, or null when {@code rocksdb.valueCacheBytes} is 0. */
  private final ValueCache valueCache;

  /** Whether a {@link #backup} runs: one at a time. */
  private final AtomicBoolean backingUp = new AtomicBoolean();

  private RocksDbStore(Path directory, RocksDbSettings settings, RocksDB db, boolean sync) {
    this.directory = directory;
    this.settings = settings;
    this.db = db;
    this.pointReads = new ReadOptions();
    this.guard = new NativeGuard("the RocksDB store at " + directory + " is closed");
    this.valueCache =
        settings.valueCacheBytes() > 0 ? new ValueCache(settings.valueCacheBytes()) : null;
    this.reads = new RocksDbReads(guard, db, pointReads, null, valueCache);
    this.groupCommit =
        new GroupCommit(db, directory, sync, valueCache, settings.reservedDiskBytes());
  }

  /**
   * Opens (creating if needed) the store in {@code config.directory()}.
   *
   * @throws StorageException with {@link StorageException#isUnavailable()} if another process, or
   *     another open store in this one, holds the directory
   * @throws IllegalArgumentException if the directory is missing or an option is malformed
   */
  public static RocksDbStore open(StoreConfig config) {
    Path directory = config.directory();
    if (directory == null) {
      throw new IllegalArgumentException("the rocksdb backend needs a data directory");
    }
    directory = directory.toAbsolutePath();
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw new StorageException(
          "cannot create the data directory " + directory + ": " + e.getMessage(),
          e,
          StorageException.Kind.UNREACHABLE);
    }
    RocksDbSettings settings = new RocksDbSettings(config);
    try {
      RocksDB db = RocksDB.open(settings.options(), directory.toString());
      return new RocksDbStore(directory, settings, db, config.sync());
    } catch (RocksDBException e) {
      settings.close();
      throw openFailure(directory, e);
    }
  }

  private static StorageException openFailure(Path directory, RocksDBException e) {
    Status status = e.getStatus();
    String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
    if (status != null && status.getCode() == Status.Code.IOError && message.contains("lock")) {
      return new StorageException(
          "the data directory "
              + directory
              + " is in use by another Viewbase process "
              + "(or is already open in this one); stop it or choose another directory",
          e,
          StorageException.Kind.LOCKED);
    }
    return new StorageException(
        "cannot open the RocksDB data directory " + directory + ": " + e.getMessage(),
        e,
        StorageException.Kind.UNREACHABLE);
  }

  @Override
  public Capabilities capabilities() {
    return CAPABILITIES;
  }

  @Override
  public Optional<Versioned> get(byte[] partition, byte[] key) {
    return reads.get(partition, key);
  }

  @Override
  public <T> Optional<T> get(byte[] partition, byte[] key, Derivation<T> derivation) {
    return reads.get(partition, key, derivation);
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
  public Snapshot snapshot() {
    guard.enter();
    try {
      return new RocksDbSnapshot(guard, db);
    } finally {
      guard.exit();
    }
  }

  @Override
  public void commit(List<Mutation> batch) throws ConditionFailedException {
    BatchRules.validate(batch);
    guard.enter();
    try {
      groupCommit.commit(batch);
    } finally {
      guard.exit();
    }
  }

  /** Queues the batch for the next group commit and returns at once; see {@link GroupCommit}. */
  @Override
  public CompletableFuture<Void> commitAsync(List<Mutation> batch) {
    try {
      BatchRules.validate(batch);
      guard.enter();
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    try {
      return groupCommit.commitAsync(batch);
    } finally {
      guard.exit();
    }
  }

  @Override
  public boolean commitsWithoutBlocking() {
    return true;
  }

  /**
   * A {@link RocksDbBackups} backup into {@code target}, while commits go on. Closing the store
   * waits for a running backup to finish.
   */
  @Override
  public BackupRun backup(Path target) {
    if (!backingUp.compareAndSet(false, true)) {
      throw new IllegalStateException(
          "A backup of " + directory + " is running; wait for it to finish");
    }
    try {
      guard.enter();
      try {
        return RocksDbBackups.backup(db, directory, target, settings.backupBytesPerSecond());
      } finally {
        guard.exit();
      }
    } finally {
      backingUp.set(false);
    }
  }

  /**
   * Reports the group committer's sizes and write times ({@link GroupCommit#bindMeters}) and
   * RocksDB's own figures ({@link RocksDbStatistics}).
   */
  @Override
  public void bindMeters(StoreMeters meters) {
    groupCommit.bindMeters(meters);
    new RocksDbStatistics(guard, db, settings.statistics()).bindTo(meters);
  }

  /** Batches committed since the store was opened. */
  public long commits() {
    return groupCommit.commits();
  }

  /**
   * RocksDB writes those batches took: concurrent commits share one, so at most {@link #commits()}.
   */
  public long writeGroups() {
    return groupCommit.writeGroups();
  }

  /** Entries in the value cache now (0 when it is off), for tests and diagnostics. */
  long valueCacheEntries() {
    return valueCache == null ? 0 : valueCache.size();
  }

  /** Bytes the value cache holds now, as weighed against {@code rocksdb.valueCacheBytes}. */
  long valueCacheBytes() {
    return valueCache == null ? 0 : valueCache.weightedBytes();
  }

  /**
   * The RocksDB handle, for tests that look at what RocksDB itself does (its perf context,
   * compaction).
   */
  RocksDB rocksDb() {
    return db;
  }

  public Path directory() {
    return directory;
  }

  /**
   * Waits for running calls, frees every cursor and snapshot still open, and closes the database.
   * Later calls fail with {@link StorageException}; closing again does nothing.
   */
  @Override
  public void close() {
    guard.close(
        () -> {
          groupCommit.close(); // first: its committer thread may be writing a group
          if (valueCache != null) {
            valueCache.clear();
          }
          pointReads.close();
          try {
            db.closeE();
          } catch (RocksDBException e) {
            throw new StorageException(
                "RocksDB failed to close " + directory + ": " + e.getMessage(), e);
          } finally {
            settings.close();
          }
        });
  }
}
