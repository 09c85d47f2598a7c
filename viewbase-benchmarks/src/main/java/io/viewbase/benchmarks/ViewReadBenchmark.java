package io.viewbase.benchmarks;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.Table;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * A point read from a view against a point read of the same item from its source table, in one
 * database: {@code view.get("all", email)} vs {@code table.get(pk, id)}. Target (issue 3): within
 * 10%.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class ViewReadBenchmark {
  @Param("100000")
  int items;

  private Path root;
  private Database db;
  private Table base;
  private Table view;
  private String[] emails;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    root = Files.createTempDirectory("viewbase-bench-view-read");
    db = ViewWriteBenchmark.open(root, items, 1);
    base = db.table(BenchItems.TABLE);
    view = db.table("BenchByEmail");
    emails = new String[items];
    for (int i = 0; i < items; i++) {
      emails[i] = "person" + i + "@example.com";
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    db.close();
    Dataset.deleteTree(root);
  }

  @Benchmark
  public Optional<Item> baseGet() {
    int i = ThreadLocalRandom.current().nextInt(items);
    return base.get(BenchItems.pk(i), BenchItems.id(i));
  }

  @Benchmark
  public Optional<Item> viewGet() {
    return view.get("all", emails[ThreadLocalRandom.current().nextInt(items)]);
  }
}
