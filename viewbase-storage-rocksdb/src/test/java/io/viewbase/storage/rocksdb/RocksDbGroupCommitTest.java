package io.viewbase.storage.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.StorageException;
import io.viewbase.storage.spi.StoreConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Concurrent synced commits share RocksDB writes, and grouping changes no outcome. */
class RocksDbGroupCommitTest {
  private static final int THREADS = 32;
  private static final int BATCHES_PER_THREAD = 10;

  @TempDir Path dir;
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
    runConcurrently(
        thread -> {
          for (int i = 0; i < BATCHES_PER_THREAD; i++) {
            store.commit(
                List.of(
                    Mutation.put(b("t" + thread), b("k" + i), i, b("v" + i)),
                    Mutation.put(b("all"), b(thread + "/" + i), 1, b("x"))));
          }
        });

    System.out.println(
        "group commit: " + store.commits() + " batches in " + store.writeGroups() + " writes");
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

    runConcurrently(
        thread -> {
          for (int round = 0; round < rounds; round++) {
            try {
              store.commit(
                  List.of(
                      Mutation.put(b("mine"), b(thread + "/" + round), 1, b("x")),
                      new Mutation.Put(
                          b("shared"), b("r" + round), thread, b("t" + thread), Condition.ABSENT)));
              winners.incrementAndGet(round);
            } catch (ConditionFailedException lost) {
              assertThat(lost.index()).isEqualTo(1);
              assertThat(lost.actualVersion()).isNotNull();
              assertThat(store.get(b("mine"), b(thread + "/" + round)))
                  .as("a failed batch writes nothing")
                  .isEmpty();
            }
          }
        });

