package io.viewbase.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Batch;
import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Table;
import io.viewbase.api.Value;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import io.viewbase.api.Viewbase;
import io.viewbase.client.RemoteDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The backup acceptance test: {@code viewbase backup} of a running {@code viewbase serve} (a child
 * JVM) under concurrent writes restores to a database that holds every write acknowledged before
 * the backup was asked for, holds no write that none explains, no half batch, and no view drift.
 *
 * <p>Each writer owns its keys (spread over four partitions of one table, with a unique view on
 * {@code email} and a non-unique one by {@code city}) and writes them one request at a time:
 * upserts that move both view keys (every write gives a new email and city), deletes, and batches
 * that upsert three keys of different partitions. Write {@code n} of a writer carries {@code seq =
 * n}. Since a writer's writes are sequential and a backup is one point in the store's commit order,
 * what the restore holds of a writer's keys must be exactly its first {@code c} writes replayed,
 * for some cut {@code c} past its last write acknowledged before the backup began: that one check
 * covers "every acknowledged write is there", "nothing unexplained" and "no half batch".
 */
class BackupUnderLoadTest {
  private static final String TABLE = "Accounts";
  private static final int WRITERS = 4;
  private static final int KEYS_PER_WRITER = 12;

  @TempDir Path dir;

  /** One write a writer sent: {@code keys} upserted with {@code seq} (or deleted), acked when. */
  record Write(int seq, List<String> keys, boolean delete, long ackedNanos) {}

  @Test
  void aBackupTakenUnderConcurrentWritesRestoresEveryAcknowledgedWriteAndNoDrift()
      throws Exception {
    long seed = System.nanoTime();
    Path data = dir.resolve("data");
    Path backups = dir.resolve("backups");
    Path restored = dir.resolve("restored");
    Path logs = Files.createDirectories(dir.resolve("logs"));
    List<List<Write>> logsByWriter = new ArrayList<>();
    Queue<String> refused = new ConcurrentLinkedQueue<>();
    long backupAsked;
    try (ServerProcess server = ServerProcess.serve(data, logs, "backup-load");
        Database db = RemoteDatabase.connect(server.uri())) {
      db.createTable(TABLE);
      db.createView(ViewDefinition.of("AccountsByEmail", TABLE, "all", "{email}"));
      db.createView(ViewDefinition.of("AccountsByCity", TABLE, "{city}", "{id}"));
      AtomicBoolean stop = new AtomicBoolean();
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        List<Write> log = Collections.synchronizedList(new ArrayList<>());
        logsByWriter.add(log);
        int writer = w;
        Random random = new Random(seed + w);
        Thread thread =
            new Thread(() -> write(db, writer, random, log, stop, refused), "writer-" + w);
        thread.start();
        threads.add(thread);
      }
      // a second and a half of load at least, and a write of every writer acknowledged (a cold
      // server on a loaded machine may take longer to answer the first)
      long loadedBy = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      do {
        Thread.sleep(1500);
      } while (logsByWriter.stream().anyMatch(List::isEmpty) && System.nanoTime() < loadedBy);
      backupAsked = System.nanoTime();
      Cli backup =
          Cli.run("backup", "--to", backups.toString(), "--server", server.uri().toString());
      long backupAnswered = System.nanoTime();
      Thread.sleep(500); // writes go on after the backup too
      stop.set(true);
      for (Thread thread : threads) {
        thread.join(Duration.ofSeconds(30).toMillis());
        assertThat(thread.isAlive()).as("writer stopped").isFalse();
      }
      assertThat(backup.exitCode()).as(backup + server.output()).isZero();
      assertThat(backup.out()).contains("\"id\":1");
      assertThat(refused).as("writes the server refused (seed %d)", seed).isEmpty();
      System.out.printf(
          "backup under load: %s, %d writes, backup took %d ms%n",
          backup.out().trim(),
          logsByWriter.stream().mapToInt(List::size).sum(),
          (backupAnswered - backupAsked) / 1_000_000);
      long during =
          logsByWriter.stream()
              .flatMap(List::stream)
              .filter(x -> x.ackedNanos() > backupAsked && x.ackedNanos() < backupAnswered)
              .count();
      System.out.printf("writes acknowledged while the backup ran: %d%n", during);
    }

    Cli list = Cli.run("backup", "--list", backups.toString());
    assertThat(list.exitCode()).as(list.toString()).isZero();
    assertThat(list.lines()).hasSize(1);
    Cli restore = Cli.run("restore", "--from", backups.toString(), "--data", restored.toString());
    assertThat(restore.exitCode()).as(restore.toString()).isZero();
    assertThat(restore.out())
        .contains("restored backup 1")
        .contains("view AccountsByEmail: checked")
        .contains("view AccountsByCity: checked")
        .doesNotContain("not verified");

