package io.viewbase.benchmarks;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.ItemMapping;
import io.viewbase.api.Table;
import io.viewbase.json.ItemJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
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
 * What the native API's point read costs below HTTP, in one run: a read decoded into an
 * {@link Item} and rendered as JSON ({@code getThenRender}, the path before mapped reads) against
 * a mapped read with the same rendering ({@code mappedGet}), which the RocksDB backend answers with
 * the bytes rendered at the first read while the item is unchanged. Random items among 100,000,
 * all in the value cache after the warm-up.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class RenderedReadBenchmark {
  /** The item's JSON as {@code GET /v1/tables/{t}/items/{pk}/{id}} sends it. */
  private static final ItemMapping<byte[]> JSON = new ItemMapping<>() {
    @Override
    public byte[] map(Item item) {
      return ItemJson.write(item);
    }

    @Override
    public long weight(byte[] result) {
      return 16 + result.length;
    }
  };

  @Param("100000")
  int items;

  private Path root;
  private Database db;
  private Table table;
  private String[] pks;
  private String[] ids;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    root = Files.createTempDirectory("viewbase-bench-rendered");
    Dataset dataset = Dataset.create(root, items);
    System.out.println("dataset: " + dataset.describe());
    db = dataset.openEngine(false);
    table = db.table(BenchItems.TABLE);
    pks = new String[items];
    ids = new String[items];
    for (int i = 0; i < items; i++) {
      pks[i] = BenchItems.pk(i);
      ids[i] = BenchItems.id(i);
    }
    byte[] direct = ItemJson.write(table.get(pks[0], ids[0]).orElseThrow());
    byte[] mapped = table.get(pks[0], ids[0], JSON).orElseThrow();
    if (!Arrays.equals(direct, mapped)) {
      throw new IllegalStateException("the mapped read renders other bytes than the plain one");
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
  public byte[] getThenRender() {
    int i = ThreadLocalRandom.current().nextInt(items);
    return ItemJson.write(table.get(pks[i], ids[i]).orElseThrow());
  }

  @Benchmark
  public byte[] mappedGet() {
    int i = ThreadLocalRandom.current().nextInt(items);
    return table.get(pks[i], ids[i], JSON).orElseThrow();
  }
}
