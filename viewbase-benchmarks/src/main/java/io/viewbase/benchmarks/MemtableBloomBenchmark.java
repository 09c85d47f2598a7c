package io.viewbase.benchmarks;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Table;
import io.viewbase.api.Viewbase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Point reads that the memtable cannot answer, with and without its bloom filter ({@code
 * rocksdb.memtableBloomPercent}, {@code -p memtableBloomPercent=0,2}): 150,000 items written into
 * one 64 MiB memtable (nothing flushed), the value and row caches off so that every read asks
 * RocksDB. {@code absentGet} reads ids no item has (an insert's "absent" check reads the same way);
 * {@code presentGet} reads stored items, which the filter cannot skip (its own cost).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 4, time = 2)
@Fork(1)
public class MemtableBloomBenchmark {
  private static final int ITEMS = 150_000;

  @Param({"0", "2"})
  String memtableBloomPercent;

  private Path root;
  private Database db;
  private Table table;

  /**
   * The stored items' keys and ids no item has, built once: building them is not what is measured.
   */
  private String[] partitionKeys;

  private String[] ids;
  private String[] absentIds;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    root = Files.createTempDirectory("viewbase-bench-memtable-bloom");
    db =
        Viewbase.open(
            OpenOptions.at(root)
                .withSync(false)
                .withOptions(
                    Map.of(
                        "rocksdb.memtableBloomPercent", memtableBloomPercent,
                        "rocksdb.valueCacheBytes", "0",
                        "rocksdb.rowCacheBytes", "0")));
    Dataset.load(db, ITEMS);
    table = db.table(BenchItems.TABLE);
    partitionKeys = new String[ITEMS];
    ids = new String[ITEMS];
    absentIds = new String[ITEMS];
    for (int i = 0; i < ITEMS; i++) {
      partitionKeys[i] = BenchItems.pk(i);
      ids[i] = BenchItems.id(i);
      absentIds[i] = ids[i] + "-absent";
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    if (db != null) {
      db.close();
    }
    Dataset.deleteTree(root);
  }

  @Benchmark
  public Optional<Item> absentGet() {
    int i = ThreadLocalRandom.current().nextInt(ITEMS);
    return table.get(partitionKeys[i], absentIds[i]);
  }

  @Benchmark
  public Optional<Item> presentGet() {
    int i = ThreadLocalRandom.current().nextInt(ITEMS);
    return table.get(partitionKeys[i], ids[i]);
  }
}
