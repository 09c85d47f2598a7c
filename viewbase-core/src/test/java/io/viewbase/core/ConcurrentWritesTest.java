package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Table;
import io.viewbase.api.Value;
import io.viewbase.api.Viewbase;
import io.viewbase.api.ViewbaseException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Concurrent writers on the durable RocksDB engine never lose an update. */
class ConcurrentWritesTest {
  @TempDir Path dir;

  @Test
  void readModifyWriteWithEtagsLosesNoIncrement() throws Exception {
    int threads = 8;
    int increments = 100;
    try (Database db = Viewbase.open(OpenOptions.at(dir))) {
      db.createTable("Counters");
      Table counters = db.table("Counters");
      counters.insert(Item.builder("c", "1").put("n", 0).build());
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      List<Future<Integer>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        results.add(
            pool.submit(
                () -> {
                  int conflicts = 0;
                  for (int i = 0; i < increments; i++) {
                    while (true) {
                      Item current = counters.get("c", "1").orElseThrow();
                      int n = ((Value.Int32) current.properties().get("n")).value();
                      try {
                        counters.replace(
                            Item.builder("c", "1").put("n", n + 1).build(), current.etag());
                        break;
                      } catch (ViewbaseException e) {
                        assertThat(e.code()).isEqualTo(ErrorCode.PreconditionFailed);
                        conflicts++;
                      }
                    }
                  }
                  return conflicts;
                }));
      }
      for (Future<Integer> f : results) {
        f.get();
      }
      pool.shutdown();
      assertThat(counters.get("c", "1").orElseThrow().properties().get("n"))
          .isEqualTo(Value.of(threads * increments));
    }
  }

  @Test
  void concurrentMergesOfDifferentPropertiesKeepEveryProperty() throws Exception {
    int threads = 8;
    try (Database db = Viewbase.open(OpenOptions.at(dir))) {
      db.createTable("Things");
      Table things = db.table("Things");
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      List<Future<?>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int me = t;
        results.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 25; i++) {
                    things.upsertMerge(
                        Item.builder("x", "shared").put("t" + me + "_" + i, i).build());
                  }
                }));
      }
      for (Future<?> f : results) {
        f.get();
      }
      pool.shutdown();
      assertThat(things.get("x", "shared").orElseThrow().properties()).hasSize(threads * 25);
    }
  }
}
