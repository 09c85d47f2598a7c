package io.viewbase.api;

import java.time.Instant;

/**
 * What the sweeper has done for one table since the database opened: the background task that
 * removes expired items ({@link TimeToLive}), and forced sweeps ({@link Database#expire}).
 *
 * @param swept whether the table is swept: it has a default ttl, or an item of it was written with
 *     a {@code _ttl}
 * @param itemsExpired items removed because they had expired
 * @param itemsScanned items read by sweeps
 * @param lastSweepStarted when the last sweep of the table began; null if none has
 * @param lastSweepEnded when the last sweep that finished ended; null if none has
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record SweepStatus(
    boolean swept,
    long itemsExpired,
    long itemsScanned,
    Instant lastSweepStarted,
    Instant lastSweepEnded) {
  /** A table nothing was swept in. */
  public static final SweepStatus NONE = new SweepStatus(false, 0, 0, null, null);
}
