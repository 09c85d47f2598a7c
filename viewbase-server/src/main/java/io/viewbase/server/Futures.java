package io.viewbase.server;

import io.viewbase.api.Stability;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** What both APIs do with the futures of the database's asynchronous writes. */
@Stability(Stability.Level.INTERNAL)
public final class Futures {
  private Futures() {}

  /** The failure itself, without the {@link CompletionException} a dependent stage wraps it in. */
  public static Throwable unwrap(Throwable failure) {
    return failure instanceof CompletionException && failure.getCause() != null
        ? failure.getCause()
        : failure;
  }

  /** Waits for the future; its failure is thrown as itself (a runtime exception), not wrapped. */
  public static <T> T join(CompletableFuture<T> future) {
    try {
      return future.join();
    } catch (CompletionException e) {
      Throwable cause = unwrap(e);
      throw cause instanceof RuntimeException ? (RuntimeException) cause : e;
    }
  }
}
