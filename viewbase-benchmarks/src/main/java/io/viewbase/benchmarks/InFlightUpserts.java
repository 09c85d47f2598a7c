package io.viewbase.benchmarks;

import io.viewbase.api.Item;
import io.viewbase.api.Table;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;

/** Durable upserts kept in flight from one thread with {@code Table.upsertAsync}, as the server writes. */
final class InFlightUpserts {
  private InFlightUpserts() {
  }

  /**
   * Keeps {@code inFlight} upserts of random items going until {@code deadline} (a
   * {@link System#nanoTime()}), waiting for the oldest before starting the next, then for the rest;
   * returns how many completed.
   */
  static long run(Table table, Item[] items, int inFlight, long deadline) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    CompletableFuture<?>[] ring = new CompletableFuture<?>[inFlight];
    long done = 0;
    for (int i = 0; System.nanoTime() < deadline; i = (i + 1) % inFlight) {
      if (ring[i] != null) {
        ring[i].join();
        done++;
      }
      ring[i] = table.upsertAsync(items[random.nextInt(items.length)]);
    }
    for (CompletableFuture<?> last : ring) {
      if (last != null) {
        last.join();
        done++;
      }
    }
    return done;
  }

  /** Makes {@code count} upserts of consecutive items, {@code inFlight} at a time, and waits for all. */
  static void write(Table table, Item[] items, int inFlight, long count) {
    CompletableFuture<?>[] ring = new CompletableFuture<?>[inFlight];
    for (long n = 0; n < count; n++) {
      int slot = (int) (n % inFlight);
      if (ring[slot] != null) {
        ring[slot].join();
      }
      ring[slot] = table.upsertAsync(items[(int) (n % items.length)]);
    }
    for (CompletableFuture<?> last : ring) {
      if (last != null) {
        last.join();
      }
    }
  }
}
