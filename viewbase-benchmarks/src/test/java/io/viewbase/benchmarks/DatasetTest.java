package io.viewbase.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Env;
import org.rocksdb.OptionsUtil;
import org.rocksdb.RocksDBException;

class DatasetTest {
  private static final int ITEMS = 300;

  @TempDir Path root;

  @Test
  void createLoadsEveryItemIntoTheEngine() {
    Dataset dataset = Dataset.create(root, ITEMS);

    try (Database db = dataset.openEngine(false)) {
      for (int i : new int[] {0, ITEMS / 2, ITEMS - 1}) {
        Item stored =
            db.table(BenchItems.TABLE).get(BenchItems.pk(i), BenchItems.id(i)).orElseThrow();
        assertThat(stored.properties()).isEqualTo(BenchItems.item(i, 0).properties());
      }
    }
  }

  @Test
  void createCopiesTheEngineBytesIntoTheRawDatabase() throws RocksDBException {
    Dataset dataset = Dataset.create(root, ITEMS);

    assertThat(dataset.keys().length).isGreaterThanOrEqualTo(ITEMS);
    try (RawRocksDb raw = dataset.openRaw()) {
      for (int i = 0; i < dataset.keys().length; i++) {
        assertThat(raw.db().get(dataset.keys()[i])).isEqualTo(dataset.values()[i]);
      }
    }
  }

  @Test
  void theRawCopyRunsWithTheLogCompressionTheEngineWasCreatedWith() throws Exception {
    for (String[] compression : new String[][] {{"none", "kNoCompression"}, {"zstd", "kZSTD"}}) {
      Path dir = root.resolve(compression[0]);
      Dataset dataset =
          Dataset.create(dir, ITEMS, Map.of("rocksdb.walCompression", compression[0]));
      try (RawRocksDb raw = dataset.openRaw()) {
        // Opening writes a fresh OPTIONS file with what the raw database really runs with.
        assertThat(raw.db()).isNotNull();
      }
      assertThat(latestOptions(dataset.rawDir())).contains("wal_compression=" + compression[1]);
    }
  }

  @Test
  void openRawHasTheEnginesBlockCacheCapacity() throws Exception {
    Dataset dataset = Dataset.create(root, ITEMS);

    try (RawRocksDb raw = dataset.openRaw()) {
      assertThat(raw.property("rocksdb.block-cache-capacity"))
          .isEqualTo(Long.toString(Dataset.BLOCK_CACHE_BYTES));
    }
  }

  @Test
  void openRawHasTheEnginesColumnFamilyAndTableOptions() throws Exception {
    Dataset dataset = Dataset.create(root, ITEMS);
    try (RawRocksDb raw = dataset.openRaw()) {
      // Opening writes a fresh OPTIONS file with what the raw database really runs with.
      assertThat(raw.db()).isNotNull();
    }

    String engine = latestOptions(dataset.engineDir());
    String raw = latestOptions(dataset.rawDir());
    assertThat(engine).contains("filter_policy=bloomfilter:10");
    assertThat(section(raw, "[TableOptions/BlockBasedTable \"default\"]"))
        .isEqualTo(section(engine, "[TableOptions/BlockBasedTable \"default\"]"));
    assertThat(section(raw, "[CFOptions \"default\"]"))
        .isEqualTo(section(engine, "[CFOptions \"default\"]"));
  }

  private static String latestOptions(Path dir) throws Exception {
    String name = OptionsUtil.getLatestOptionsFileName(dir.toString(), Env.getDefault());
    return Files.readString(dir.resolve(name));
  }

  /** The lines of one [section] of an OPTIONS file. */
  private static List<String> section(String options, String header) {
    List<String> lines = options.lines().map(String::trim).toList();
    int start = lines.indexOf(header);
    assertThat(start).as("section %s", header).isNotNegative();
    int end = start + 1;
    while (end < lines.size() && !lines.get(end).startsWith("[")) {
      end++;
    }
    return lines.subList(start + 1, end);
  }

  @Test
  void itemsEncodeToAboutTwoHundredBytes() {
    Dataset dataset = Dataset.create(root, ITEMS);

    // The doc promises ~200-byte values; keep the generator honest if the codec changes.
    long total = 0;
    for (byte[] v : dataset.values()) {
      total += v.length;
    }
    assertThat(total / dataset.values().length).isBetween(170L, 260L);
  }
}
