package io.viewbase.storage.rocksdb;

import io.viewbase.storage.spi.StoreConfig;
import io.viewbase.storage.spi.StoreOptions;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.DataBlockIndexType;
import org.rocksdb.Env;
import org.rocksdb.IndexType;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileManager;
import org.rocksdb.Statistics;
import org.rocksdb.StatsLevel;

/**
 * The RocksDB options Viewbase opens a data directory with, and the native objects behind them.
 *
 * <table>
 *   <caption>tuning, from {@link StoreConfig#options()}</caption>
 *   <tr><th>option</th><th>default</th><th>what</th></tr>
 *   <tr><td>rocksdb.valueCacheBytes</td><td>an eighth of the JVM's maximum heap, within 16m..1g</td>
 *       <td>Java-heap cache of entries point reads found (and keys they found absent), and of what
 *       the server rendered from them, exact under writes ({@link ValueCache}); 0: none. Counts
 *       against the JVM heap: size -Xmx for it</td></tr>
 *   <tr><td>rocksdb.blockCacheBytes</td><td>128m</td><td>LRU cache of uncompressed blocks</td></tr>
 *   <tr><td>rocksdb.rowCacheBytes</td><td>64m</td><td>RocksDB's LRU cache of whole entries, consulted by
 *       point reads the value cache misses and by conditional commits (0: none)</td></tr>
 *   <tr><td>rocksdb.writeBufferBytes</td><td>64m</td><td>memtable size before a flush</td></tr>
 *   <tr><td>rocksdb.memtableBloomPercent</td><td>2</td><td>share of the memtable's size given to a
 *       bloom filter of its whole keys, so that a point read or a condition check of a key the
 *       memtable does not hold skips searching it (0: none; at most 25)</td></tr>
 *   <tr><td>rocksdb.maxBackgroundJobs</td><td>4</td><td>flush and compaction threads</td></tr>
 *   <tr><td>rocksdb.walCompression</td><td>zstd</td><td>how the write-ahead log's records are
 *       compressed: {@code zstd} or {@code none}. A group commit's sync costs time per byte
 *       synced, so fewer bytes make each group's sync shorter (see docs/storage.md)</td></tr>
 *   <tr><td>rocksdb.recycleLogFiles</td><td>2</td><td>flushed log files kept to be written over,
 *       so that a synced write need not grow a file (0: none; see docs/storage.md)</td></tr>
 *   <tr><td>rocksdb.backupBytesPerSecond</td><td>0</td><td>the most a backup copies per second,
 *       so that it leaves the disk to the writers (0: no limit; see docs/operations.md)</td></tr>
 *   <tr><td>rocksdb.reservedDiskBytes</td><td>rocksdb.writeBufferBytes</td><td>free space on the
 *       data directory's file system below which writes are refused with NO_SPACE before RocksDB
 *       sees them, leaving room for a flush ({@link SpaceReserve}; 0: no reserve, see
 *       docs/reliability.md)</td></tr>
 *   <tr><td>rocksdb.statistics</td><td>tickers</td><td>RocksDB's own counters (block cache hits
 *       and misses, write stall time), which the store reports as metrics: {@code tickers} turns
 *       them on at {@code StatsLevel.EXCEPT_DETAILED_TIMERS}, the cheapest level RocksJava offers
 *       (its cost on writes is in docs/benchmarks.md); {@code off} turns them off</td></tr>
 * </table>
 *
 * Sizes are bytes, or a number with a k, m or g suffix (powers of 1024), read as every backend
 * reads them ({@link StoreOptions}).
 */
final class RocksDbSettings implements AutoCloseable {
  static final String BLOCK_CACHE_BYTES = "rocksdb.blockCacheBytes";
  static final String WRITE_BUFFER_BYTES = "rocksdb.writeBufferBytes";
  static final String MAX_BACKGROUND_JOBS = "rocksdb.maxBackgroundJobs";
  static final String ROW_CACHE_BYTES = "rocksdb.rowCacheBytes";
  static final String VALUE_CACHE_BYTES = "rocksdb.valueCacheBytes";
  static final String WAL_COMPRESSION = "rocksdb.walCompression";
  static final String RECYCLE_LOG_FILES = "rocksdb.recycleLogFiles";
  static final String MEMTABLE_BLOOM_PERCENT = "rocksdb.memtableBloomPercent";
  static final String BACKUP_BYTES_PER_SECOND = "rocksdb.backupBytesPerSecond";
  static final String STATISTICS = "rocksdb.statistics";
  static final String RESERVED_DISK_BYTES = "rocksdb.reservedDiskBytes";
  private static final Set<String> KNOWN =
      Set.of(
          BLOCK_CACHE_BYTES,
          WRITE_BUFFER_BYTES,
          MAX_BACKGROUND_JOBS,
          ROW_CACHE_BYTES,
          VALUE_CACHE_BYTES,
          WAL_COMPRESSION,
          RECYCLE_LOG_FILES,
          MEMTABLE_BLOOM_PERCENT,
          BACKUP_BYTES_PER_SECOND,
          STATISTICS,
          RESERVED_DISK_BYTES);

