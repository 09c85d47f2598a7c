package io.viewbase.core;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How far behind its feed's head each table's slowest recent reader is: the change-feed lag.
 *
 * <p>A feed is pulled: the database learns of a reader only when it reads. So the lag of a table is
 * defined over its reads: of the reads in the last {@link #WINDOW_NANOS} (one to two minutes, two
 * half windows), the largest number of entries the feed held beyond the position the read left its
 * reader at ({@code latest - next} of its page). A reader that keeps up reads 0; one that pages
 * through a backlog reads its backlog, falling as it catches up. A table nobody read in the window
 * has no row: a reader that stopped reading cannot be told from one that was never there. Recorded
 * on every change read (a map lookup and a compare), read when scraped.
 */
final class FeedLag {
  static final long WINDOW_NANOS = 60_000_000_000L;

  private final Map<String, Window> byTable = new ConcurrentHashMap<>();

  /** One read of {@code table} left its reader {@code behind} entries short of the head. */
  void record(String table, long behind, long now) {
    byTable.computeIfAbsent(table, t -> new Window()).record(behind, now);
  }

  /** Each table read in the window, with its largest lag there. */
  Map<List<String>, Double> rows(long now) {
    Map<List<String>, Double> rows = new HashMap<>();
    byTable.forEach(
        (table, w) -> {
          long lag = w.max(now);
          if (lag >= 0) {
            rows.put(List.of(table), (double) lag);
          } else {
            byTable.remove(table, w); // no read in the window (a read racing this one re-adds it)
          }
        });
    return rows;
  }

  /** The largest lag of the current half window and of the one before it. */
  private static final class Window {
    private long start = Long.MIN_VALUE; // of the current half window; guarded by this
    private long current = -1;
    private long previous = -1;

    synchronized void record(long behind, long now) {
      roll(now);
      current = Math.max(current, behind);
    }

    synchronized long max(long now) {
      roll(now);
      return Math.max(current, previous);
    }

    private void roll(long now) {
      long half = WINDOW_NANOS / 2;
      if (start == Long.MIN_VALUE) {
        start = now;
      } else if (now - start >= 2 * half) {
        previous = -1;
        current = -1;
        start = now;
      } else if (now - start >= half) {
        previous = current;
        current = -1;
        start += half;
      }
    }
  }
}
