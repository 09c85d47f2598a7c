package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Batch;
import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.Viewbase;
import io.viewbase.api.ViewbaseException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Threads insert and delete, alone and in batches, in a few partitions of a RocksDB table: the
 * partitions view then equals a scan of the source, and the history view holds every acknowledged
 * version of each item in order, with a tombstone per acknowledged delete.
 */
class ViewKindsConcurrencyTest {
  @TempDir Path dir;

  @Test
  void concurrentInsertsAndDeletesKeepCountsAndHistoriesExact() throws Exception {
    try (Database db = Viewbase.open(OpenOptions.at(dir))) {
      db.createTable("People");
      db.createView(ViewDefinition.history("Hist", "People"));
      db.createView(ViewDefinition.partitions("Parts", "People"));
      ViewContract.awaitBuilt(db, "Hist");
      ViewContract.awaitBuilt(db, "Parts");
      Acknowledged acked = new Acknowledged();
      ExecutorService pool = Executors.newFixedThreadPool(6);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 6; t++) {
        int thread = t;
        done.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 200; i++) {
                    String pk = "p" + (i % 3);
                    String id = "i" + ((i * 7 + thread) % 10);
                    try {
                      if (i % 5 == 4) {
                        String other = "i" + ((i * 3 + thread) % 10);
                        if (other.equals(id)) {
                          continue;
                        }
                        acked.storedAll(
                            db.commit(
                                    Batch.builder()
                                        .insert(
                                            "People", Item.builder(pk, id).put("t", thread).build())
                                        .insert(
                                            "People",
                                            Item.builder(pk, other).put("t", thread).build())
                                        .build())
                                .items());
                      } else if (i % 2 == 0) {
                        acked.stored(
                            db.table("People")
                                .insert(Item.builder(pk, id).put("t", thread).build()));
                      } else {
                        db.table("People").delete(pk, id, null);
                        acked.deleted(pk, id);
                      }
                    } catch (ViewbaseException refused) {
                      // exists or absent: not acknowledged
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get(5, TimeUnit.MINUTES);
      }
      pool.shutdown();
      Acknowledged.checkCounts(db, "Parts", "People", item -> true);
      acked.checkHistory(db, "Hist", "People");
      assertThat(db.verifyView("Parts", false).drift()).isZero();
      assertThat(db.verifyView("Hist", false).drift()).isZero();
    }
  }
}
