package io.viewbase.storage.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.OrderedKeyCodec;
import io.viewbase.storage.spi.StoreConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.PerfContext;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * A point read of a large compacted file reads about one data block from it, not the file's whole
 * filter. With one filter block per file, a file of two million keys has a filter of 2.6 MB; a
 * block larger than its block-cache shard (512 KiB to 2 MiB by RocksDB's default sharding) is
 * dropped as soon as it has been used, so every read loaded and checksummed the whole filter again.
 * Found under the Azure benchmark: after a few million writes, compaction left one such file and
 * point reads and inserts became 5-8x slower, half of it the kernel copying the file's pages. New
 * files have partitioned filters and indexes (4 KiB pieces); larger cache shards keep the
 * whole-file metadata of files written before that (or by other tools) cached too.
 */
class RocksDbMetadataCacheTest {
  /** Keys in one file: enough for a whole-file filter of about 2.6 MB. */
  private static final int KEYS = 2_100_000;

  private static final int READS = 1_000;

  /** A data block is 16 KiB and a metadata piece 4 KiB; the whole filter would be ~2.6 MB. */
  private static final long MAX_BYTES_PER_READ = 48 * 1024;

  static {
    RocksDB.loadLibrary();
  }

  @TempDir Path dir;

  @Test
  void pointReadsOfALargeFileWrittenByTheStoreReadAboutOneDataBlockEach() throws Exception {
    try (RocksDbStore store =
        RocksDbStore.open(new StoreConfig(dir, false, PerfCounts.CACHES_OFF))) {
      for (int start = 0; start < KEYS; start += 10_000) {
        List<Mutation> batch = new ArrayList<>(10_000);
        for (int i = start; i < start + 10_000; i++) {
          batch.add(Mutation.put(partition(i), key(i), i + 1, value(i)));
        }
        store.commit(batch);
      }
      store.rocksDb().compactRange();

      assertThat(bytesReadPerPointRead(store)).isLessThan(MAX_BYTES_PER_READ);
    }
  }

  @Test
  void pointReadsOfALargeFileWithAWholeFileFilterReadAboutOneDataBlockEach() throws Exception {
    // Written as by a store of before partitioned metadata: one index and one filter block per
    // file.
    try (BloomFilter filter = new BloomFilter(10);
        LRUCache cache = new LRUCache(8 << 20);
        Options options =
            new Options()
                .setCreateIfMissing(true)
                .setTableFormatConfig(
                    new BlockBasedTableConfig()
                        .setBlockCache(cache)
                        .setFilterPolicy(filter)
                        .setBlockSize(16 * 1024)
                        .setFormatVersion(5));
        RocksDB db = RocksDB.open(options, dir.toString());
        WriteOptions write = new WriteOptions()) {
      for (int start = 0; start < KEYS; start += 10_000) {
        try (WriteBatch batch = new WriteBatch()) {
          for (int i = start; i < start + 10_000; i++) {
            batch.put(
                OrderedKeyCodec.encode(partition(i), key(i)), StoredValue.encode(i + 1, value(i)));
          }
          db.write(write, batch);
        }
      }
      db.compactRange();
    }

    try (RocksDbStore store =
        RocksDbStore.open(new StoreConfig(dir, false, PerfCounts.CACHES_OFF))) {
      assertThat(bytesReadPerPointRead(store)).isLessThan(MAX_BYTES_PER_READ);
    }
  }

  @Test
  void blockCacheShardsHoldAtLeast16MiB() {
    assertThat(RocksDbSettings.shardBits(8L << 20)).isZero();
    assertThat(RocksDbSettings.shardBits(32L << 20)).isEqualTo(1);
    assertThat(RocksDbSettings.shardBits(128L << 20)).isEqualTo(3);
    assertThat(RocksDbSettings.shardBits(64L << 30)).isEqualTo(6);
  }

  /** Warms the cache with random reads, then measures what more random reads read from files. */
  private static long bytesReadPerPointRead(RocksDbStore store) {
    Random random = new Random(7);
    for (int i = 0; i < READS; i++) {
      int k = random.nextInt(KEYS);
      assertThat(store.get(partition(k), key(k))).isPresent();
    }
    return PerfCounts.during(
            store.rocksDb(),
            () -> {
              for (int i = 0; i < READS; i++) {
                int k = random.nextInt(KEYS);
                assertThat(store.get(partition(k), key(k)).orElseThrow().version())
                    .isEqualTo(k + 1);
              }
            },
            PerfContext::getBlockReadByte)
        / READS;
  }

  private static byte[] partition(int i) {
    return b("p" + (i % 100));
  }

  private static byte[] key(int i) {
    return b(String.format("k%08d", i));
  }

  private static byte[] value(int i) {
    return b("v" + i);
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
