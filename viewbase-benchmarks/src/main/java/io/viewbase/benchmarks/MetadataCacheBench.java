package io.viewbase.benchmarks;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompactRangeOptions;
import org.rocksdb.IndexType;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.PerfContext;
import org.rocksdb.PerfLevel;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * What a point read of one large compacted file costs under three block-cache setups (the bug
 * behind the Azure benchmark's degradation, docs/benchmarks.md): RocksDB's default cache sharding
 * with one filter block per file (Viewbase before the fix), 16 MiB shards with the same file, and
 * the file rewritten with partitioned index and filters (Viewbase's settings since). For each: the
 * microseconds per {@code get} and the bytes read from the file per {@code get} (RocksDB's perf
 * context), over random keys after as many warm-up reads.
 *
 * <pre>
 * java -cp viewbase-benchmarks/target/benchmarks.jar io.viewbase.benchmarks.MetadataCacheBench [keys] [reads]
 * </pre>
 */
public final class MetadataCacheBench {
  private static final long CACHE_BYTES = 128L << 20;
  private static final int SIXTEEN_MIB_SHARD_BITS = 3;

  private MetadataCacheBench() {}

  public static void main(String[] args) throws Exception {
    int keys = args.length > 0 ? Integer.parseInt(args[0]) : 2_100_000;
    int reads = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
    RocksDB.loadLibrary();
    Path dir = Files.createTempDirectory("viewbase-metadata-bench");
    try {
      write(dir, keys);
      System.out.printf(
          Locale.ROOT,
          "%,d keys in one compacted file, %,d random gets after %,d warm-up gets%n",
          keys,
          reads,
          reads);
      measure("whole-file filter, default shards (64 x 2 MiB)", dir, keys, reads, false, -1);
      measure("whole-file filter, 16 MiB shards", dir, keys, reads, false, SIXTEEN_MIB_SHARD_BITS);
      rewritePartitioned(dir);
      measure(
          "partitioned index and filter, 16 MiB shards",
          dir,
          keys,
          reads,
          true,
          SIXTEEN_MIB_SHARD_BITS);
    } finally {
      Dataset.deleteTree(dir);
    }
  }

  /** The keys, written and compacted into one file with one index and one filter block. */
  private static void write(Path dir, int keys) throws RocksDBException {
    try (BloomFilter filter = new BloomFilter(10);
        LRUCache cache = new LRUCache(CACHE_BYTES);
        Options options =
            new Options()
                .setCreateIfMissing(true)
                .setTableFormatConfig(table(cache, filter, false));
        RocksDB db = RocksDB.open(options, dir.toString());
        WriteOptions write = new WriteOptions()) {
      for (int start = 0; start < keys; start += 10_000) {
        try (WriteBatch batch = new WriteBatch()) {
          for (int i = start; i < Math.min(keys, start + 10_000); i++) {
            batch.put(key(i), value(i));
          }
          db.write(write, batch);
        }
      }
      db.compactRange();
    }
  }

  /** Rewrites every file with partitioned metadata, as new files of a Viewbase store are. */
  private static void rewritePartitioned(Path dir) throws RocksDBException {
    try (BloomFilter filter = new BloomFilter(10);
        LRUCache cache = new LRUCache(CACHE_BYTES);
        Options options = new Options().setTableFormatConfig(table(cache, filter, true));
        RocksDB db = RocksDB.open(options, dir.toString());
        CompactRangeOptions force =
            new CompactRangeOptions()
                .setBottommostLevelCompaction(
                    CompactRangeOptions.BottommostLevelCompaction.kForce)) {
      db.compactRange(db.getDefaultColumnFamily(), null, null, force);
    }
  }

  private static void measure(
      String what, Path dir, int keys, int reads, boolean partitioned, int shardBits)
      throws RocksDBException {
    try (BloomFilter filter = new BloomFilter(10);
        LRUCache cache = new LRUCache(CACHE_BYTES, shardBits);
        Options options = new Options().setTableFormatConfig(table(cache, filter, partitioned));
        RocksDB db = RocksDB.openReadOnly(options, dir.toString())) {
      SplittableRandom random = new SplittableRandom(1);
      List<byte[]> warmUp = randomKeys(random, keys, reads);
      List<byte[]> measured = randomKeys(random, keys, reads);
      for (byte[] k : warmUp) {
        found(db.get(k));
      }
      db.setPerfLevel(PerfLevel.ENABLE_COUNT);
      PerfContext perf = db.getPerfContext();
      perf.reset();
      long start = System.nanoTime();
      for (byte[] k : measured) {
        found(db.get(k));
      }
      long nanos = System.nanoTime() - start;
      System.out.printf(
          Locale.ROOT,
          "%-48s %8.1f µs/get %,12d bytes read/get%n",
          what,
          nanos / 1e3 / reads,
          perf.getBlockReadByte() / reads);
      db.setPerfLevel(PerfLevel.DISABLE);
    }
  }

  /** Viewbase's table settings (RocksDbSettings), with or without partitioned metadata. */
  private static BlockBasedTableConfig table(
      LRUCache cache, BloomFilter filter, boolean partitioned) {
    BlockBasedTableConfig table =
        new BlockBasedTableConfig()
            .setBlockCache(cache)
            .setFilterPolicy(filter)
            .setBlockSize(16 * 1024)
            .setCacheIndexAndFilterBlocks(true)
            .setPinL0FilterAndIndexBlocksInCache(true)
            .setFormatVersion(5);
    if (partitioned) {
      table
          .setCacheIndexAndFilterBlocksWithHighPriority(true)
          .setIndexType(IndexType.kTwoLevelIndexSearch)
          .setPartitionFilters(true)
          .setMetadataBlockSize(4 * 1024)
          .setPinTopLevelIndexAndFilter(true);
    }
    return table;
  }

  private static List<byte[]> randomKeys(SplittableRandom random, int keys, int count) {
    List<byte[]> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      out.add(key(random.nextInt(keys)));
    }
    return out;
  }

  private static void found(byte[] value) {
    if (value == null) {
      throw new IllegalStateException("a key written was not found");
    }
  }

  private static byte[] key(int i) {
    return String.format("p%03d\u0000\u0001k%08d", i % 1000, i).getBytes(StandardCharsets.UTF_8);
  }

  /** About the size of a stored benchmark entity, compressible as text is. */
  private static byte[] value(int i) {
    return ("{\"name\":\"Person "
            + i
            + "\",\"city\":\"Rotterdam\",\"age\":"
            + (i % 80)
            + ",\"bio\":\"Prefers short meetings, long walks and well-indexed tables.\"}")
        .getBytes(StandardCharsets.UTF_8);
  }
}
