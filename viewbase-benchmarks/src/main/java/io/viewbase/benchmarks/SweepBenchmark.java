package io.viewbase.benchmarks;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Table;
import io.viewbase.api.Value;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import io.viewbase.api.Viewbase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

/**
 * The time-to-live sweep rate: load N items whose {@code _ttl} is a datetime already past (expired
 * as written), then time a forced sweep ({@code Database.expire}, not rate-limited) that removes
 * them all, on RocksDB with sync=false; once on a table without views and once with one view, whose
 * entries go in the same commits. The background sweeper is held off (a long interval) so the
 * forced sweep does all the work.
 *
 * <pre>
 * java -cp viewbase-benchmarks/target/benchmarks.jar io.viewbase.benchmarks.SweepBenchmark [items] [rounds]
 * </pre>
 */
public final class SweepBenchmark {
  private static final Value PAST = Value.DateTime.of(Instant.parse("2000-01-01T00:00:00Z"));

  private SweepBenchmark() {}

  public static void main(String[] args) throws Exception {
    int items = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    Item[] toLoad = BenchItems.items(items);
    for (int i = 0; i < toLoad.length; i++) {
      toLoad[i] = toLoad[i].toBuilder().put("_ttl", PAST).build();
    }
    for (boolean withView : new boolean[] {false, true}) {
      for (int round = 1; round <= rounds; round++) {
        Path root = Files.createTempDirectory("viewbase-bench-sweep");
        OpenOptions options =
            OpenOptions.at(root)
                .withSync(false)
                .withOptions(Map.of("sweep.intervalSeconds", "86400"));
        try (Database db = Viewbase.open(options)) {
          db.createTable(BenchItems.TABLE);
          if (withView) {
            db.createView(ViewDefinition.of("BenchByEmail", BenchItems.TABLE, "all", "{email}"));
            while (db.viewStatus("BenchByEmail").state().equals(ViewStatus.BUILDING)) {
              Thread.sleep(1);
            }
          }
          Table table = db.table(BenchItems.TABLE);
          for (Item item : toLoad) {
            table.upsert(item);
          }
          long t0 = System.nanoTime();
          long removed = db.expire(BenchItems.TABLE);
          long t1 = System.nanoTime();
          if (removed != items) {
            throw new IllegalStateException("swept " + removed + " of " + items);
          }
          System.out.printf(
              "%s, round %d: swept %,d items in %.2f s, %,.0f items/s%n",
              withView ? "one view" : "no view",
              round,
              removed,
              (t1 - t0) / 1e9,
              removed / ((t1 - t0) / 1e9));
        } finally {
          Dataset.deleteTree(root);
        }
      }
    }
  }
}
