package io.viewbase.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;

/**
 * The progress of a long task on stderr, the one progress display of the command line: {@code view
 * create} waits for a backfill with it ({@link BuildProgress} says what a build's text is), {@code
 * import} shows the bytes and items it has read. The caller says how far along the task is and what
 * to show; this decides how and when.
 *
 * <pre>
 * mode  | when                       | shows
 * ------+----------------------------+------------------------------------------------------------
 * bar   | stderr is a terminal       | one line redrawn in place (carriage return), at most once
 *       |                            | per redraw interval: LABEL [#########-----]  TEXT
 *       |                            | (without the bar when how far along is unknown)
 * lines | otherwise (a log, a pipe)  | LABEL VERB: TEXT, the first update at once, then a new
 *       |                            | line once per line interval
 * </pre>
 *
 * Both end with {@link #finish}: the bar is cleared and the final state gets a line of its own.
 * stdout is left to the command's result.
 */
final class Progress {
  static final Duration DEFAULT_LINE_INTERVAL = Duration.ofSeconds(5);
  private static final int BAR_WIDTH = 24;

  private final PrintWriter err;
  private final String label;
  private final String verb;
  private final boolean bar;
  private final long redrawNanos;
  private final long lineNanos;
  private long last;
  private int lastWidth;
  private boolean started;

  /**
   * @param label what progresses (a view's or table's name), first on every line
   * @param verb what the lines mode says it is doing ("building", "importing")
   * @param bar whether to draw the bar ({@link #interactive()}) or print lines
   * @param redraw the least time between two redraws of the bar (zero: at every update)
   * @param lines the least time between two lines
   */
  Progress(
      PrintWriter err, String label, String verb, boolean bar, Duration redraw, Duration lines) {
    this.err = err;
    this.label = label;
    this.verb = verb;
    this.bar = bar;
    this.redrawNanos = redraw.toNanos();
    this.lineNanos = lines.toNanos();
  }

  /**
   * Whether stderr is likely a terminal. Java 17 can only tell whether the process has a console
   * (stdin and stdout on a terminal); redirecting either is the usual sign of a script, where plain
   * lines read better than a bar anyway.
   */
  static boolean interactive() {
    return System.console() != null;
  }

  /**
   * Shows how far the task is: {@code fraction} of it done (0..1; negative when unknown, as for an
   * import from a pipe) and {@code text}, which says it in words.
   */
  void update(double fraction, String text) {
    long now = System.nanoTime();
    if (started && now - last < (bar ? redrawNanos : lineNanos)) {
      return;
    }
    if (bar) {
      String line = label + " " + (fraction < 0 ? "" : bar(fraction) + "  ") + text;
      err.print("\r" + line + " ".repeat(Math.max(0, lastWidth - line.length())));
      lastWidth = line.length();
    } else {
      err.println(label + " " + verb + ": " + text);
    }
    err.flush();
    last = now;
    started = true;
  }

  /** Clears the bar and prints {@code LABEL TEXT}, the final state, on a line of its own. */
  void finish(String text) {
    if (bar && started) {
      err.print("\r" + " ".repeat(lastWidth) + "\r");
    }
    err.println(label + " " + text);
    err.flush();
  }

  private static String bar(double fraction) {
    int filled = (int) Math.max(0, Math.min(BAR_WIDTH, Math.floor(fraction * BAR_WIDTH)));
    return "[" + "#".repeat(filled) + "-".repeat(BAR_WIDTH - filled) + "]";
  }

  /** {@code 41.2%}: a fraction as the displays show it, never past 100. */
  static String percent(double fraction) {
    return String.format(Locale.ROOT, "%.1f%%", Math.min(100.0, 100.0 * fraction));
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
