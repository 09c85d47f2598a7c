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

  /**
   * How long a commit keeps trying to append to a sequence that other servers keep moving or
   * claiming, before it gives up with {@link #sequenceHeld()}. A sequence (a table's change feed)
   * takes every write of its table, so it is far hotter than any one key: one holder after another
   * is the normal case there, and each holds it only for a few round trips.
   */
  static final java.time.Duration SEQUENCE_PATIENCE = java.time.Duration.ofSeconds(2);

  private Contention() {}

  /** A commit gave up on a sequence that other commits kept taking; nothing was written. */
  static StorageException sequenceHeld() {
    return new StorageException(
        "other commits kept a sequence busy for longer than "
            + SEQUENCE_PATIENCE.toMillis()
            + " ms; nothing was written",
        null,
        StorageException.Kind.CONTENDED);
  }

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
