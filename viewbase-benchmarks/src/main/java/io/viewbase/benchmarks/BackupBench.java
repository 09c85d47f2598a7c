package io.viewbase.benchmarks;

import io.viewbase.api.BackupInfo;
import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Table;
import io.viewbase.api.Viewbase;
import io.viewbase.storage.rocksdb.RocksDbStorageProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Backup and restore throughput of a loaded database, and what a running backup costs the writers,
 * in one process: load N items ({@code sync=false}), reopen durable ({@code sync=true}) with {@code
 * writers} threads upserting random items for the rest of the run; then, in turns, a window of
 * writes alone and a window with a full backup (into a new directory) running, each as long as the
 * backup took. Then a full backup, 10% more items written, an incremental backup into the same
 * directory, and a restore of it.
 *
 * <pre>
 * java -cp viewbase-benchmarks/target/benchmarks.jar io.viewbase.benchmarks.BackupBench [items] [writers] [rounds]
 * </pre>
 */
public final class BackupBench {
  private static final long WINDOW_MILLIS = 5000;

  private BackupBench() {}

  public static void main(String[] args) throws Exception {
    int items = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int writers = args.length > 1 ? Integer.parseInt(args[1]) : 16;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    Path root = Files.createTempDirectory("viewbase-bench-backup");
    try {
      Path data = root.resolve("data");
      long t0 = System.nanoTime();
      try (Database db = Viewbase.open(OpenOptions.at(data).withSync(false))) {
        Dataset.load(db, items);
      }
      System.out.printf("loaded %,d items in %.1f s%n", items, (System.nanoTime() - t0) / 1e9);

      try (Database db = Viewbase.open(OpenOptions.at(data))) {
        Table table = db.table(BenchItems.TABLE);
        LongAdder writes = new LongAdder();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
          Thread t =
              new Thread(
                  () -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int n = 1; !stop.get(); n++) {
                      table.upsert(BenchItems.item(random.nextInt(items), n));
                      writes.increment();
                    }
                  });
          t.start();
          threads.add(t);
        }
        Thread.sleep(3000); // warm-up
        for (int round = 1; round <= rounds; round++) {
          long before = writes.sum();
          long w0 = System.nanoTime();
          Thread.sleep(WINDOW_MILLIS);
          double alone = (writes.sum() - before) / ((System.nanoTime() - w0) / 1e9);
          before = writes.sum();
          w0 = System.nanoTime();
          int backups = 0;
          long backupNanos = 0;
          long bytes = 0;
          while (System.nanoTime() - w0 < WINDOW_MILLIS * 1_000_000L) {
            Path target = root.resolve("full" + round + "-" + backups);
            long b0 = System.nanoTime();
            BackupInfo full = db.backup(target);
            backupNanos += System.nanoTime() - b0;
            bytes += full.sizeBytes();
            backups++;
            Dataset.deleteTree(target);
          }
          double during = (writes.sum() - before) / ((System.nanoTime() - w0) / 1e9);
          System.out.printf(
              "round %d: %d full backups back to back, %.0f MB/s, %,.0f items/s;"
                  + " durable writes %,.0f/s alone, %,.0f/s with backups running (%.0f%%)%n",
              round,
              backups,
              bytes / 1e6 / (backupNanos / 1e9),
              (double) items * backups / (backupNanos / 1e9),
              alone,
              during,
              100 * during / alone);
        }
        stop.set(true);
        for (Thread t : threads) {
          t.join();
        }

        Path backups = root.resolve("backups");
        BackupInfo first = db.backup(backups);
        print("first backup", first, items);
        // 1% more items, then 9% more: the second backup copies what the first did not hold
        int written = items;
        int id = 2;
        for (int percent : new int[] {1, 9}) {
          int more = items / 100 * percent;
          upsertNew(table, written, more);
          written += more;
          BackupInfo next = db.backup(backups);
          print("backup " + id++ + " after " + more + " more items", next, written);
        }
      }

      long r0 = System.nanoTime();
      new RocksDbStorageProvider()
          .restore(root.resolve("backups"), OptionalLong.empty(), root.resolve("restored"));
      long rNanos = System.nanoTime() - r0;
      long restoredBytes = 0;
      try (var files = Files.walk(root.resolve("restored"))) {
        for (Path p : (Iterable<Path>) files::iterator) {
          if (Files.isRegularFile(p)) {
            restoredBytes += Files.size(p);
          }
        }
      }
      int total = items + items / 10;
      System.out.printf(
          "restore: %,d bytes in %.2f s: %.0f MB/s, %,.0f items/s%n",
          restoredBytes,
          rNanos / 1e9,
          restoredBytes / 1e6 / (rNanos / 1e9),
          total / (rNanos / 1e9));
    } finally {
      Dataset.deleteTree(root);
    }
  }

  /** Upserts items {@code from..from+count-1}, a thousand in flight at a time, and waits. */
  private static void upsertNew(Table table, int from, int count) {
    List<CompletableFuture<?>> pending = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      pending.add(table.upsertAsync(BenchItems.item(i, 0)));
      if (pending.size() == 1000) {
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).join();
        pending.clear();
      }
    }
    CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).join();
  }

  private static void print(String what, BackupInfo info, int items) {
    double s = info.duration().toNanos() / 1e9;
    System.out.printf(
        "%s: id %d, %,d bytes in %d files; copied %d files, %,d bytes, shared %d; %.2f s:"
            + " %.0f MB/s of copied bytes, %,.0f items/s%n",
        what,
        info.id(),
        info.sizeBytes(),
        info.files(),
        info.filesCopied(),
        info.bytesCopied(),
        info.filesShared(),
        s,
        info.bytesCopied() / 1e6 / s,
        items / s);
  }
}
