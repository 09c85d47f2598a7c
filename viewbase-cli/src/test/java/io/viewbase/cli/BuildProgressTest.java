package io.viewbase.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class BuildProgressTest {
  private static final ViewStatus.Progress HALF =
      new ViewStatus.Progress(412_000, 1_000_000, 52_310.4, 11);

  private static ViewStatus ready(ViewStatus.Progress progress) {
    return new ViewStatus(
        ViewDefinition.of("ByEmail", "People", null, "{email}"),
        ViewStatus.READY,
        progress,
        List.of(),
        Instant.EPOCH);
  }

  @Test
  void describeShowsDoneTotalPercentRateAndEta() {
    assertThat(BuildProgress.describe(HALF))
        .isEqualTo("412,000/1,000,000 (41.2%), 52,310 items/s, ETA 0:11");
    assertThat(BuildProgress.describe(new ViewStatus.Progress(0, 0, 0, -1))).isEqualTo("0/0");
    assertThat(BuildProgress.describe(new ViewStatus.Progress(12, 10, 0, 0)))
        .isEqualTo("12/10 (100.0%), ETA 0:00");
  }

  @Test
  void durationShowsMinutesAndHours() {
    assertThat(Progress.duration(7)).isEqualTo("0:07");
    assertThat(Progress.duration(750)).isEqualTo("12:30");
    assertThat(Progress.duration(11_100)).isEqualTo("3:05:00");
  }

  @Test
  void barModeRedrawsOneLineInPlaceThenClearsItForTheFinalState() {
    StringWriter err = new StringWriter();
    BuildProgress progress = new BuildProgress(new PrintWriter(err), "ByEmail", true);

    progress.update(new ViewStatus.Progress(0, 1_000_000, 0, -1));
    progress.update(HALF);
    progress.finish(ready(new ViewStatus.Progress(1_000_000, 1_000_000, 0, 0)));

    String[] frames = err.toString().split("\r");
    assertThat(frames[1]).startsWith("ByEmail [------------------------]  0/1,000,000 (0.0%)");
    assertThat(frames[2])
        .startsWith("ByEmail [#########---------------]  412,000/1,000,000 (41.2%)");
    assertThat(err.toString())
        .endsWith("\rByEmail ready: 1,000,000/1,000,000 (100.0%)" + System.lineSeparator());
    assertThat(err.toString().chars().filter(c -> c == '\n').count()).isEqualTo(1);
  }

  @Test
  void linesModePrintsTheFirstPollAndThenOnlyEveryFewSeconds() {
    StringWriter err = new StringWriter();
    BuildProgress progress = new BuildProgress(new PrintWriter(err), "ByEmail", false);

    progress.update(HALF);
    progress.update(HALF); // within the interval: no new line
    progress.finish(ready(HALF));

    assertThat(err.toString().lines())
        .containsExactly(
            "ByEmail building: 412,000/1,000,000 (41.2%), 52,310 items/s, ETA 0:11",
            "ByEmail ready: 412,000/1,000,000 (41.2%)");
  }
}
