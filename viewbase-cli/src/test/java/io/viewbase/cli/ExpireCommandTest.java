package io.viewbase.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Table;
import io.viewbase.api.Value;
import io.viewbase.api.Viewbase;
import io.viewbase.server.ServerOptions;
import io.viewbase.server.ViewbaseServer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code viewbase expire TABLE}, against a real server and on a data directory. Items whose {@code
 * _ttl} is a datetime already past have expired as they are written, so no clock need move.
 */
class ExpireCommandTest {
  private static final Value PAST = Value.DateTime.of(Instant.parse("2000-01-01T00:00:00Z"));

  private static void fill(Database db) {
    db.createTable("Sessions");
    Table t = db.table("Sessions");
    for (int i = 0; i < 5; i++) {
      t.upsert(Item.builder("u", "gone" + i).put("_ttl", PAST).build());
    }
    t.upsert(Item.builder("u", "kept").put("_ttl", 3600).build());
  }

  @Test
  void expireAgainstAServerPrintsHowManyItemsTheSweepRemoved() {
    try (Database db = Viewbase.open(OpenOptions.inMemory());
        ViewbaseServer server =
            ViewbaseServer.start(db, ServerOptions.defaults().withPort(0).withIoThreads(1))) {
      fill(db);
      List<String> remote = List.of("--server", "http://127.0.0.1:" + server.port());
      Cli swept = Cli.run(remote, "expire", "Sessions");
      assertThat(swept.exitCode()).as(swept.toString()).isZero();
      assertThat(swept.out().strip()).isEqualTo("{\"table\":\"Sessions\",\"expired\":5}");
      Cli again = Cli.run(remote, "expire", "Sessions", "--format", "table");
      assertThat(again.out().strip()).isEqualTo("expired 0 items of Sessions");
      assertThat(db.sweepStatus("Sessions").itemsExpired()).isEqualTo(5);
      Cli missing = Cli.run(remote, "expire", "Nope");
      assertThat(missing.exitCode()).isNotZero();
      assertThat(missing.err()).contains("TableNotFound");
    }
  }

  @Test
  void expireOnADataDirectorySweepsInProcess(@TempDir Path dir) {
    try (Database db = Viewbase.open(OpenOptions.at(dir))) {
      fill(db);
    }
    Cli swept = Cli.run("expire", "Sessions", "--data", dir.toString(), "--format", "table");
    assertThat(swept.exitCode()).as(swept.toString()).isZero();
    assertThat(swept.out().strip()).isEqualTo("expired 5 items of Sessions");
  }
}
