package io.viewbase.benchmarks;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Table;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import io.viewbase.api.Viewbase;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Backfill rate against bulk-load rate of the same items, in one process, in turns: load N items
 * into a table (single-threaded {@code insert}, sync=false), then create a view over them and time
 * the backfill until ready. Target (issue 3): backfill at least 50% of the bulk-load rate.
 *
 * <pre>
 * java -cp viewbase-benchmarks/target/benchmarks.jar io.viewbase.benchmarks.BackfillBench [items] [rounds]
 * </pre>
 */
public final class BackfillBench {
  private BackfillBench() {}

  public static void main(String[] args) throws Exception {
    int items = args.length > 0 ? Integer.parseInt(args[0]) : 500_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    Item[] toLoad = BenchItems.items(items);
    for (int round = 1; round <= rounds; round++) {
      Path root = Files.createTempDirectory("viewbase-bench-backfill");
      try (Database db = Viewbase.open(OpenOptions.at(root).withSync(false))) {
        db.createTable(BenchItems.TABLE);
        Table table = db.table(BenchItems.TABLE);
        long t0 = System.nanoTime();
        for (Item item : toLoad) {
          table.insert(item);
        }
        long t1 = System.nanoTime();
        db.createView(ViewDefinition.of("BenchByEmail", BenchItems.TABLE, "all", "{email}"));
        while (db.viewStatus("BenchByEmail").state().equals(ViewStatus.BUILDING)) {
          Thread.sleep(1);
        }
        long t2 = System.nanoTime();
        if (!db.viewStatus("BenchByEmail").isReady()) {
          throw new IllegalStateException(
              "the view did not build: " + db.viewStatus("BenchByEmail"));
        }
        double load = items / ((t1 - t0) / 1e9);
        double backfill = items / ((t2 - t1) / 1e9);
        System.out.printf(
            "round %d: bulk load %,.0f items/s, backfill %,.0f items/s, backfill/load %.0f%%%n",
            round, load, backfill, 100 * backfill / load);
      } finally {
        Dataset.deleteTree(root);
      }
    }
  }
}
