package io.viewbase.server.dynamodb;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * TransactWriteItems' idempotency: a request that carries a {@code ClientRequestToken} already seen
 * in the last ten minutes is not applied again; the same request answers as the first did, another
 * request with the token is refused ({@code IdempotentParameterMismatchException}), as DynamoDB
 * does. Tokens live in this server's memory (at most {@link #MAX_TOKENS}, the oldest forgotten
 * first): a restart, or another server sharing the store, forgets them.
 */
final class ClientTokens {
  static final Duration WINDOW = Duration.ofMinutes(10);
  static final int MAX_TOKENS = 100_000;

  private record Seen(Map<String, Object> request, Object answer, long at) {}

  private final LinkedHashMap<String, Seen> seen = new LinkedHashMap<>();

  /** Runs {@code apply} once per token; null runs it every time. */
  Object once(String token, Map<String, Object> request, Supplier<Object> apply) {
    if (token == null) {
      return apply.get();
    }
    if (token.isEmpty() || token.length() > 36) {
      throw ViewbaseException.of(
          ErrorCode.ValidationFailure,
          "1 validation error detected: Value '"
              + token
              + "' at 'clientRequestToken' failed to satisfy constraint: Member must have length"
              + " less than or equal to 36, Member must have length greater than or equal to 1");
    }
    Map<String, Object> withoutToken = new LinkedHashMap<>(request);
    withoutToken.remove("ClientRequestToken");
    synchronized (this) {
      forgetOld(System.nanoTime());
      Seen before = seen.get(token);
      if (before != null) {
        if (!before.request().equals(withoutToken)) {
          throw ViewbaseException.of(
              ErrorCode.IdempotentParameterMismatch,
              "The request uses the same client token as a previous, but non-identical request.");
        }
        if (before.answer() == null) {
          throw ViewbaseException.of(
              ErrorCode.TransactionConflict,
              "A transaction with this client token is in progress; try again");
        }
        return before.answer();
      }
      seen.put(token, new Seen(withoutToken, null, System.nanoTime())); // in progress
    }
    Object answer;
    try {
      answer = apply.get();
    } catch (RuntimeException | Error e) {
      synchronized (this) {
        seen.remove(token); // a failed request may be sent again with its token
      }
      throw e;
    }
    synchronized (this) {
      seen.put(token, new Seen(withoutToken, answer, System.nanoTime()));
      while (seen.size() > MAX_TOKENS) {
        Iterator<String> oldest = seen.keySet().iterator();
        oldest.next();
        oldest.remove();
      }
    }
    return answer;
  }

  private void forgetOld(long now) {
    for (Iterator<Seen> it = seen.values().iterator(); it.hasNext(); ) {
      if (now - it.next().at() > WINDOW.toNanos()) {
        it.remove();
      } else {
        return; // in insertion order: the rest are younger
      }
    }
  }
}
