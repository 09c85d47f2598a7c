package io.viewbase.benchmarks;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Durable writes under two sets of store options, side by side in one process: two databases of the
 * same 100,000 items, each written by durable upserts kept in flight from one thread ({@code
 * Table.upsertAsync}, as the server writes), taking turns in bursts of one second (the first in a
 * round alternating) so that whatever else the machine does falls on both alike.
 *
 * <p>{@code java -cp viewbase-benchmarks/target/benchmarks.jar
 * io.viewbase.benchmarks.PairedWriteBench ROUNDS IN_FLIGHT OPTIONS_A OPTIONS_B}, each OPTIONS
 * {@code name=value[,name=value...]} or {@code default}; e.g. {@code 30 64
 * rocksdb.walCompression=zstd rocksdb.walCompression=none}. IN_FLIGHT may also name one count for
 * each side, {@code A/B}: {@code 30 64/1 default default} sets group commit (64 writes in flight)
 * against one sync per write (each write waits for its own sync) under the same disk. The first two
 * rounds are warm-up. An optional fifth argument, FILL_SECONDS, first writes each database that
 * long as its rounds will, so that its memtables have been flushed and its log files recycled, as a
 * running server's are.
 */
public final class PairedWriteBench {
  private PairedWriteBench() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 4 && args.length != 5) {
      System.err.println(
          "usage: PairedWriteBench ROUNDS IN_FLIGHT[/IN_FLIGHT_B] OPTIONS_A OPTIONS_B [FILL_SECONDS] "
              + "(OPTIONS: name=value[,name=value...] or default)");
      System.exit(2);
    }
    int rounds = Integer.parseInt(args[0]);
    String[] counts = args[1].split("/", -1);
    if (counts.length > 2) {
      throw new IllegalArgumentException(
          "IN_FLIGHT is one count or two (A/B), not '" + args[1] + "'");
    }
    int[] inFlight = {Integer.parseInt(counts[0]), Integer.parseInt(counts[counts.length - 1])};
    String[] names = {label(inFlight, 0, args[2]), label(inFlight, 1, args[3])};
    long fillNanos = args.length == 5 ? Long.parseLong(args[4]) * 1_000_000_000L : 0;
    Path root = Files.createTempDirectory("viewbase-paired-writes");
    Item[] items = BenchItems.items(100_000);
    Database[] dbs = new Database[names.length];
    try {
      for (int i = 0; i < dbs.length; i++) {
        Path dir = root.resolve("db" + i);
        Map<String, String> options = parse(args[2 + i]);
        try (Database loading =
            Viewbase.open(OpenOptions.at(dir).withSync(false).withOptions(options))) {
          Dataset.load(loading, items.length);
        }
        dbs[i] = Viewbase.open(OpenOptions.at(dir).withSync(true).withOptions(options));
        if (fillNanos > 0) {
          long filled =
              InFlightUpserts.run(
                  dbs[i].table(BenchItems.TABLE),
                  items,
                  inFlight[i],
                  System.nanoTime() + fillNanos);
          System.out.printf("filled %s with %,d writes%n", names[i], filled);
        }
      }
      long[] writes = new long[dbs.length];
      long[] nanos = new long[dbs.length];
      for (int round = 0; round < rounds; round++) {
        StringBuilder line =
            new StringBuilder("round " + round + (round < 2 ? " (warm-up):" : ":"));
        for (int turn = 0; turn < dbs.length; turn++) {
          int i = (turn + round) % dbs.length; // who goes first alternates
          long start = System.nanoTime();
          long n =
              InFlightUpserts.run(
                  dbs[i].table(BenchItems.TABLE), items, inFlight[i], start + 1_000_000_000L);
          long elapsed = System.nanoTime() - start;
          line.append(String.format(" %s %,.0f writes/s", names[i], n * 1e9 / elapsed));
          if (round >= 2) {
            writes[i] += n;
            nanos[i] += elapsed;
          }
        }
        System.out.println(line);
      }
      double a = writes[0] * 1e9 / nanos[0];
      double b = writes[1] * 1e9 / nanos[1];
      System.out.printf(
          "measured rounds: %s %,.0f writes/s, %s %,.0f writes/s: %.2fx%n",
          names[0], a, names[1], b, a / b);
    } finally {
      for (Database db : dbs) {
        if (db != null) {
          db.close();
        }
      }
      Dataset.deleteTree(root);
    }
  }

  /** The side's options, prefixed with its writes in flight when the two sides differ in them. */
  private static String label(int[] inFlight, int side, String options) {
    return inFlight[0] == inFlight[1] ? options : inFlight[side] + " in flight, " + options;
  }

  private static Map<String, String> parse(String options) {
    Map<String, String> parsed = new LinkedHashMap<>();
    if (!options.equals("default")) {
      for (String option : options.split(",")) {
        int eq = option.indexOf('=');
        if (eq <= 0) {
          throw new IllegalArgumentException("an option is name=value, not '" + option + "'");
        }
        parsed.put(option.substring(0, eq), option.substring(eq + 1));
      }
    }
    return parsed;
  }
}
