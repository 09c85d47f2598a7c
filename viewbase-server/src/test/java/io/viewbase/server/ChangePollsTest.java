package io.viewbase.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.ChangePage;
import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.TableOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.json.TableOptionsJson;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Change-feed polls around a close, without the HTTP in between. */
class ChangePollsTest {
  @Test
  void aPollThatArrivesWhileTheServerClosesGetsWhatIsThereNotARefusal() throws Exception {
    try (Database db = Viewbase.open(OpenOptions.inMemory())) {
      TableOptions feed =
          TableOptionsJson.read(
              "{\"changeFeed\":{\"enabled\":true}}".getBytes(StandardCharsets.UTF_8),
              TableOptions.DEFAULT);
      db.createTable("Feed", feed);
      ChangePolls polls = new ChangePolls();
      // a first poll starts the poll threads, as a running server's would
      polls.poll(() -> db.table("Feed"), 0, 10, Duration.ZERO).get(10, TimeUnit.SECONDS);
      polls.close();

      // received by the server before its close reached it, handed over after
      ChangePage page =
          polls
              .poll(() -> db.table("Feed"), 0, 10, Duration.ofSeconds(60))
              .get(10, TimeUnit.SECONDS);

      assertThat(page.changes()).isEmpty();
      assertThat(page.latest()).isZero();
    }
  }
}
