package io.viewbase.storage.tck;

import static io.viewbase.storage.tck.TestBytes.b;
import static io.viewbase.storage.tck.TestBytes.put;
import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.Versioned;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Concurrent writers: optimistic concurrency on versions loses no update. */
public interface ConcurrencyContract extends StoreFixture {
  int THREADS = 8;
  int INCREMENTS = 200;
  int COUNTERS = 4;

  /** Bound on attempts per increment, so a broken store fails the test instead of hanging it. */
  int MAX_ATTEMPTS = 100_000;

  @Test
  default void concurrentVersionedIncrementsLoseNoUpdate() throws Exception {
    List<Mutation> init = new ArrayList<>();
    for (int c = 0; c < COUNTERS; c++) {
      init.add(Mutation.put(b("counter" + c), b("n"), 1, encode(0)));
    }
    init.add(Mutation.put(b("total"), b("n"), 1, encode(0)));
    write(init.toArray(Mutation[]::new));

    List<Integer> results =
        runConcurrently(
            thread -> {
              int retries = 0;
              for (int i = 0; i < INCREMENTS; i++) {
                retries += increment("counter" + ((thread + i) % COUNTERS));
              }
              return retries;
            });

    long sum = 0;
    for (int c = 0; c < COUNTERS; c++) {
      Versioned counter = store().get(b("counter" + c), b("n")).orElseThrow();
      assertThat(counter.version()).isEqualTo(decode(counter.value()) + 1);
      sum += decode(counter.value());
    }
    Versioned total = store().get(b("total"), b("n")).orElseThrow();
    assertThat(sum).isEqualTo((long) THREADS * INCREMENTS);
    assertThat(decode(total.value())).isEqualTo((long) THREADS * INCREMENTS);
    assertThat(results).hasSize(THREADS);
  }

  @Test
  default void concurrentInsertsOfTheSameKeyLetExactlyOneWin() throws Exception {
    int keys = 50;
    AtomicInteger wins = new AtomicInteger();

    runConcurrently(
        thread -> {
          for (int k = 0; k < keys; k++) {
            try {
              store().commit(List.of(put("p", "k" + k, thread, "t" + thread, Condition.ABSENT)));
              wins.incrementAndGet();
            } catch (ConditionFailedException expected) {
              // another thread inserted it first
            }
          }
          return 0;
        });

    assertThat(wins.get()).isEqualTo(keys);
  }

  /** Adds one to a counter and to the total in one batch; returns how many retries it took. */
  private int increment(String counter) throws Exception {
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      Versioned c = store().get(b(counter), b("n")).orElseThrow();
      Versioned t = store().get(b("total"), b("n")).orElseThrow();
      try {
        store()
            .commit(
                List.of(
                    new Mutation.Put(
                        b(counter),
                        b("n"),
                        c.version() + 1,
                        encode(decode(c.value()) + 1),
                        Condition.version(c.version())),
                    new Mutation.Put(
                        b("total"),
                        b("n"),
                        t.version() + 1,
                        encode(decode(t.value()) + 1),
                        Condition.version(t.version()))));
        return attempt;
      } catch (ConditionFailedException lostTheRace) {
        // re-read and retry: that is optimistic concurrency
      }
    }
    throw new AssertionError(
        "increment of " + counter + " did not succeed in " + MAX_ATTEMPTS + " attempts");
  }

  private List<Integer> runConcurrently(ThreadBody body) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Integer>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        Callable<Integer> task =
            () -> {
              start.await();
              return body.run(thread);
            };
        futures.add(pool.submit(task));
      }
      start.countDown();
      List<Integer> results = new ArrayList<>();
      for (Future<Integer> future : futures) {
        results.add(future.get(2, TimeUnit.MINUTES));
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  /** What one of the concurrent threads does. */
  @FunctionalInterface
  interface ThreadBody {
    int run(int thread) throws Exception;
  }

  private static byte[] encode(long value) {
    return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
  }

  private static long decode(byte[] bytes) {
    return ByteBuffer.wrap(bytes).getLong();
  }
}
