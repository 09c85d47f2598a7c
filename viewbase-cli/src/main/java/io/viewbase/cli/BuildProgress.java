package io.viewbase.cli;

import io.viewbase.api.ViewStatus;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;

/**
 * The progress of a view's backfill, as {@code view create} waits for it: what a build's {@link
 * Progress} display shows at each poll.
 *
 * <pre>
 * mode  | shows
 * ------+------------------------------------------------------------------------------------
 * bar   | ByEmail [#########-----]  412,000/1,000,000 (41.2%), 52,310 items/s, ETA 0:11
 * lines | ByEmail building: 412,000/1,000,000 (41.2%), 52,310 items/s, ETA 0:11 (every few s)
 * </pre>
 *
 * Both end with the final state on a line of its own ({@code ByEmail ready: 1,000/1,000 (100.0%)}).
 * The polls are a fraction of a second apart already, so the bar is redrawn at each.
 */
final class BuildProgress {
  private final Progress display;

  BuildProgress(PrintWriter err, String view, boolean bar) {
    this.display =
        new Progress(err, view, "building", bar, Duration.ZERO, Progress.DEFAULT_LINE_INTERVAL);
  }

  /** Whether stderr is likely a terminal ({@link Progress#interactive}). */
  static boolean interactive() {
    return Progress.interactive();
  }

  /** Shows one poll's status while the view builds. */
  void update(ViewStatus.Progress progress) {
    display.update(
        progress.total() <= 0 ? 0 : (double) progress.done() / progress.total(),
        describe(progress));
  }

  /**
   * Shows the end of the build: the state it ended in and how far it got (no rate or ETA: it is
   * over).
   */
  void finish(ViewStatus status) {
    String progress = status.progress() == null ? "" : ": " + describeDone(status.progress());
    display.finish(status.state() + progress);
  }

  /** {@code 412,000/1,000,000 (41.2%), 52,310 items/s, ETA 0:11}: what every mode shows. */
  static String describe(ViewStatus.Progress p) {
    StringBuilder text =
        new StringBuilder(String.format(Locale.ROOT, "%,d/%,d", p.done(), p.total()));
    if (p.total() > 0) {
      // Writes during the build can take done past the estimate made at its start.
      text.append(" (").append(Progress.percent((double) p.done() / p.total())).append(')');
    }
    if (p.itemsPerSecond() > 0) {
      text.append(String.format(Locale.ROOT, ", %,.0f items/s", p.itemsPerSecond()));
    }
    if (p.etaSeconds() >= 0) {
      text.append(", ETA ").append(Progress.duration(p.etaSeconds()));
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
}
