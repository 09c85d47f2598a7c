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
}
