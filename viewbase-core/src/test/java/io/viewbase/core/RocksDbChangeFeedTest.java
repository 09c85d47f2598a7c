package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Change;
import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.TableOptions;
import io.viewbase.api.Viewbase;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RocksDbChangeFeedTest extends ChangeFeedContract {
  @Override
  protected Database open(Path directory) {
    return Viewbase.open(OpenOptions.at(directory));
  }

  @Test
  void theFeedAndItsOptionsSurviveAReopenAndNumberingGoesOn() {
    TableOptions options =
        new TableOptions(
            TableOptions.ChangeFeed.ON
                .withBeforeImages(true)
                .withRetention(Duration.ofHours(2), 500),
            Duration.ofMinutes(5));
    db.alterTable("People", options);
    db.table("People").insert(item("a", "1", "Ann"));
    db.table("People").upsert(item("a", "1", "Anne"));

    db.close();
    db = open(dir);
    db.table("People").delete("a", "1", null);

    assertThat(db.tableOptions("People")).isEqualTo(options);
    assertThat(all("People"))
        .extracting(Change::sequence, Change::kind)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(1L, Change.Kind.INSERT),
            org.assertj.core.groups.Tuple.tuple(2L, Change.Kind.UPDATE),
            org.assertj.core.groups.Tuple.tuple(3L, Change.Kind.DELETE));
  }
}
