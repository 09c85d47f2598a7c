package io.viewbase.benchmarks;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Table;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import io.viewbase.api.Viewbase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
 * What views cost a write: {@code table.upsert} of an existing item on a table with 0, 1 and 3
 * views; with {@code sync=false} (the default here) the figure is the engine's work, not the
 * disk's; {@code -p sync=true} measures durable writes, the database's default. Each rewrite keeps
 * the view keys, so every view entry is rewritten in the source's batch. Target (issue 3): each
 * view adds at most 60% to a write.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class ViewWriteBenchmark {
  /** The views of the benchmark table, in the order they are added. */
  static final List<ViewDefinition> VIEWS =
      List.of(
          ViewDefinition.of("BenchByEmail", BenchItems.TABLE, "all", "{email}"),
          ViewDefinition.of("BenchByCity", BenchItems.TABLE, "{city}", "{age:03}#{id}"),
          ViewDefinition.of("BenchByName", BenchItems.TABLE, "{partitionKey}", "{name|lower}"));

  @Param({"0", "1", "3"})
  int views;

  @Param("100000")
  int items;

  /** false: the engine's own cost (no log sync); true: durable writes, the default, one writer. */
  @Param("false")
  boolean sync;

  private Path root;
  private Database db;
  private Table table;
  private Item[][] revisions;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    root = Files.createTempDirectory("viewbase-bench-views");
    db = open(root, items, views);
    if (sync) {
      db.close();
      db = Viewbase.open(OpenOptions.at(root));
    }
    table = db.table(BenchItems.TABLE);
    revisions = new Item[2][items];
    for (int i = 0; i < items; i++) {
      revisions[0][i] = BenchItems.item(i, 1);
      revisions[1][i] = BenchItems.item(i, 2);
    }
  }

  /**
   * A sync=false database whose table holds {@code items} items and has the first {@code views}
   * views, built.
   */
  static Database open(Path root, int items, int views) {
    Database db = Viewbase.open(OpenOptions.at(root).withSync(false));
    db.createTable(BenchItems.TABLE);
    Table table = db.table(BenchItems.TABLE);
    for (int i = 0; i < items; i++) {
      table.insert(BenchItems.item(i, 0));
    }
    for (ViewDefinition view : VIEWS.subList(0, views)) {
      db.createView(view);
      while (db.viewStatus(view.name()).state().equals(ViewStatus.BUILDING)) {
        Thread.onSpinWait();
      }
    }
    return db;
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    db.close();
    Dataset.deleteTree(root);
  }

  @Benchmark
  public Item upsert() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    return table.upsert(revisions[random.nextInt(2)][random.nextInt(items)]);
  }
}
