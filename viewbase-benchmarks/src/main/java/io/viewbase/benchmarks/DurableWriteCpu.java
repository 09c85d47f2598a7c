package io.viewbase.benchmarks;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.Table;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * What one durable write costs the process, for the figure {@link DurableWriteBenchmark} measures
 * as throughput: the same 64 writers upserting random items of a durable database, reported per
 * write as process CPU time (user and system, from {@code /proc/self/stat}), context switches
 * (voluntary and not, summed over the process's threads) and writes per group commit. On a shared
 * machine throughput follows whoever else runs; these per-write costs move much less.
 *
 * <p>{@code java -cp viewbase-benchmarks/target/benchmarks.jar
 * io.viewbase.benchmarks.DurableWriteCpu [threads=64] [seconds=5] [rounds=4]}; the first round is
 * warm-up. {@code threads} may be {@code asyncN} instead: one thread keeping N writes in flight
 * with {@code Table.upsertAsync} (the engine's side of {@code
 * DurableWriteBenchmark.engineUpsertAsync64InFlight}).
 */
public final class DurableWriteCpu {
  private static final long TICK_NANOS = 10_000_000L; // USER_HZ = 100 on Linux

  private DurableWriteCpu() {}

  public static void main(String[] args) throws Exception {
    String writers = args.length > 0 ? args[0] : "64";
    boolean async = writers.startsWith("async");
    int threads = Integer.parseInt(async ? writers.substring("async".length()) : writers);
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 4;
    Path root = Files.createTempDirectory("viewbase-durable-cpu");
    try {
      Dataset dataset = Dataset.create(root, 100_000);
      Item[] items = BenchItems.items(100_000);
      try (Database db = dataset.openEngine(true)) {
        run(
            db.table(BenchItems.TABLE),
            items,
            async ? 1 : threads,
            async ? threads : 0,
            seconds,
            rounds,
            GroupCounters.of(db));
      }
    } finally {
      Dataset.deleteTree(root);
    }
  }

  /**
   * Runs {@code threads} writers; each blocks on its write, or keeps {@code inFlight} writes going
   * if positive.
   */
  private static void run(
      Table table,
      Item[] items,
      int threads,
      int inFlight,
      int seconds,
      int rounds,
      GroupCounters groups)
      throws Exception {
    LongAdder writes = new LongAdder();
    Semaphore go = new Semaphore(0);
    Semaphore done = new Semaphore(0);
    long[] deadline = new long[1];
    for (int t = 0; t < threads; t++) {
      Thread writer =
          new Thread(
              () -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                while (true) {
                  go.acquireUninterruptibly();
                  if (inFlight > 0) {
                    writes.add(InFlightUpserts.run(table, items, inFlight, deadline[0]));
                  } else {
                    while (System.nanoTime() < deadline[0]) {
                      table.upsert(items[random.nextInt(items.length)]);
                      writes.increment();
                    }
                  }
                  done.release();
                }
              },
              "writer-" + t);
      writer.setDaemon(true);
      writer.start();
    }
    for (int round = 0; round < rounds; round++) {
      writes.reset();
      Sample before = Sample.take(groups);
      long start = System.nanoTime();
      deadline[0] = start + seconds * 1_000_000_000L; // published to the writers by the semaphore
      go.release(threads);
      done.acquire(threads);
      Sample after = Sample.take(groups);
      long n = writes.sum();
      System.out.printf(
          "round %d%s: %,.0f writes/s; per write: %.1f us CPU (user %.1f, system %.1f), "
              + "%.2f context switches (%.2f voluntary), %.1f writes per group; load average %.2f%n",
          round,
          round == 0 ? " (warm-up)" : "",
          n * 1e9 / (System.nanoTime() - start),
          (after.cpuTicks() - before.cpuTicks()) * TICK_NANOS / 1e3 / n,
          (after.userTicks - before.userTicks) * TICK_NANOS / 1e3 / n,
          (after.systemTicks - before.systemTicks) * TICK_NANOS / 1e3 / n,
          (double) (after.switches() - before.switches()) / n,
          (double) (after.voluntary - before.voluntary) / n,
          groups == null
              ? Double.NaN
              : (double) (after.commits - before.commits)
                  / Math.max(1, after.groups - before.groups),
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
  }

  /** The process's counters at one moment. */
  private record Sample(
      long userTicks,
      long systemTicks,
      long voluntary,
      long involuntary,
      long commits,
      long groups) {
    static Sample take(GroupCounters groups) throws IOException {
      String[] stat = Files.readString(Path.of("/proc/self/stat")).split(" ");
      long voluntary = 0;
      long involuntary = 0;
      try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
        for (Path task : tasks) {
          try {
            for (String line : Files.readAllLines(task.resolve("status"))) {
              if (line.startsWith("voluntary_ctxt_switches:")) {
                voluntary += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
              } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                involuntary += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
              }
            }
          } catch (IOException threadEnded) {
            // a JVM thread that ended while we listed them: its switches are gone with it
          }
        }
      }
      // fields 14 and 15 of /proc/PID/stat (1-based): utime and stime, after "pid (comm) state"
      return new Sample(
          Long.parseLong(stat[13]),
          Long.parseLong(stat[14]),
          voluntary,
          involuntary,
          groups == null ? 0 : groups.commits(),
          groups == null ? 0 : groups.groups());
    }

    long cpuTicks() {
      return userTicks + systemTicks;
    }

    long switches() {
      return voluntary + involuntary;
    }
  }

  /**
   * The RocksDB store's commit and write-group counters, reached by reflection (the benchmark sees
   * the engine only through the api); null where the engine is built differently.
   */
  private record GroupCounters(Object store) {
    static GroupCounters of(Database db) {
      try {
        java.lang.reflect.Field field = db.getClass().getDeclaredField("store");
        field.setAccessible(true);
        return new GroupCounters(field.get(db));
      } catch (ReflectiveOperationException | RuntimeException e) {
        return null;
      }
    }

    long commits() {
      return call("commits");
    }

    long groups() {
      return call("writeGroups");
    }

    private long call(String method) {
      try {
        return (Long) store.getClass().getMethod(method).invoke(store);
      } catch (ReflectiveOperationException e) {
        return 0;
      }
    }
  }
}
