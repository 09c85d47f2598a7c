package io.viewbase.api;

import java.time.Duration;
import java.util.Objects;

/**
 * What a table keeps beyond its items: its change feed, and the time-to-live of its items.
 *
 * @param changeFeed whether every committed write is recorded in the table's change feed, and for
 *     how long ({@link ChangeFeed#OFF} by default)
 * @param ttl how long an item lives after its last write when it names no {@code _ttl} of its own;
 *     null: items live until deleted (or until their own {@code _ttl})
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record TableOptions(ChangeFeed changeFeed, Duration ttl) {
  /** No change feed, no time-to-live: what a table created without options has. */
  public static final TableOptions DEFAULT = new TableOptions(ChangeFeed.OFF, null);

  public TableOptions {
    changeFeed = changeFeed == null ? ChangeFeed.OFF : changeFeed;
    if (ttl != null && (ttl.isNegative() || ttl.isZero())) {
      throw new ViewbaseException(
          ErrorCode.InvalidInput, "A table's ttl must be positive (or absent: no expiry)");
    }
  }

  public TableOptions withChangeFeed(ChangeFeed feed) {
    return new TableOptions(feed, ttl);
  }

  public TableOptions withTtl(Duration timeToLive) {
    return new TableOptions(changeFeed, timeToLive);
  }

  /**
   * A table's change feed: every committed write (every API, batches included) as an entry with a
   * sequence number, assigned in the write's own atomic commit ({@link Change}).
   *
   * @param enabled whether writes are recorded
   * @param beforeImages whether an entry also holds the item as it was before the write
   * @param retention how long an entry is kept after its write
   * @param maxEntries how many entries are kept at most (the oldest go first)
   */
  public record ChangeFeed(
      boolean enabled, boolean beforeImages, Duration retention, long maxEntries) {
    /** Entries are kept a day by default, as DynamoDB Streams keeps its records. */
    public static final Duration DEFAULT_RETENTION = Duration.ofHours(24);

    /** At most ten million entries by default. */
    public static final long DEFAULT_MAX_ENTRIES = 10_000_000L;

    public static final ChangeFeed OFF =
        new ChangeFeed(false, false, DEFAULT_RETENTION, DEFAULT_MAX_ENTRIES);

    /** A feed with the default retention and without before-images. */
    public static final ChangeFeed ON =
        new ChangeFeed(true, false, DEFAULT_RETENTION, DEFAULT_MAX_ENTRIES);

    public ChangeFeed {
      Objects.requireNonNull(retention, "retention");
      if (retention.isNegative() || retention.isZero()) {
        throw new ViewbaseException(
            ErrorCode.InvalidInput, "A change feed's retention must be positive");
      }
      if (maxEntries < 1) {
        throw new ViewbaseException(
            ErrorCode.InvalidInput, "A change feed keeps at least one entry (maxEntries >= 1)");
      }
    }

    public ChangeFeed withBeforeImages(boolean before) {
      return new ChangeFeed(enabled, before, retention, maxEntries);
    }

    public ChangeFeed withRetention(Duration time, long entries) {
      return new ChangeFeed(enabled, beforeImages, time, entries);
    }
  }
}
