package io.viewbase.benchmarks;

import io.viewbase.api.Batch;
import io.viewbase.api.BatchResult;
import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Table;
import io.viewbase.api.Viewbase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Batches against single writes, side by side in one run (issue 5, acceptance 4): {@code db.commit}
 * of a batch of {@code size} upserts of existing items in distinct partitions, against {@code size}
 * single {@code table.upsert} calls one after the other, the same items either way.
 *
 * <pre>
 * method          | mode       | unit       | figure
 * ----------------+------------+------------+-----------------------------------------------------
 * batch, singles  | throughput | per second | "items" (aux counter): items written per second;
 *                 |            |            | the primary figure is invocations (batches) per second
 * batchLatency,   | sample     | us         | latency of one invocation: one batch, or size single
 * singlesLatency  |            |            | writes in a row (percentiles with the JMH output)
 * </pre>
 *
 * {@code sync=true} (the default of a database) syncs the log once per commit, so a batch pays one
 * sync for all its items while single writes pay one each; {@code sync=false} shows the engine's
 * own cost. One thread by default; {@code -t 16} shows group commit sharing syncs among writers.
 * Run: {@code java -jar viewbase-benchmarks/target/benchmarks.jar BatchBenchmark}.
 */
@State(Scope.Benchmark)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class BatchBenchmark {
  @Param({"1", "10", "100"})
  int size;

  @Param({"true", "false"})
  boolean sync;

  @Param("100000")
  int items;

  private Path root;
  private Database db;
  private Table table;

  /**
   * Two revisions of every group of {@code size} consecutive items (so rewrites store new bytes).
   */
  private Batch[] batches;

  private Item[][] groups;

  /** Items written, reported per second beside the invocations. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Written {
    public long items;
  }

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    if (items < size) {
      throw new IllegalArgumentException(
          "items (" + items + ") must be at least size (" + size + ")");
    }
    root = Files.createTempDirectory("viewbase-bench-batch");
    db = ViewWriteBenchmark.open(root, items, 0);
    if (sync) {
      db.close();
      db = Viewbase.open(OpenOptions.at(root));
    }
    table = db.table(BenchItems.TABLE);
    int perRevision = items / size;
    batches = new Batch[2 * perRevision];
    groups = new Item[2 * perRevision][];
    for (int revision = 0; revision < 2; revision++) {
      for (int g = 0; g < perRevision; g++) {
        // Consecutive items fall in consecutive partitions (BenchItems spreads them over 1000).
        Batch.Builder batch = Batch.builder();
        Item[] group = new Item[size];
        for (int k = 0; k < size; k++) {
          group[k] = BenchItems.item(g * size + k, revision + 1);
          batch.upsert(BenchItems.TABLE, group[k]);
        }
        batches[revision * perRevision + g] = batch.build();
        groups[revision * perRevision + g] = group;
      }
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    if (db != null) {
      db.close();
    }
    Dataset.deleteTree(root);
  }

  private int pick() {
    return ThreadLocalRandom.current().nextInt(batches.length);
  }

  private BatchResult commitOne() {
    return db.commit(batches[pick()]);
  }

  private void upsertOneGroup(Blackhole bh) {
    for (Item item : groups[pick()]) {
      bh.consume(table.upsert(item));
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  public BatchResult batch(Written written) {
    written.items += size;
    return commitOne();
  }

  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  public void singles(Written written, Blackhole bh) {
    written.items += size;
    upsertOneGroup(bh);
  }

  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public BatchResult batchLatency() {
    return commitOne();
  }

  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public void singlesLatency(Blackhole bh) {
    upsertOneGroup(bh);
  }
}
