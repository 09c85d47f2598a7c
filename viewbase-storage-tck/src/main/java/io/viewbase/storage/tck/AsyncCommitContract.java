package io.viewbase.storage.tck;

import static io.viewbase.storage.tck.TestBytes.b;
import static io.viewbase.storage.tck.TestBytes.put;
import static io.viewbase.storage.tck.TestBytes.s;
import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.StorageException;
import io.viewbase.storage.spi.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link Store#commitAsync}: the same outcomes as {@link Store#commit}, delivered through the
 * future, in the order the batches were submitted.
 */
public interface AsyncCommitContract extends StoreFixture {

  @Test
  default void anAsyncCommitIsReadableOnceItsFutureCompletes() {
    CompletableFuture<Void> done = store().commitAsync(List.of(put("p", "k", 3, "v")));

    done.orTimeout(30, TimeUnit.SECONDS).join();
    assertThat(store().get(b("p"), b("k")))
        .hasValueSatisfying(
            v -> {
              assertThat(v.version()).isEqualTo(3);
              assertThat(s(v.value())).isEqualTo("v");
            });
  }

  @Test
  default void aFailedConditionFailsTheFutureAndWritesNothing() {
    write(put("p", "k", 5, "old"));

    CompletableFuture<Void> done =
        store()
            .commitAsync(
                List.of(put("p", "other", 1, "x"), put("p", "k", 6, "new", Condition.ABSENT)));

    Throwable failure = outcome(done);
    assertThat(failure).isInstanceOf(ConditionFailedException.class);
    ConditionFailedException conflict = (ConditionFailedException) failure;
    assertThat(conflict.index()).isEqualTo(1);
    assertThat(conflict.actualVersion()).isEqualTo(5L);
    assertThat(store().get(b("p"), b("other"))).isEmpty();
    assertThat(s(store().get(b("p"), b("k")).orElseThrow().value())).isEqualTo("old");
  }

  @Test
  default void batchesSubmittedInOrderAreDecidedInOrder() {
    List<CompletableFuture<Void>> done = new ArrayList<>();
    int claims = 50;
    for (int i = 0; i < claims; i++) {
      // every batch claims the same key; only the first one submitted finds it absent
      done.add(
          store()
              .commitAsync(
                  List.of(
                      put("p", "claim", i + 1, "c" + i, Condition.ABSENT),
                      put("p", "log" + i, 1, "l"))));
    }

    assertThat(outcome(done.get(0))).isNull();
    for (int i = 1; i < claims; i++) {
      assertThat(outcome(done.get(i)))
          .as("batch %s", i)
          .isInstanceOf(ConditionFailedException.class);
      assertThat(store().get(b("p"), b("log" + i))).isEmpty();
    }
    assertThat(s(store().get(b("p"), b("claim")).orElseThrow().value())).isEqualTo("c0");
  }

  @Test
  default void aMalformedBatchFailsTheFutureNotTheCaller() {
    CompletableFuture<Void> empty = store().commitAsync(List.of());
    CompletableFuture<Void> twice =
        store().commitAsync(List.of(put("p", "k", 1, "a"), put("p", "k", 2, "b")));

    assertThat(outcome(empty)).isInstanceOf(IllegalArgumentException.class);
    assertThat(outcome(twice)).isInstanceOf(IllegalArgumentException.class);
    assertThat(store().get(b("p"), b("k"))).isEmpty();
  }

  @Test
  default void afterCloseAnAsyncCommitFailsAsClosed() {
    Store closing = store();
    closing.close();

    Throwable failure =
        outcome(closing.commitAsync(List.of(Mutation.put(b("p"), b("k"), 1, b("v")))));

    assertThat(failure).isInstanceOf(StorageException.class);
    assertThat(((StorageException) failure).isUnavailable()).isTrue();
    assertThat(((StorageException) failure).kind()).isEqualTo(StorageException.Kind.CLOSED);
  }

  /** The future's failure (unwrapped), or null if it succeeded; waits at most 30 s. */
  private static Throwable outcome(CompletableFuture<Void> future) {
    try {
      future.orTimeout(30, TimeUnit.SECONDS).join();
      return null;
    } catch (CompletionException e) {
      return e.getCause();
    }
  }
}