    try (Database copy = Viewbase.open(OpenOptions.at(restored))) {
      Table table = copy.table(TABLE);
      for (int w = 0; w < WRITERS; w++) {
        checkCut(table, w, logsByWriter.get(w), backupAsked, "seed " + seed + ", writer " + w);
      }
      for (String view : List.of("AccountsByEmail", "AccountsByCity")) {
        assertThat(copy.viewStatus(view).state()).isEqualTo(ViewStatus.READY);
        assertThat(copy.verifyView(view, false).drift()).as("drift of %s", view).isZero();
      }
    }
  }

  /**
   * Finds a cut {@code c}, past every write acknowledged before the backup, such that the writer's
   * first {@code c} writes replayed give exactly what the restored table holds of its keys.
   */
  private static void checkCut(
      Table table, int writer, List<Write> log, long backupAsked, String what) {
    Map<String, Optional<Map<String, Value>>> found = new HashMap<>();
    for (int k = 0; k < KEYS_PER_WRITER; k++) {
      String id = id(writer, k);
      found.put(id, table.get(partition(k), id).map(Item::properties));
    }
    int lastAckedBefore = -1;
    for (Write x : log) {
      if (x.ackedNanos() < backupAsked) {
        lastAckedBefore = x.seq();
      }
    }
    assertThat(lastAckedBefore)
        .as("%s: writes acknowledged before the backup", what)
        .isNotNegative();
    Map<String, Optional<Map<String, Value>>> replay = new HashMap<>();
    for (int k = 0; k < KEYS_PER_WRITER; k++) {
      replay.put(id(writer, k), Optional.empty());
    }
    List<Integer> cuts = new ArrayList<>();
    for (int c = 0; c <= log.size(); c++) {
      if (c > 0) {
        Write x = log.get(c - 1);
        for (String id : x.keys()) {
          replay.put(
              id, x.delete() ? Optional.empty() : Optional.of(properties(writer, id, x.seq())));
        }
      }
      if (c > lastAckedBefore && replay.equals(found)) {
        cuts.add(c);
      }
    }
    assertThat(cuts)
        .as(
            "%s: no prefix of its %d writes past the last acknowledged before the backup (%d)"
                + " explains what the restore holds: %s",
            what, log.size(), lastAckedBefore, found)
        .isNotEmpty();
  }

  /** Sends writes one at a time until {@code stop}, logging each once it is acknowledged. */
  private static void write(
      Database db,
      int writer,
      Random random,
      List<Write> log,
      AtomicBoolean stop,
      Queue<String> refused) {
    Table table = db.table(TABLE);
    boolean[] present = new boolean[KEYS_PER_WRITER];
    for (int seq = 0; !stop.get(); seq++) {
      int k = random.nextInt(KEYS_PER_WRITER);
      int roll = random.nextInt(100);
      try {
        Write done;
        if (roll < 15 && present[k]) {
          table.delete(partition(k), id(writer, k), null);
          present[k] = false;
          done = new Write(seq, List.of(id(writer, k)), true, System.nanoTime());
        } else if (roll < 35) {
          // three keys of three different partitions, in one batch
          List<String> ids = new ArrayList<>();
          Batch.Builder batch = Batch.builder();
          for (int j = 0; j < 3; j++) {
            int key = (k + j * 5) % KEYS_PER_WRITER;
            ids.add(id(writer, key));
            present[key] = true;
            batch.upsert(TABLE, item(writer, key, seq));
          }
          db.commit(batch.build());
          done = new Write(seq, ids, false, System.nanoTime());
        } else {
          table.upsert(item(writer, k, seq));
          present[k] = true;
          done = new Write(seq, List.of(id(writer, k)), false, System.nanoTime());
        }
        log.add(done);
      } catch (RuntimeException e) {
        refused.add("writer " + writer + " write " + seq + ": " + e);
        return;
      }
    }
  }

  private static Item item(int writer, int key, int seq) {
    return Item.of(partition(key), id(writer, key), properties(writer, id(writer, key), seq));
  }

  /** Every write moves the item in both views: a new email (unique) and a new city. */
  private static Map<String, Value> properties(int writer, String id, int seq) {
    return Map.of(
        "seq", Value.of(Integer.toString(seq)),
        "email", Value.of(id + "." + seq + "@example.com"),
        "city", Value.of("c" + (seq % 5)));
  }

  private static String id(int writer, int key) {
    return "w" + writer + "k" + key;
  }

  /** Keys 0, 4, 8 in p0, 1, 5, 9 in p1, ...: a writer's keys span every partition. */
  private static String partition(int key) {
    return "p" + key % 4;
  }
}