  /**
   * RocksDB's names for the {@link #WAL_COMPRESSION} choices (its DBOptions property
   * wal_compression).
   */
  private static final Map<String, String> WAL_COMPRESSIONS =
      Map.of("zstd", "kZSTD", "none", "kNoCompression");

  private final LRUCache blockCache;
  private final LRUCache rowCache;
  private final BloomFilter bloomFilter;
  private final Options options;
  private final long valueCacheBytes;
  private final long backupBytesPerSecond;

  /** RocksDB's counters, or null when {@code rocksdb.statistics} is off. */
  private final Statistics statistics;

  /**
   * Tracks the data directory's files, so that RocksDB recovers by itself from a full disk in the
   * background: after a flush or compaction failed with ENOSPC, its error handler asks this manager
   * to poll for free space and resumes the database once there is enough. (Not after ENOSPC in the
   * log, which only {@code DB::Resume()} or a reopen clears: {@link SpaceReserve} keeps writes from
   * getting there; see docs/reliability.md.)
   */
  private final SstFileManager sstFileManager;

  private final long reservedDiskBytes;

  RocksDbSettings(StoreConfig config) {
    StoreOptions given = StoreOptions.of(config, "rocksdb", KNOWN);
    long cacheBytes = given.size(BLOCK_CACHE_BYTES, "128m");
    long writeBufferBytes = given.size(WRITE_BUFFER_BYTES, "64m");
    int backgroundJobs = (int) given.number(MAX_BACKGROUND_JOBS, "4", 1, 64);
    // every option checked before any native object exists
    String walCompression =
        WAL_COMPRESSIONS.get(given.choice(WAL_COMPRESSION, "zstd", List.of("zstd", "none")));
    int recycleLogFiles = (int) given.number(RECYCLE_LOG_FILES, "2", 0, 64);
    int memtableBloomPercent = (int) given.number(MEMTABLE_BLOOM_PERCENT, "2", 0, 25);
    backupBytesPerSecond = given.size(BACKUP_BYTES_PER_SECOND, "0");
    reservedDiskBytes = given.size(RESERVED_DISK_BYTES, Long.toString(writeBufferBytes));
    boolean tickers =
        given.choice(STATISTICS, "tickers", List.of("tickers", "off")).equals("tickers");

    valueCacheBytes =
        given.size(
            VALUE_CACHE_BYTES,
            Long.toString(defaultValueCacheBytes(Runtime.getRuntime().maxMemory())));
    long rowCacheBytes = given.size(ROW_CACHE_BYTES, "64m");
    blockCache = new LRUCache(cacheBytes, shardBits(cacheBytes));
    // Point reads dominate: a row cache answers a repeated get without searching a block.
    rowCache = rowCacheBytes > 0 ? new LRUCache(rowCacheBytes) : null;
    // 10 bits per key: about 1% false positives, so a point read of an absent key rarely touches
    // disk
    bloomFilter = new BloomFilter(10);
    BlockBasedTableConfig table =
        new BlockBasedTableConfig()
            .setBlockCache(blockCache)
            .setFilterPolicy(bloomFilter)
            .setBlockSize(16 * 1024)
            .setDataBlockIndexType(DataBlockIndexType.kDataBlockBinaryAndHash)
            // Index and filter blocks live in the block cache (bounded memory), partitioned into 4
            // KiB
            // pieces under a small pinned top level: a whole-file filter of a large file
            // (megabytes) would
            // not fit a cache shard, and every point read would load and checksum it again.
            .setCacheIndexAndFilterBlocks(true)
            .setCacheIndexAndFilterBlocksWithHighPriority(true)
            .setIndexType(IndexType.kTwoLevelIndexSearch)
            .setPartitionFilters(true)
            .setMetadataBlockSize(4 * 1024)
            .setPinTopLevelIndexAndFilter(true)
            .setPinL0FilterAndIndexBlocksInCache(true)
            .setFormatVersion(5);
    options =
        baseOptions(walCompression)
            .setCreateIfMissing(true)
            .setCompactionStyle(CompactionStyle.LEVEL)
            .setLevelCompactionDynamicLevelBytes(true)
            .setCompressionType(CompressionType.LZ4_COMPRESSION)
            .setWriteBufferSize(writeBufferBytes)
            // A bloom filter of the memtable's keys: a get of a key the memtable does not hold (an
            // insert's "absent" check, most point reads) skips the skip list's cache-missing search
            // (MemtableBloomBenchmark: an absent get 801 against 1,897 ns, docs/storage.md). 2% of
            // 64 MiB
            // is about 50 bits a key for entries of 300 bytes.
            .setMemtablePrefixBloomSizeRatio(memtableBloomPercent / 100.0)
            .setMemtableWholeKeyFiltering(memtableBloomPercent > 0)
            .setMaxWriteBufferNumber(3)
            .setMaxBackgroundJobs(backgroundJobs)
            .setBytesPerSync(1024 * 1024)
            .setKeepLogFileNum(5)
            // A log whose memtable is flushed is kept and written over from the start, not deleted:
            // a synced write then lands inside the file's size, so fdatasync need not commit the
            // file system's journal for the new length (a lone sync ~1.6x faster here). Records
            // carry
            // their log's number, so recovery stops at a previous use's leftovers.
            .setRecycleLogFileNum(recycleLogFiles)
            .setTableFormatConfig(table);
    if (rowCache != null) {
      options.setRowCache(rowCache);
    }
    try {
      sstFileManager = new SstFileManager(Env.getDefault());
    } catch (RocksDBException e) {
      throw new IllegalStateException(
          "RocksDB cannot make an SstFileManager: " + e.getMessage(), e);
    }
    options.setSstFileManager(sstFileManager);
    statistics = tickers ? new Statistics() : null;
    if (statistics != null) {
      statistics.setStatsLevel(StatsLevel.EXCEPT_DETAILED_TIMERS);
      options.setStatistics(statistics);
    }
  }

