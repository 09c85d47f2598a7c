package io.viewbase.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.Env;
import org.rocksdb.LRUCache;
import org.rocksdb.OptionsUtil;
import org.rocksdb.RocksDBException;

/**
 * The block-based table settings of a RocksDB directory, rebuilt with native objects of our own: a
 * block cache of a given capacity and the bloom filter the directory's OPTIONS file names.
 *
 * <p>Why rebuild: options loaded from an OPTIONS file come with a default-sized block cache, and
 * the filter object RocksJava fetches with them cannot be handed back to a new table config (the
 * JVM crashes), so the loaded scalar settings are copied onto a fresh config instead.
 */
final class TableOptions implements AutoCloseable {
  private static final Pattern BLOOM =
      Pattern.compile("filter_policy=bloomfilter:([0-9.]+):(true|false)");

  private final LRUCache cache;
  private final BloomFilter bloom;

  private TableOptions(LRUCache cache, BloomFilter bloom) {
    this.cache = cache;
    this.bloom = bloom;
  }

  /**
   * Gives every column family in {@code descriptors} its loaded table settings over a new cache.
   */
  static TableOptions restore(
      Path dir, List<ColumnFamilyDescriptor> descriptors, long blockCacheBytes)
      throws RocksDBException {
    LRUCache cache = new LRUCache(blockCacheBytes);
    Double bloomBits = bloomBitsPerKey(dir);
    BloomFilter bloom = bloomBits == null ? null : new BloomFilter(bloomBits, false);
    for (ColumnFamilyDescriptor d : descriptors) {
      ColumnFamilyOptions cf = d.getOptions();
      if (cf.tableFormatConfig() instanceof BlockBasedTableConfig loaded) {
        BlockBasedTableConfig table =
            new BlockBasedTableConfig()
                .setBlockCache(cache)
                .setBlockSize(loaded.blockSize())
                .setCacheIndexAndFilterBlocks(loaded.cacheIndexAndFilterBlocks())
                .setCacheIndexAndFilterBlocksWithHighPriority(
                    loaded.cacheIndexAndFilterBlocksWithHighPriority())
                .setPinL0FilterAndIndexBlocksInCache(loaded.pinL0FilterAndIndexBlocksInCache())
                .setWholeKeyFiltering(loaded.wholeKeyFiltering())
                .setFormatVersion(loaded.formatVersion());
        if (bloom != null) {
          table.setFilterPolicy(bloom);
        }
        cf.setTableFormatConfig(table);
      }
    }
    return new TableOptions(cache, bloom);
  }

  /** Bits per key of the bloom filter named in the directory's latest OPTIONS file, or null. */
  private static Double bloomBitsPerKey(Path dir) throws RocksDBException {
    String name = OptionsUtil.getLatestOptionsFileName(dir.toString(), Env.getDefault());
    try {
      Matcher m = BLOOM.matcher(Files.readString(dir.resolve(name)));
      return m.find() ? Double.valueOf(m.group(1)) : null;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    if (bloom != null) {
      bloom.close();
    }
    cache.close();
  }
}
