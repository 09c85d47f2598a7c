package io.viewbase.benchmarks;

import io.viewbase.api.ChangePage;
import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.Table;
import io.viewbase.api.TableOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the change feed costs and gives: durable upserts of the benchmark items with the table's
 * feed off and on ({@code -p feed=off,on} in one run: the ratio is the feed's cost per durable
 * write; target: on at least 80% of off, i.e. at most +25% per write), from 64 writers sharing log
 * syncs and from one writer alone; and reading the feed, in entries per second, a page of 1000 at a
 * time from a feed of {@code items} entries.
 *
 * <p>With the feed on, a write is decided by reading its item (the entry says whether it inserted
 * or updated), and its commit carries one more entry, numbered by the store.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class ChangeFeedBenchmark {
  @Param("100000")
  int items;

  @Param({"off", "on"})
  String feed;

  private static final int PAGE = 1000;

  private Path root;
  private Database db;
  private Table table;
  private Item[] toWrite;
  private long latest;
  private long position;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    root = Files.createTempDirectory("viewbase-bench-feed");
    Dataset dataset = Dataset.create(root, items, Map.of());
    toWrite = BenchItems.items(items);
    db = dataset.openEngine(true);
    if (feed.equals("on")) {
      db.alterTable(
          BenchItems.TABLE, TableOptions.DEFAULT.withChangeFeed(TableOptions.ChangeFeed.ON));
    }
    table = db.table(BenchItems.TABLE);
    if (feed.equals("on")) {
      // a feed of `items` entries to read, and the writes' log records in steady state
      InFlightUpserts.write(table, toWrite, 64, items);
      latest = table.changes(0, 1).latest();
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
  @Threads(64)
  public Item upsert64Writers() {
    return table.upsert(toWrite[ThreadLocalRandom.current().nextInt(items)]);
  }

  @Benchmark
  @Threads(1)
  public Item upsertOneWriter() {
    return table.upsert(toWrite[ThreadLocalRandom.current().nextInt(items)]);
  }

  /** A page of 1000 entries; the score is entries per second (feed=on only). */
  @Benchmark
  @Threads(1)
  @OperationsPerInvocation(PAGE)
  public ChangePage readFeed() {
    if (latest == 0) {
      throw new IllegalStateException("readFeed needs -p feed=on");
    }
    if (position + PAGE > latest) {
      position = 0;
    }
    ChangePage page = table.changes(position, PAGE);
    position = page.next();
    return page;
  }
}
