package io.viewbase.core;

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
import io.viewbase.api.ViewbaseException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Concurrent writers run random writes and batches over a few partitions while history and
 * partitions views are maintained (some created, and backfilled, while the writers run). After
 * them: each history view created before the first write holds every acknowledged version of every
 * item, in commit order, and a tombstone per acknowledged delete; each partitions view equals the
 * counts of a scan of the source; and verify finds no drift in any view. The seed is printed; set
 * {@code -Dviewbase.seed=N} to run one again.
 */
class HistoryPartitionsModelTest {
  private static final int WRITERS = 4;
  private static final int OPERATIONS = 250;
  private static final int PARTITIONS = 3;
  private static final int IDS = 6;

  @TempDir Path dir;

  @Test
  void onMemory() throws Exception {
    run(Viewbase.open(OpenOptions.inMemory()));
  }

  @Test
  void onRocksDb() throws Exception {
    run(Viewbase.open(OpenOptions.at(dir)));
  }

  private static boolean kept(Item item) {
    return Value.of(true).equals(item.properties().get("keep"));
  }

  private void run(Database db) throws Exception {
    long seed = Long.getLong("viewbase.seed", System.nanoTime());
    System.out.println("HistoryPartitionsModelTest seed=" + seed);
    try (db) {
      db.createTable("People");
      db.createView(ViewDefinition.history("Hist", "People"));
      db.createView(ViewDefinition.partitions("Parts", "People"));
      db.createView(ViewDefinition.partitions("KeptParts", "People").withWhere("keep eq true"));
      db.createView(
          ViewDefinition.history("KeptHist", "People")
              .withPartitionBy("{partitionKey}")
              .withWhere("keep eq true")
              .withSelect(List.of("n")));
      for (String view : List.of("Hist", "Parts", "KeptParts", "KeptHist")) {
        assertThat(ViewContract.awaitBuilt(db, view).state()).isEqualTo(ViewStatus.READY);
      }
      Acknowledged acked = new Acknowledged();
      ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 1);
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        Random random = new Random(seed + w);
        writers.add(pool.submit(() -> write(db, random, acked)));
      }
      // created while the writers run: their backfills race the writers
      Thread.sleep(50);
      db.createView(ViewDefinition.partitions("LateParts", "People"));
      db.createView(ViewDefinition.history("LateHist", "People").withPartitionBy("{partitionKey}"));
      for (Future<?> f : writers) {
        f.get(5, TimeUnit.MINUTES);
      }
      pool.shutdown();
      for (String view : List.of("LateParts", "LateHist")) {
        assertThat(ViewContract.awaitBuilt(db, view).state()).isEqualTo(ViewStatus.READY);
      }
      String failure = "seed=" + seed;
      acked.checkHistory(db, "Hist", "People");
      Acknowledged.checkCounts(db, "Parts", "People", item -> true);
      Acknowledged.checkCounts(db, "KeptParts", "People", HistoryPartitionsModelTest::kept);
      Acknowledged.checkCounts(db, "LateParts", "People", item -> true);
      for (String view :
          List.of("Hist", "Parts", "KeptParts", "KeptHist", "LateParts", "LateHist")) {
        assertThat(db.verifyView(view, false).drift()).as("%s drift, %s", view, failure).isZero();
      }
    }
  }

  private static Void write(Database db, Random random, Acknowledged acked) {
    Table people = db.table("People");
    for (int i = 0; i < OPERATIONS; i++) {
      String pk = "p" + random.nextInt(PARTITIONS);
      String id = "i" + random.nextInt(IDS);
      Item item =
          Item.builder(pk, id)
              .put("n", random.nextInt(100))
              .put("keep", random.nextBoolean())
              .build();
      try {
        switch (random.nextInt(8)) {
          case 0 -> acked.stored(people.insert(item));
          case 1 -> acked.stored(people.replace(item, null));
          case 2 ->
              acked.stored(
                  people.merge(
                      Item.builder(pk, id).put("keep", random.nextBoolean()).build(), null));
          case 3 -> acked.stored(people.upsert(item));
          case 4 -> acked.stored(people.upsertMerge(item));
          case 5 -> {
            people.delete(pk, id, null);
            acked.deleted(pk, id);
          }
          default -> batch(db, random, acked);
        }
      } catch (ViewbaseException refused) {
        // exists, absent, or too busy: not acknowledged, so in no view
      }
    }
    return null;
  }

  private static void batch(Database db, Random random, Acknowledged acked) {
    Batch.Builder batch = Batch.builder();
    Set<String> used = new LinkedHashSet<>();
    List<String[]> deletes = new ArrayList<>();
    int size = 2 + random.nextInt(4);
    String pk = "p" + random.nextInt(PARTITIONS);
    for (int j = 0; j < size; j++) {
      // mostly one partition, sometimes another: counts of two partitions in one commit
      String opPk = random.nextInt(4) == 0 ? "p" + random.nextInt(PARTITIONS) : pk;
      String id = "i" + random.nextInt(IDS);
      if (!used.add(opPk + "/" + id)) {
        continue;
      }
      Item item =
          Item.builder(opPk, id)
              .put("n", random.nextInt(100))
              .put("keep", random.nextBoolean())
              .build();
      switch (random.nextInt(4)) {
        case 0 -> batch.insert("People", item);
        case 1 -> batch.upsert("People", item);
        case 2 -> batch.upsertMerge("People", item);
        default -> {
          batch.delete("People", opPk, id, null);
          deletes.add(new String[] {opPk, id});
        }
      }
    }
    acked.storedAll(db.commit(batch.build()).items());
    for (String[] d : deletes) {
      acked.deleted(d[0], d[1]);
    }
  }
}
