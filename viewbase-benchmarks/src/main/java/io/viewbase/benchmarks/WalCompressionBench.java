package io.viewbase.benchmarks;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Table;
import io.viewbase.api.Viewbase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Durable writes with the write-ahead log compressed (zstd, the default) against uncompressed, side
 * by side in one process: two databases of the same 100,000 items, each written by 64 durable
 * upserts kept in flight from one thread ({@code Table.upsertAsync}, as the server writes), taking
 * turns in bursts of one second (the first in a round alternating) so that whatever else the
 * machine does falls on both alike.
 *
 * <p>{@code java -cp viewbase-benchmarks/target/benchmarks.jar io.viewbase.benchmarks.WalCompressionBench
 * [rounds=10] [inFlight=64]}; the first two rounds are warm-up.
 */
public final class WalCompressionBench {
  private static final String[] COMPRESSIONS = {"zstd", "none"};

  private WalCompressionBench() {
  }

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    int inFlight = args.length > 1 ? Integer.parseInt(args[1]) : 64;
    Path root = Files.createTempDirectory("viewbase-wal-compression");
    Item[] items = BenchItems.items(100_000);
    Database[] dbs = new Database[COMPRESSIONS.length];
    try {
      for (int i = 0; i < dbs.length; i++) {
        Path dir = root.resolve(COMPRESSIONS[i]);
        Map<String, String> options = Map.of("rocksdb.walCompression", COMPRESSIONS[i]);
        try (Database loading = Viewbase.open(OpenOptions.at(dir).withSync(false).withOptions(options))) {
          Dataset.load(loading, items.length);
        }
        dbs[i] = Viewbase.open(OpenOptions.at(dir).withSync(true).withOptions(options));
      }
      long[] writes = new long[dbs.length];
      long[] nanos = new long[dbs.length];
      for (int round = 0; round < rounds; round++) {
        StringBuilder line = new StringBuilder("round " + round + (round < 2 ? " (warm-up):" : ":"));
        for (int turn = 0; turn < dbs.length; turn++) {
          int i = (turn + round) % dbs.length; // who goes first alternates
          long start = System.nanoTime();
          long n = burst(dbs[i].table(BenchItems.TABLE), items, inFlight, start + 1_000_000_000L);
          long elapsed = System.nanoTime() - start;
          line.append(String.format(" %s %,.0f writes/s", COMPRESSIONS[i], n * 1e9 / elapsed));
          if (round >= 2) {
            writes[i] += n;
            nanos[i] += elapsed;
          }
        }
        System.out.println(line);
      }
      double compressed = writes[0] * 1e9 / nanos[0];
      double plain = writes[1] * 1e9 / nanos[1];
      System.out.printf("measured rounds: zstd %,.0f writes/s, none %,.0f writes/s: %.2fx%n", compressed, plain,
          compressed / plain);
    } finally {
      for (Database db : dbs) {
        if (db != null) {
          db.close();
        }
      }
      Dataset.deleteTree(root);
    }
  }

  /** Keeps {@code inFlight} durable upserts of random items going until {@code deadline}; returns how many completed. */
  private static long burst(Table table, Item[] items, int inFlight, long deadline) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    CompletableFuture<?>[] ring = new CompletableFuture<?>[inFlight];
    long done = 0;
    for (int i = 0; System.nanoTime() < deadline; i = (i + 1) % inFlight) {
      if (ring[i] != null) {
        ring[i].join();
        done++;
      }
      ring[i] = table.upsertAsync(items[random.nextInt(items.length)]);
    }
    for (CompletableFuture<?> last : ring) {
      if (last != null) {
        last.join();
        done++;
      }
    }
    return done;
  }
}
