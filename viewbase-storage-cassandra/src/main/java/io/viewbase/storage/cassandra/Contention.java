package io.viewbase.storage.cassandra;

import io.viewbase.storage.spi.StorageException;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How long to wait before trying a lightweight transaction again when another commit holds the key:
 * the holder usually finishes within a few round trips, and retrying at once would only add Paxos
 * rounds on a contended partition. Jitter keeps waiting committers from retrying in step.
 */
final class Contention {
  /**
   * Tries of one lightweight transaction before the commit gives up on a held key (about 60 ms).
   */
  static final int ATTEMPTS = 6;

  private Contention() {}

  static void pause(int attempt) {
    long base = 1L << Math.min(attempt, 5);
    try {
      Thread.sleep(base + ThreadLocalRandom.current().nextLong(base + 1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StorageException(
          "interrupted while waiting for a key another commit holds",
          e,
          StorageException.Kind.TIMED_OUT);
    }
  }
}
