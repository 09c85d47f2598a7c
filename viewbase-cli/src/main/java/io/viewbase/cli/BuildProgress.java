package io.viewbase.cli;

import io.viewbase.api.ViewStatus;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * The progress of a view's backfill on stderr, as {@code view create} waits for it.
 *
 * <pre>
 * mode  | when                       | shows
 * ------+----------------------------+------------------------------------------------------------
 * bar   | stderr is a terminal       | one line redrawn in place (carriage return) at every poll:
 *       |                            | ByEmail [#########-----]  412,000/1,000,000 (41.2%), 52,310 items/s, ETA 0:11
 * lines | otherwise (a log, a pipe)  | the same text without the bar, a new line every few seconds
 * </pre>
 *
 * Both end with the final state on a line of its own. stdout is left to the command's result.
 */
final class BuildProgress {
  private static final int BAR_WIDTH = 24;
  private static final long LINE_INTERVAL_NANOS = 5_000_000_000L;

  private final PrintWriter err;
  private final String view;
  private final boolean bar;
  private long lastLine;
  private int lastWidth;
  private boolean started;

  BuildProgress(PrintWriter err, String view, boolean bar) {
    this.err = err;
    this.view = view;
    this.bar = bar;
  }

  /**
   * Whether stderr is likely a terminal. Java 17 can only tell whether the process has a console
   * (stdin and stdout on a terminal); redirecting either is the usual sign of a script, where plain
   * lines read better than a bar anyway.
   */
  static boolean interactive() {
    return System.console() != null;
  }

  /** Shows one poll's status while the view builds. */
  void update(ViewStatus.Progress progress) {
    long now = System.nanoTime();
    if (bar) {
      String line = view + " " + bar(progress) + "  " + describe(progress);
      err.print("\r" + line + " ".repeat(Math.max(0, lastWidth - line.length())));
      lastWidth = line.length();
      err.flush();
    } else if (!started || now - lastLine >= LINE_INTERVAL_NANOS) {
      err.println(view + " building: " + describe(progress));
      err.flush();
      lastLine = now;
    }
    started = true;
  }

  /**
   * Shows the end of the build: the state it ended in and how far it got (no rate or ETA: it is
   * over).
   */
  void finish(ViewStatus status) {
    if (bar && started) {
      err.print("\r" + " ".repeat(lastWidth) + "\r");
    }
    String progress = status.progress() == null ? "" : ": " + describeDone(status.progress());
    err.println(view + " " + status.state() + progress);
    err.flush();
  }

  private static String bar(ViewStatus.Progress p) {
    int filled = p.total() <= 0 ? 0 : (int) Math.min(BAR_WIDTH, p.done() * BAR_WIDTH / p.total());
    return "[" + "#".repeat(filled) + "-".repeat(BAR_WIDTH - filled) + "]";
  }

  /** {@code 412,000/1,000,000 (41.2%), 52,310 items/s, ETA 0:11}: what every mode shows. */
  static String describe(ViewStatus.Progress p) {
    StringBuilder text =
        new StringBuilder(String.format(Locale.ROOT, "%,d/%,d", p.done(), p.total()));
    if (p.total() > 0) {
      // Writes during the build can take done past the estimate made at its start.
      text.append(
          String.format(Locale.ROOT, " (%.1f%%)", Math.min(100.0, 100.0 * p.done() / p.total())));
    }
    if (p.itemsPerSecond() > 0) {
      text.append(String.format(Locale.ROOT, ", %,.0f items/s", p.itemsPerSecond()));
    }
    if (p.etaSeconds() >= 0) {
      text.append(", ETA ").append(duration(p.etaSeconds()));
    }
    return text.toString();
  }

  /**
   * {@code 1,000/1,000 (100.0%)}: how far a build got, without the rate and ETA of a running one.
   */
  static String describeDone(ViewStatus.Progress p) {
    return describe(new ViewStatus.Progress(p.done(), p.total(), 0, -1));
  }

  /** {@code all/same@x: p/1 and p/2}: the view key and the two source items that both map to it. */
  static String describe(ViewStatus.Conflict c) {
    return c.viewPartitionKey()
        + "/"
        + c.viewId()
        + ": "
        + c.sourcePartitionKey()
        + "/"
        + c.sourceId()
        + " and "
        + c.otherSourcePartitionKey()
        + "/"
        + c.otherSourceId();
  }

  /** {@code 0:07}, {@code 12:30}, {@code 3:05:00}. */
  static String duration(long seconds) {
    long h = seconds / 3600;
    long m = seconds % 3600 / 60;
    long s = seconds % 60;
    return h > 0
        ? String.format(Locale.ROOT, "%d:%02d:%02d", h, m, s)
        : String.format(Locale.ROOT, "%d:%02d", m, s);
  }
}