    for (int round = 0; round < rounds; round++) {
      assertThat(winners.get(round)).as("winners of round %s", round).isEqualTo(1);
    }
    assertThat(store.commits()).isEqualTo(rounds);
  }

  @Test
  void asyncAndBlockingCommitsShareGroupsAndAllLand() throws Exception {
    int asyncPerThread = 50;
    List<List<CompletableFuture<Void>>> submitted = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      submitted.add(new ArrayList<>());
    }
    runConcurrently(
        thread -> {
          if (thread % 2 == 0) {
            for (int i = 0; i < asyncPerThread; i++) {
              submitted
                  .get(thread)
                  .add(
                      store.commitAsync(
                          List.of(Mutation.put(b("a" + thread), b("k" + i), i + 1, b("v")))));
            }
          } else {
            for (int i = 0; i < BATCHES_PER_THREAD; i++) {
              store.commit(List.of(Mutation.put(b("s" + thread), b("k" + i), i + 1, b("v"))));
            }
          }
        });
    for (List<CompletableFuture<Void>> futures : submitted) {
      CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(2, TimeUnit.MINUTES);
    }

    long expected = THREADS / 2 * asyncPerThread + THREADS / 2 * BATCHES_PER_THREAD;
    System.out.println(
        "group commit, mixed: "
            + store.commits()
            + " batches in "
            + store.writeGroups()
            + " writes");
    assertThat(store.commits()).isEqualTo(expected);
    assertThat(store.writeGroups()).as("synced async commits share writes").isLessThan(expected);
    for (int t = 0; t < THREADS; t++) {
      int count = t % 2 == 0 ? asyncPerThread : BATCHES_PER_THREAD;
      for (int i = 0; i < count; i++) {
        assertThat(store.get(b((t % 2 == 0 ? "a" : "s") + t), b("k" + i)))
            .as("thread %s batch %s", t, i)
            .isPresent();
      }
    }
  }

  @Test
  void closingWithAsyncCommitsQueuedCompletesEveryFutureAndKeepsEverySuccess() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    List<CompletableFuture<Void>> futures = holdCommitter(release);
    int held = futures.size();
    for (int i = held; i < held + 5_000; i++) {
      futures.add(store.commitAsync(List.of(Mutation.put(b("p"), b("k" + i), 1, b("v" + i)))));
    }
    Thread closer = new Thread(store::close, "closer");
    closer.start();
    try {
      // the store fails what is queued before it waits for the committer
      CompletableFuture<Void> last = futures.get(futures.size() - 1);
      assertThatThrownBy(() -> last.get(1, TimeUnit.MINUTES))
          .isInstanceOf(ExecutionException.class);
    } finally {
      release.countDown();
    }
    closer.join(TimeUnit.MINUTES.toMillis(1));
    assertThat(closer.isAlive()).as("close returned").isFalse();

    int succeeded = 0;
    for (int i = 0; i < futures.size(); i++) {
      try {
        futures.get(i).get(1, TimeUnit.MINUTES);
        succeeded++;
      } catch (ExecutionException e) {
        assertThat(e.getCause()).isInstanceOf(StorageException.class);
        assertThat(((StorageException) e.getCause()).isUnavailable()).isTrue();
        assertThat(((StorageException) e.getCause()).kind())
            .isEqualTo(StorageException.Kind.CLOSED);
      }
    }
    assertThat(succeeded).as("acknowledged: the groups written before the close").isEqualTo(held);
    store = RocksDbStore.open(new StoreConfig(dir, true, Map.of()));
    int present = 0;
    for (int i = 0; i < futures.size(); i++) {
      if (store.get(b("p"), b("k" + i)).isPresent()) {
        present++;
      } else {
        assertThat(futures.get(i))
            .as("batch %s was acknowledged, then lost", i)
            .isCompletedExceptionally();
      }
    }
    System.out.println(
        "closed with async commits queued: "
            + succeeded
            + " of "
            + futures.size()
            + " acknowledged, "
            + present
            + " present after reopen");
    assertThat(present).as("a batch the close failed was never written").isEqualTo(succeeded);
  }

  /**
   * Commits until the completion of one of its batches blocks the committer (futures complete on
   * it) until {@code release} opens: batches committed after this return are queued, on any
   * machine, however fast its syncs. The batches committed here, all acknowledged or about to be.
   */
  private List<CompletableFuture<Void>> holdCommitter(CountDownLatch release)
      throws InterruptedException {
    List<CompletableFuture<Void>> futures = new ArrayList<>();
    CountDownLatch holding = new CountDownLatch(1);
    Thread tester = Thread.currentThread();
    while (holding.getCount() > 0) {
      int i = futures.size();
      CompletableFuture<Void> future =
          store.commitAsync(List.of(Mutation.put(b("p"), b("k" + i), 1, b("v" + i))));
      futures.add(future);
      future.whenComplete(
          (ok, failure) -> {
            if (Thread.currentThread() != tester) {
              holding.countDown();
              awaitQuietly(release);
            }
          });
      // completed already, the action ran here and held nothing: try again
      if (!future.isDone() || holding.getCount() == 0) {
        assertThat(holding.await(1, TimeUnit.MINUTES)).as("the committer held").isTrue();
      }
    }
    return futures;
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void aFutureCompletesOnlyAfterItsWriteIsVisibleAndTheCacheForgotTheOldValue() throws Exception {
    store.commit(List.of(Mutation.put(b("p"), b("k"), 1, b("old"))));
    assertThat(store.get(b("p"), b("k"))).isPresent(); // now cached

    for (int version = 2; version < 200; version++) {
      long expected = version;
      store
          .commitAsync(List.of(Mutation.put(b("p"), b("k"), version, b("v" + version))))
          .thenRun(
              () ->
                  assertThat(store.get(b("p"), b("k")).orElseThrow().version()).isEqualTo(expected))
          .get(1, TimeUnit.MINUTES);
    }
  }

  @Test
  void aBlockingCommitFromTheCommitterThreadFailsInsteadOfWaitingForItself() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    holdCommitter(release);
    AtomicReference<Thread> ranOn = new AtomicReference<>();
    byte[] key = b("chained");
    // queued behind the held committer, so its action is chained before the write completes and
    // runs on the committer, whose blocking commit would wait for itself
    CompletableFuture<Void> chained =
        store
            .commitAsync(List.of(Mutation.put(b("p"), b("a"), 1, b("v"))))
            .thenRun(
                () -> {
                  ranOn.set(Thread.currentThread());
                  try {
                    store.commit(List.of(Mutation.put(b("p"), key, 1, b("v"))));
                  } catch (ConditionFailedException e) {
                    throw new AssertionError(e);
                  }
                });
    release.countDown();

    assertThatThrownBy(() -> chained.get(1, TimeUnit.MINUTES))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("committer thread");
    assertThat(ranOn.get().getName()).contains("committer");
    assertThat(store.get(b("p"), key)).isEmpty();
    // from any other thread the same blocking commit goes through
    store
        .commitAsync(List.of(Mutation.put(b("p"), b("b"), 1, b("v"))))
        .thenRunAsync(
            () -> {
              try {
                store.commit(List.of(Mutation.put(b("p"), key, 1, b("v"))));
              } catch (ConditionFailedException e) {
                throw new AssertionError(e);
              }
            })
        .get(1, TimeUnit.MINUTES);
    assertThat(store.get(b("p"), key)).isPresent();
    store.commit(List.of(Mutation.put(b("p"), b("after"), 1, b("v")))); // and the store goes on
    assertThat(store.get(b("p"), b("after"))).isPresent();
  }

  private void runConcurrently(Body body) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Void>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        Callable<Void> task =
            () -> {
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
