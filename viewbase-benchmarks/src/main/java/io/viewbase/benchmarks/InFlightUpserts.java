package io.viewbase.benchmarks;

import io.viewbase.api.Item;
import io.viewbase.api.Table;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongFunction;
import java.util.function.LongPredicate;

/**
 * Durable upserts kept in flight from one thread with {@code Table.upsertAsync}, as the server
 * writes.
 */
final class InFlightUpserts {
  private InFlightUpserts() {}

  /**
   * Keeps {@code inFlight} upserts of random items going until {@code deadline} (a {@link
   * System#nanoTime()}), waiting for the oldest before starting the next, then for the rest;
   * returns how many completed.
   */
  static long run(Table table, Item[] items, int inFlight, long deadline) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    return keep(
        table,
        inFlight,
        started -> System.nanoTime() < deadline,
        started -> items[random.nextInt(items.length)]);
  }

  /**
   * Makes {@code count} upserts of consecutive items, {@code inFlight} at a time, and waits for
   * all.
   */
  static void write(Table table, Item[] items, int inFlight, long count) {
    keep(
        table,
        inFlight,
        started -> started < count,
        started -> items[(int) (started % items.length)]);
  }

  /**
   * Starts upserts while {@code another} says so (given how many have started), the {@code n}th of
   * {@code item(n)}, waiting for the oldest once {@code inFlight} are going; then waits for the
   * rest and returns how many completed.
   */
  private static long keep(
      Table table, int inFlight, LongPredicate another, LongFunction<Item> item) {
    CompletableFuture<?>[] ring = new CompletableFuture<?>[inFlight];
    long started = 0;
    long done = 0;
    while (another.test(started)) {
      int slot = (int) (started % inFlight);
      if (ring[slot] != null) {
        ring[slot].join();
        done++;
      }
      ring[slot] = table.upsertAsync(item.apply(started));
      started++;
    }
    for (CompletableFuture<?> last : ring) {
      if (last != null) {
        last.join();
        done++;
      }
    }
    return done;
  }
}