  /**
   * Options with the settings RocksJava has no setter for (the log's compression), read by RocksDB
   * from their option names; the rest are set on the result.
   */
  private static Options baseOptions(String walCompression) {
    Properties named = new Properties();
    named.setProperty("wal_compression", walCompression);
    try (DBOptions db = DBOptions.getDBOptionsFromProps(named);
        ColumnFamilyOptions columnFamily = new ColumnFamilyOptions()) {
      if (db == null) {
        throw new IllegalStateException("RocksDB did not accept wal_compression=" + walCompression);
      }
      return new Options(db, columnFamily); // copies both
    }
  }

  /**
   * Shards of at least 16 MiB (at most 64 of them). RocksDB's default is up to 64 shards of at
   * least 512 KiB (2 MiB each for 128 MiB), and a block larger than its shard is dropped as soon as
   * it is used: the metadata blocks of files written before partitioning (or by other tools) can be
   * megabytes. A few shards are plenty for the threads of a small machine.
   */
  static int shardBits(long cacheBytes) {
    int bits = 0;
    while (bits < 6 && (cacheBytes >> (bits + 1)) >= (16L << 20)) {
      bits++;
    }
    return bits;
  }

  Options options() {
    return options;
  }

  /** The bound of the store's {@link ValueCache}; 0: no value cache. */
  long valueCacheBytes() {
    return valueCacheBytes;
  }

  /** {@link #BACKUP_BYTES_PER_SECOND}: 0 for no limit. */
  long backupBytesPerSecond() {
    return backupBytesPerSecond;
  }

  /** {@link #RESERVED_DISK_BYTES}: 0 for no reserve. */
  long reservedDiskBytes() {
    return reservedDiskBytes;
  }

  /** RocksDB's counters, or null when they are off. */
  Statistics statistics() {
    return statistics;
  }

  @Override
  public void close() {
    options.close();
    sstFileManager.close();
    if (statistics != null) {
      statistics.close();
    }
    bloomFilter.close();
    blockCache.close();
    if (rowCache != null) {
      rowCache.close();
    }
  }

  /**
   * The value cache's default size for a JVM whose heap may grow to {@code maxHeap} bytes: an
   * eighth of it, at least 16 MiB and at most 1 GiB (a 1 GiB heap gets 128 MiB).
   */
  static long defaultValueCacheBytes(long maxHeap) {
    return Math.max(16L << 20, Math.min(1L << 30, maxHeap / 8));
  }
}
