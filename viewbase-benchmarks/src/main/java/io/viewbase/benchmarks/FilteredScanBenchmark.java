package io.viewbase.benchmarks;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Page;
import io.viewbase.api.Query;
import io.viewbase.api.QueryPlan;
import io.viewbase.api.Table;
import io.viewbase.api.Viewbase;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
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

/**
 * The cost of a filter no key or view covers: a whole-table scan of 100,000 items of 8 properties
 * (the {@link BenchItems} person record plus a {@code code} that 0.1% of items share), read page by
 * page through {@link Table#query} as a client would. Divide a score by {@code items} for the cost
 * per scanned entity. The number of matches is checked at setup, so a faster answer is also a right
 * one. Besides the wall time, {@link CpuTime} counts the benchmark thread's CPU time and scans: on
 * a shared machine CPU time per scan is the steadier figure (time spent waiting for a core is not
 * in it).
 *
 * <p>With {@code data=cached} (the default) the data set is built once per machine in a temporary
 * directory named after its size and reused by later forks: reopened, its entries are in RocksDB's
 * files, 100 to each of 1,000 partitions. With {@code data=fresh} each trial loads a new database
 * and scans it as loaded, its entries still in the memtable, 100 to a partition ({@code items /
 * 100} partitions): the shape of the Azure SDK benchmark's table on a fresh server (10,000
 * entities, 100 partitions; run it with {@code -p items=10000 -p data=fresh}). With {@code
 * storage=memory} the same fresh load goes to the memory backend.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class FilteredScanBenchmark {
  /** One item in a thousand: 100 of 100,000. */
  static final String EQUALITY = "code eq 'c042'";

  /** Two names, the first true of every item (all live in Rotterdam): also 100 of 100,000. */
  static final String COMPOUND = "city eq 'Rotterdam' and code eq 'c042'";

  private static final int CODES = 1000;

  @Param("100000")
  int items;

  /** {@code cached}: the data set of earlier forks, in files; {@code fresh}: a new memtable. */
  @Param("cached")
  String data;

  /**
   * {@code rocksdb}, or {@code memory}: the memory backend ({@code serve --storage memory}), loaded
   * as {@code data=fresh} loads (it keeps nothing between forks).
   */
  @Param("rocksdb")
  String storage;

  private Database db;
  private Table table;
  private Path freshDir;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    if (!storage.equals("rocksdb") && !storage.equals("memory")) {
      throw new IllegalArgumentException("storage is rocksdb or memory, not " + storage);
    }
    if (data.equals("fresh") || storage.equals("memory")) {
      freshDir = Files.createTempDirectory("viewbase-bench-filtered-scan-fresh");
      db =
          Viewbase.open(
              storage.equals("memory")
                  ? OpenOptions.inMemory()
                  : OpenOptions.at(freshDir).withSync(false));
      db.createTable(BenchItems.TABLE);
      Table t = db.table(BenchItems.TABLE);
      int partitions = Math.max(1, items / 100);
      for (int i = 0; i < items; i++) {
        Item.Builder item = Item.builder(String.format("p%03d", i % partitions), BenchItems.id(i));
        BenchItems.item(i, 0).properties().forEach(item::put);
        t.insert(item.put("code", String.format("c%03d", i % CODES)).build());
      }
    } else if (!data.equals("cached")) {
      throw new IllegalArgumentException("data is cached or fresh, not " + data);
    } else {
      db = open();
    }
    check();
  }

  private Database open() throws IOException {
    return Dataset.openLoadedOnce(
        "viewbase-bench-filtered-scan-" + items,
        loading -> {
          loading.createTable(BenchItems.TABLE);
          Table t = loading.table(BenchItems.TABLE);
          for (int i = 0; i < items; i++) {
            t.insert(
                BenchItems.item(i, 0).toBuilder()
                    .put("code", String.format("c%03d", i % CODES))
                    .build());
          }
        });
  }

  private void check() {
    table = db.table(BenchItems.TABLE);
    int expected = items / CODES;
    for (String filter : new String[] {EQUALITY, COMPOUND}) {
      QueryPlan plan = table.explain(Query.all().withFilter(filter));
      if (!plan.kind().equals(QueryPlan.SCAN)) {
        throw new IllegalStateException("expected a scan for " + filter + " but got " + plan);
      }
      int found = scan(filter);
      if (found != expected) {
        throw new IllegalStateException(
            filter + " matched " + found + " items, expected " + expected);
      }
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    db.close();
    Dataset.deleteTree(freshDir);
  }

  /** The items the filter matches over every page. */
  private int scan(String filter) {
    int n = 0;
    Query query = Query.all().withFilter(filter).withLimit(1000);
    while (true) {
      Page page = table.query(query);
      n += page.items().size();
      if (!page.hasMore()) {
        return n;
      }
      query = query.withContinuation(page.continuation());
    }
  }

  /** The thread's CPU time over the iteration's scans; cpuNanos / scans is CPU time per scan. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class CpuTime {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    public long cpuNanos;
    public long scans;

    int measure(FilteredScanBenchmark bench, String filter) {
      long start = THREADS.getCurrentThreadCpuTime();
      int found = bench.scan(filter);
      cpuNanos += THREADS.getCurrentThreadCpuTime() - start;
      scans++;
      return found;
    }
  }

  @Benchmark
  public int equality(CpuTime cpu) {
    return cpu.measure(this, EQUALITY);
  }

  @Benchmark
  public int compound(CpuTime cpu) {
    return cpu.measure(this, COMPOUND);
  }
}
