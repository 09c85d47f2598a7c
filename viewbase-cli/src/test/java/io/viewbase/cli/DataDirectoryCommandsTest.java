package io.viewbase.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.Value;
import io.viewbase.api.Viewbase;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The data commands on a RocksDB data directory opened in-process ({@code --data DIR}). */
class DataDirectoryCommandsTest {
  @TempDir Path dir;

  @Test
  void commandsOnADataDirectoryPersistBetweenRuns() {
    List<String> local = List.of("--data", dir.toString());

    assertThat(Cli.run(local, "table", "create", "People").exitCode()).isZero();
    assertThat(Cli.run(local, "put", "People", "acme", "alice", "{\"age\": 34}").exitCode())
        .isZero();
    Cli get = Cli.run(local, "get", "People", "acme", "alice");

    assertThat(get.exitCode()).as(get.toString()).isZero();
    assertThat(Items.parse(get.out()).properties()).containsEntry("age", Value.of(34));
    try (Database db = Viewbase.open(dir)) {
      assertThat(db.table("People").get("acme", "alice"))
          .map(Item::properties)
          .hasValueSatisfying(p -> assertThat(p).containsEntry("age", Value.of(34)));
    }
  }

  @Test
  void aDataDirectoryHeldByAnotherDatabaseFailsWithAClearMessage() {
    try (Database holder = Viewbase.open(dir)) {
      holder.createTable("People");

      Cli get = Cli.run("get", "People", "p", "i", "--data", dir.toString());

      assertThat(get.exitCode()).isEqualTo(1);
      assertThat(get.err())
          .startsWith("error: StorageLocked: Data directory is in use by another process");
    }
  }

  @Test
  void aDataDirectoryThatDoesNotExistIsRefusedInsteadOfCreated() {
    Path missing = dir.resolve("typo");

    Cli tables = Cli.run("tables", "--data", missing.toString());

    assertThat(tables.exitCode()).isEqualTo(1);
    assertThat(tables.err()).startsWith("error: InvalidInput: Data directory does not exist");
    assertThat(missing).doesNotExist();
  }

  @Test
  void serverAndDataTogetherAreAUsageError() {
    Cli tables = Cli.run("tables", "--data", dir.toString(), "--server", "http://127.0.0.1:1");

    assertThat(tables.exitCode()).isEqualTo(2);
    assertThat(tables.err()).startsWith("error: Usage: --server and --data");
  }

  @Test
  void aServerThatDoesNotAnswerFailsWithAClearMessage() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }

    Cli tables = Cli.run("tables", "--server", "http://127.0.0.1:" + closedPort);

    assertThat(tables.exitCode()).isEqualTo(1);
    assertThat(tables.err())
        .startsWith("error: StorageUnreachable: No Viewbase server answers at http://127.0.0.1:");
  }
}
