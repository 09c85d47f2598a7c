package io.viewbase.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ProgressTest {
  @Test
  void barModeWithoutAKnownShareShowsTheTextAlone() {
    StringWriter err = new StringWriter();
    Progress progress =
        new Progress(
            new PrintWriter(err), "import T", "importing", true, Duration.ZERO, Duration.ZERO);

    progress.update(-1, "1,000 rows");
    progress.update(0.5, "2,000 rows (50.0%)");
    progress.finish("done: 2,000 rows");

    String[] frames = err.toString().split("\r");
    assertThat(frames[1]).isEqualTo("import T 1,000 rows");
    assertThat(frames[2]).isEqualTo("import T [############------------]  2,000 rows (50.0%)");
    assertThat(err.toString()).endsWith("\rimport T done: 2,000 rows" + System.lineSeparator());
  }

  @Test
  void linesModePrintsTheFirstUpdateAtOnceAndThenOncePerInterval() {
    StringWriter err = new StringWriter();
    Progress progress =
        new Progress(
            new PrintWriter(err),
            "import T",
            "importing",
            false,
            Duration.ZERO,
            Duration.ofHours(1));

    progress.update(0.1, "a");
    progress.update(0.2, "b"); // within the interval
    progress.finish("done");

    assertThat(err.toString().lines()).containsExactly("import T importing: a", "import T done");
  }
}
