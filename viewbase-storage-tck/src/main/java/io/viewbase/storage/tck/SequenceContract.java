package io.viewbase.storage.tck;

import static io.viewbase.storage.tck.TestBytes.b;
import static io.viewbase.storage.tck.TestBytes.put;
import static io.viewbase.storage.tck.TestBytes.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.Mutation;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Sequences ({@link Mutation.Append}): numbers assigned at commit, from 1, dense, in commit order;
 * a failed batch takes none; concurrent appenders never let a reader see a number before a smaller
 * one. Skipped where the backend does not declare {@code sequences}.
 */
public interface SequenceContract extends StoreFixture {

  private static Mutation.Append append(String partition, String key, long version, String value) {
    return new Mutation.Append(b(partition), b(key), version, b(value));
  }

  /** The entries of the sequence under (partition, key), in number order: number=value. */
  private List<String> entries(String partition, String key) {
    List<String> out = new ArrayList<>();
    byte[] prefix = b(key);
    try (Cursor c = store().scan(b(partition), KeyRange.prefix(prefix), false)) {
      while (c.next()) {
        if (c.key().length == prefix.length) {
          continue; // the sequence's own entry: its last number
        }
        out.add(Mutation.numberOf(c.key()) + "=" + s(c.value()));
      }
    }
    return out;
  }

  private long last(String partition, String key) {
    return store()
        .get(b(partition), b(key))
        .map(v -> Mutation.sequenceNumber(v.value()))
        .orElse(0L);
  }

  @Test
  default void appendsTakeConsecutiveNumbersFromOneInBatchOrder() {
    assumeTrue(store().capabilities().sequences(), "backend declares no sequences");
    write(append("f", "seq", 5, "a"));
    write(append("f", "seq", 6, "b"), put("p", "k", 6, "x"), append("f", "seq", 6, "c"));

    assertThat(entries("f", "seq")).containsExactly("1=a", "2=b", "3=c");
    assertThat(last("f", "seq")).isEqualTo(3);
    assertThat(store().get(b("f"), Mutation.sequenceKey(b("seq"), 2)).orElseThrow().version())
        .isEqualTo(6);
  }

  @Test
  default void sequencesAreIndependent() {
    assumeTrue(store().capabilities().sequences(), "backend declares no sequences");
    write(append("f", "one", 1, "a"), append("g", "one", 1, "b"), append("f", "two", 1, "c"));
    write(append("f", "one", 2, "d"));

    assertThat(entries("f", "one")).containsExactly("1=a", "2=d");
    assertThat(entries("g", "one")).containsExactly("1=b");
    assertThat(entries("f", "two")).containsExactly("1=c");
  }

  @Test
  default void aFailedBatchTakesNoNumber() {
    assumeTrue(store().capabilities().sequences(), "backend declares no sequences");
    write(put("p", "k", 1, "x"), append("f", "seq", 1, "a"));

    ConditionFailedException failure =
        catchThrowableOfType(
            ConditionFailedException.class,
            () ->
                store()
                    .commit(
                        List.of(
                            append("f", "seq", 2, "lost"),
                            put("p", "k", 2, "y", Condition.ABSENT))));
    assertThat(failure).isNotNull();
    write(append("f", "seq", 3, "b"));

    assertThat(entries("f", "seq")).containsExactly("1=a", "2=b");
  }

  @Test
  default void aSequenceKeyCannotBeWrittenBesideAnAppend() {
    assumeTrue(store().capabilities().sequences(), "backend declares no sequences");
    assertThatIllegalArgumentException()
        .isThrownBy(
            () -> store().commit(List.of(append("f", "seq", 1, "a"), put("f", "seq", 1, "x"))));
    assertThatIllegalArgumentException()
        .isThrownBy(
            () -> store().commit(List.of(put("f", "seq", 1, "x"), append("f", "seq", 1, "a"))));
    assertThat(entries("f", "seq")).isEmpty();
  }

  @Test
  default void numbersSurviveReopen() {
    assumeTrue(store().capabilities().sequences(), "backend declares no sequences");
    assumeTrue(survivesReopen(), "backend keeps nothing across reopen");
    write(append("f", "seq", 1, "a"), append("f", "seq", 1, "b"));
    reopen(false);
    write(append("f", "seq", 2, "c"));

    assertThat(entries("f", "seq")).containsExactly("1=a", "2=b", "3=c");
  }

  /**
   * Threads append batches of one to three entries (some synchronously, some asynchronously) while
   * a reader keeps scanning: every scan sees numbers 1..n with no hole, each batch's entries are
   * contiguous, and at the end every acknowledged entry is there exactly once.
   */
  @Test
  default void concurrentAppendersNeverShowAHole() throws Exception {
    assumeTrue(store().capabilities().sequences(), "backend declares no sequences");
    int threads = 4;
    int batchesPerThread = 150;
    ConcurrentLinkedQueue<String> acknowledged = new ConcurrentLinkedQueue<>();
    AtomicBoolean writing = new AtomicBoolean(true);
    ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> writers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        writers.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < batchesPerThread; i++) {
                    List<Mutation> batch = new ArrayList<>();
                    List<String> values = new ArrayList<>();
                    for (int j = 0; j <= (thread + i) % 3; j++) {
                      String value = thread + "." + i + "." + j;
                      values.add(value);
                      batch.add(append("f", "seq", i + 1, value));
                    }
                    if (i % 2 == 0) {
                      store().commit(batch);
                    } else {
                      store().commitAsync(batch).get(1, TimeUnit.MINUTES);
                    }
                    acknowledged.addAll(values);
                  }
                  return null;
                }));
      }
      Future<?> reader =
          pool.submit(
              () -> {
                start.await();
                while (writing.get()) {
                  assertDenseAndContiguous(entries("f", "seq"));
                }
                return null;
              });
      start.countDown();
      for (Future<?> w : writers) {
        w.get(2, TimeUnit.MINUTES);
      }
      writing.set(false);
      reader.get(1, TimeUnit.MINUTES);
    } finally {
      pool.shutdownNow();
    }
    List<String> all = entries("f", "seq");
    assertDenseAndContiguous(all);
    assertThat(all.stream().map(e -> e.substring(e.indexOf('=') + 1)))
        .containsExactlyInAnyOrderElementsOf(acknowledged);
    assertThat(last("f", "seq")).isEqualTo(all.size());
  }

  /** Numbers 1..n in order, and the entries of one batch (thread.i.*) one after another. */
  private static void assertDenseAndContiguous(List<String> entries) {
    String batch = null;
    int next = 0;
    java.util.Set<String> done = new java.util.HashSet<>();
    for (int n = 0; n < entries.size(); n++) {
      String e = entries.get(n);
      int eq = e.indexOf('=');
      assertThat(Long.parseLong(e.substring(0, eq))).as("number of entry %d", n).isEqualTo(n + 1L);
      String value = e.substring(eq + 1);
      String owner = value.substring(0, value.lastIndexOf('.'));
      int part = Integer.parseInt(value.substring(value.lastIndexOf('.') + 1));
      if (!owner.equals(batch)) {
        assertThat(done.add(owner)).as("batch %s split apart", owner).isTrue();
        assertThat(part).as("batch %s starts with its first entry", owner).isZero();
        batch = owner;
        next = 1;
      } else {
        assertThat(part).as("entry order within batch %s", owner).isEqualTo(next++);
      }
    }
  }
}
