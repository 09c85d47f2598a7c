package io.viewbase.storage.rocksdb;

import io.viewbase.storage.spi.StorageException;
import io.viewbase.storage.spi.StoreMeters;
import java.util.function.DoubleSupplier;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;

/**
 * RocksDB's own figures as the store's metrics, each read when the registry is scraped: nothing
 * here runs on a read or a write.
 *
 * <pre>
 * series                                          | from
 * ------------------------------------------------+---------------------------------------------
 * viewbase.rocksdb.block.cache.hits / .misses     | tickers BLOCK_CACHE_HIT, BLOCK_CACHE_MISS
 * viewbase.rocksdb.block.cache.hit.ratio          | hits / (hits + misses) since the store opened
 * viewbase.rocksdb.stall (seconds)                | ticker STALL_MICROS: writes held back
 * viewbase.rocksdb.compaction.pending (bytes)     | rocksdb.estimate-pending-compaction-bytes
 * viewbase.rocksdb.memtable (bytes)               | rocksdb.cur-size-all-mem-tables
 * </pre>
 *
 * The tickers exist only while {@code rocksdb.statistics} is on; off, those series are left out.
 * Once the store is closed every series reads NaN (the native handles are gone).
 */
final class RocksDbStatistics {
  private final NativeGuard guard;
  private final RocksDB db;
  private final Statistics statistics;

  RocksDbStatistics(NativeGuard guard, RocksDB db, Statistics statistics) {
    this.guard = guard;
    this.db = db;
    this.statistics = statistics;
  }

  void bindTo(StoreMeters meters) {
    meters.gauge(
        "viewbase.rocksdb.compaction.pending.bytes",
        "Bytes RocksDB estimates compaction must rewrite to bring every level within its target",
        property("rocksdb.estimate-pending-compaction-bytes"));
    meters.gauge(
        "viewbase.rocksdb.memtable.bytes",
        "Bytes held by RocksDB's memtables, active and immutable",
        property("rocksdb.cur-size-all-mem-tables"));
    if (statistics == null) {
      return;
    }
    meters.counter(
        "viewbase.rocksdb.block.cache.hits",
        "Block cache lookups that found their block",
        ticker(TickerType.BLOCK_CACHE_HIT));
    meters.counter(
        "viewbase.rocksdb.block.cache.misses",
        "Block cache lookups that read their block from a file",
        ticker(TickerType.BLOCK_CACHE_MISS));
    meters.gauge(
        "viewbase.rocksdb.block.cache.hit.ratio",
        "Share of block cache lookups that hit, since the store opened (NaN before the first)",
        this::hitRatio);
    DoubleSupplier stallMicros = ticker(TickerType.STALL_MICROS);
    meters.counter(
        "viewbase.rocksdb.stall.seconds",
        "Time writes were stalled or slowed by RocksDB, waiting for flushes or compactions",
        () -> stallMicros.getAsDouble() / 1e6);
  }

  private double hitRatio() {
    double hits = ticker(TickerType.BLOCK_CACHE_HIT).getAsDouble();
    double misses = ticker(TickerType.BLOCK_CACHE_MISS).getAsDouble();
    return hits / (hits + misses);
  }

  private DoubleSupplier property(String name) {
    return () -> {
      try {
        guard.enter();
      } catch (StorageException closed) {
        return Double.NaN;
      }
      try {
        return db.getLongProperty(name);
      } catch (RocksDBException e) {
        return Double.NaN;
      } finally {
        guard.exit();
      }
    };
  }

  private DoubleSupplier ticker(TickerType type) {
    return () -> {
      try {
        guard.enter();
      } catch (StorageException closed) {
        return Double.NaN;
      }
      try {
        return statistics.getTickerCount(type);
      } finally {
        guard.exit();
      }
    };
  }
}
