package io.viewbase.storage.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.StoreConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Concurrent synced commits share RocksDB writes, and grouping changes no outcome. */
class RocksDbGroupCommitTest {
  private static final int THREADS = 32;
  private static final int BATCHES_PER_THREAD = 10;

  @TempDir
  Path dir;
  private RocksDbStore store;

  @BeforeEach
  void open() {
    store = RocksDbStore.open(new StoreConfig(dir, true, Map.of()));
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void concurrentSyncedCommitsAreAllWrittenInAtMostAsManyGroups() throws Exception {
    runConcurrently(thread -> {
      for (int i = 0; i < BATCHES_PER_THREAD; i++) {
        store.commit(List.of(
            Mutation.put(b("t" + thread), b("k" + i), i, b("v" + i)),
            Mutation.put(b("all"), b(thread + "/" + i), 1, b("x"))));
      }
    });

    System.out.println("group commit: " + store.commits() + " batches in " + store.writeGroups() + " writes");
    assertThat(store.commits()).isEqualTo(THREADS * BATCHES_PER_THREAD);
    assertThat(store.writeGroups()).isPositive().isLessThanOrEqualTo(store.commits());
    for (int t = 0; t < THREADS; t++) {
      for (int i = 0; i < BATCHES_PER_THREAD; i++) {
        assertThat(store.get(b("t" + t), b("k" + i))).as("t%s k%s", t, i).isPresent();
        assertThat(store.get(b("all"), b(t + "/" + i))).isPresent();
      }
    }
  }

  @Test
  void batchesOfOneGroupSeeEachOthersWritesWhenCheckingConditions() throws Exception {
    int rounds = 10;
    AtomicIntegerArray winners = new AtomicIntegerArray(rounds);

    runConcurrently(thread -> {
      for (int round = 0; round < rounds; round++) {
        try {
          store.commit(List.of(
              Mutation.put(b("mine"), b(thread + "/" + round), 1, b("x")),
              new Mutation.Put(b("shared"), b("r" + round), thread, b("t" + thread), Condition.ABSENT)));
          winners.incrementAndGet(round);
        } catch (ConditionFailedException lost) {
          assertThat(lost.index()).isEqualTo(1);
          assertThat(lost.actualVersion()).isNotNull();
          assertThat(store.get(b("mine"), b(thread + "/" + round))).as("a failed batch writes nothing").isEmpty();
        }
      }
    });

    for (int round = 0; round < rounds; round++) {
      assertThat(winners.get(round)).as("winners of round %s", round).isEqualTo(1);
    }
    assertThat(store.commits()).isEqualTo(rounds);
  }

  private void runConcurrently(Body body) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Void>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        Callable<Void> task = () -> {
          start.await();
          body.run(thread);
          return null;
        };
        futures.add(pool.submit(task));
      }
      start.countDown();
      for (Future<Void> future : futures) {
        future.get(2, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @FunctionalInterface
  private interface Body {
    void run(int thread) throws Exception;
  }

  private static byte[] b(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
