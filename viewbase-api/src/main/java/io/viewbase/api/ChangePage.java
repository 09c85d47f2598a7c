package io.viewbase.api;

import java.util.List;

/**
 * A run of change-feed entries, in sequence order.
 *
 * @param changes the entries after the position asked for, at most the limit asked for
 * @param next the position to ask after next time: the last entry's sequence, or the position asked
 *     for when there was none
 * @param oldest the oldest sequence the feed still holds (the latest + 1 when it holds none)
 * @param latest the latest sequence committed (0: none yet)
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record ChangePage(List<Change> changes, long next, long oldest, long latest) {
  public ChangePage {
    changes = List.copyOf(changes);
  }

  /** The largest number of entries one page holds. */
  public static final int MAX_LIMIT = 1000;

  /**
   * The one check of a {@link Table#changes} call's arguments, which every implementation applies
   * first (the engine, and the HTTP client before a round trip), so a bad one fails alike.
   *
   * @throws ViewbaseException {@link ErrorCode#InvalidInput} for a negative position, a limit
   *     outside 1..{@link #MAX_LIMIT}, or a wait that is null, negative or over {@link
   *     Table#MAX_CHANGES_WAIT}
   */
  public static void checkRead(long after, int limit, java.time.Duration wait) {
    if (after < 0) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput, "A feed position is 0 or more", "after", after);
    }
    if (limit < 1 || limit > MAX_LIMIT) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "A change page holds 1 to " + MAX_LIMIT + " entries",
          "limit",
          limit);
    }
    if (wait == null || wait.isNegative() || wait.compareTo(Table.MAX_CHANGES_WAIT) > 0) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "A change read waits 0 to " + Table.MAX_CHANGES_WAIT.toSeconds() + " seconds",
          "wait",
          String.valueOf(wait));
    }
  }
}
