package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Table;
import io.viewbase.api.VerifyReport;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import io.viewbase.api.Viewbase;
import io.viewbase.api.ViewbaseException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Online backfill at scale: a view created over a million items while writers keep writing ends
 * ready and exact; a process killed with SIGKILL in the middle of a backfill resumes at the next
 * open and also ends exact.
 */
class BackfillTest {
  private static final int ITEMS = 1_000_000;

  @TempDir Path dir;

  static void load(Table table, int items, int threads) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> loads = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int me = t;
      loads.add(
          pool.submit(
              () -> {
                for (int i = me; i < items; i += threads) {
                  table.insert(
                      Item.builder("p" + (i % 1000), String.format("id%07d", i))
                          .put("email", "user" + i + "@example.com")
                          .put("n", i)
                          .build());
                }
              }));
    }
    for (Future<?> f : loads) {
      f.get();
    }
    pool.shutdown();
  }

  @Test
  void backfillOfAMillionItemsWhileWritersWriteEndsReadyWithZeroDrift() throws Exception {
    try (Database db = Viewbase.open(OpenOptions.at(dir).withSync(false))) {
      db.createTable("People");
      Table people = db.table("People");
      long t0 = System.nanoTime();
      load(people, ITEMS, 2);
      long t1 = System.nanoTime();
      AtomicBoolean building = new AtomicBoolean(true);
      AtomicLong writes = new AtomicLong();
      ExecutorService writers = Executors.newFixedThreadPool(2);
      List<Future<?>> running = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        Random random = new Random(t);
        running.add(
            writers.submit(
                () -> {
                  while (building.get()) {
                    int i = random.nextInt(ITEMS + 50_000);
                    String pk = "p" + (i % 1000);
                    String id = String.format("id%07d", i);
                    try {
                      switch (random.nextInt(3)) {
                        case 0 ->
                            people.upsert(
                                Item.builder(pk, id)
                                    .put("email", "moved" + i + "@example.com")
                                    .build());
                        case 1 -> people.delete(pk, id, null);
                        default ->
                            people.upsertMerge(
                                Item.builder(pk, id)
                                    .put("email", "user" + i + "@example.com")
                                    .put("touched", true)
                                    .build());
                      }
                      writes.incrementAndGet();
                    } catch (ViewbaseException e) {
                      assertThat(e.code()).isIn(ErrorCode.ItemNotFound, ErrorCode.ViewKeyConflict);
                    }
                  }
                }));
      }
      db.createView(ViewDefinition.of("ByEmail", "People", "all", "{email}"));
      ViewStatus status = ViewContract.awaitBuilt(db, "ByEmail");
      long t2 = System.nanoTime();
      building.set(false);
      for (Future<?> f : running) {
        f.get();
      }
      writers.shutdown();
      assertThat(status.state()).isEqualTo(ViewStatus.READY);
      assertThat(writes.get()).as("writes during the backfill").isPositive();
      VerifyReport report = db.verifyView("ByEmail", false);
      assertThat(report.drift()).as("%s", report.samples()).isZero();
      assertThat(report.checked()).isGreaterThan(ITEMS * 9L / 10);
      System.out.printf(
          "loaded %d items in %.1f s; backfilled %d in %.1f s with %d concurrent writes%n",
          ITEMS, (t1 - t0) / 1e9, status.progress().done(), (t2 - t1) / 1e9, writes.get());
    }
  }

  /** Run in a child JVM: creates the view over the loaded table, then waits to be killed. */
  public static void main(String[] args) throws Exception {
    Database db = Viewbase.open(OpenOptions.at(Path.of(args[0])).withSync(false));
    db.createView(ViewDefinition.of("ByEmail", "People", "all", "{email}"));
    System.out.println("started");
    while (true) {
      ViewStatus status = db.viewStatus("ByEmail");
      System.out.println(status.state() + " " + status.progress().done());
      Thread.sleep(20);
    }
  }

  @Test
  void killDuringBackfillThenRestartResumesAndEndsExact() throws Exception {
    try (Database db = Viewbase.open(OpenOptions.at(dir).withSync(false))) {
      db.createTable("People");
      load(db.table("People"), 200_000, 2);
    }
    long killedAt = 0;
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-cp",
                System.getProperty("java.class.path"),
                BackfillTest.class.getName(),
                dir.toString(),
                "create")
            .redirectErrorStream(true)
            .start();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        if (line.startsWith("building ") && Long.parseLong(line.substring(9)) > 20_000) {
          killedAt = Long.parseLong(line.substring(9));
          break;
        }
        if (line.startsWith("ready")) {
          break;
        }
      }
    } finally {
      child.destroyForcibly(); // SIGKILL
      child.waitFor(30, TimeUnit.SECONDS);
    }
    assertThat(killedAt).as("the child was killed in the middle of the backfill").isPositive();
    try (Database db = Viewbase.open(OpenOptions.at(dir))) {
      ViewStatus status = ViewContract.awaitBuilt(db, "ByEmail");
      assertThat(status.state()).isEqualTo(ViewStatus.READY);
      assertThat(status.progress().done()).isEqualTo(200_000);
      assertThat(db.verifyView("ByEmail", false).drift()).isZero();
    }
  }
}
