package io.viewbase.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.BatchResult;
import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Value;
import io.viewbase.api.Viewbase;
import io.viewbase.json.BatchResultJson;
import io.viewbase.server.ServerOptions;
import io.viewbase.server.ViewbaseServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code viewbase batch FILE}, against a real server on an ephemeral port and on a data directory.
 */
class BatchCommandTest {
  private static Database db;
  private static ViewbaseServer server;
  private static List<String> remote;

  @TempDir Path dir;

  @BeforeAll
  static void startServer() {
    db = Viewbase.open(OpenOptions.inMemory());
    server =
        ViewbaseServer.start(
            db, ServerOptions.defaults().withPort(0).withWorkerThreads(4).withIoThreads(1));
    remote = List.of("--server", "http://127.0.0.1:" + server.port());
  }

  @AfterAll
  static void stopServer() {
    server.close();
    db.close();
  }

  private Path file(String json) throws IOException {
    return Files.writeString(Files.createTempFile(dir, "batch", ".json"), json);
  }

  private static String op(
      String op, String table, String pk, String id, String item, String ifMatch) {
    return "{\"op\":\""
        + op
        + "\",\"table\":\""
        + table
        + "\",\"partitionKey\":\""
        + pk
        + "\",\"id\":\""
        + id
        + "\""
        + (item == null ? "" : ",\"item\":" + item)
        + (ifMatch == null ? "" : ",\"ifMatch\":\"" + ifMatch.replace("\"", "\\\"") + "\"")
        + "}";
  }

  private static String batch(String... operations) {
    return "{\"operations\":[" + String.join(",", operations) + "]}";
  }

  @Test
  void batchFileCommitsAcrossTablesAndPrintsTheResult() throws IOException {
    Cli.run(remote, "table", "create", "BatchPeople");
    Cli.run(remote, "table", "create", "BatchOrders");
    Path body =
        file(
            batch(
                op("insert", "BatchPeople", "acme", "ann", "{\"age\":34}", null),
                op("upsert", "BatchOrders", "2026", "o1", "{\"total\":12.5}", null),
                op("check", "BatchPeople", "acme", "bo", null, null)));

    Cli run = Cli.run(remote, "batch", body.toString());

    assertThat(run.exitCode()).as(run.toString()).isZero();
    BatchResult result =
        BatchResultJson.read(run.out().strip().getBytes(StandardCharsets.UTF_8), Limits.DEFAULT);
    assertThat(result.items()).hasSize(3);
    assertThat(result.items().get(2)).isNull();
    assertThat(db.table("BatchPeople").get("acme", "ann")).contains(result.items().get(0));
    assertThat(db.table("BatchOrders").get("2026", "o1")).contains(result.items().get(1));
  }

  @Test
  void batchWhoseOperationFailsPrintsTheCodeAndIndexAndWritesNothing() throws IOException {
    Cli.run(remote, "table", "create", "BatchFail");
    Item old = db.table("BatchFail").upsert(Item.builder("p", "a").put("v", 1).build());
    db.table("BatchFail").upsert(Item.builder("p", "a").put("v", 2).build());
    Path body =
        file(
            batch(
                op("upsert", "BatchFail", "p", "new", "{}", null),
                op("delete", "BatchFail", "p", "a", null, old.etag())));

    Cli run = Cli.run(remote, "batch", body.toString());

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
    assertThat(run.err()).startsWith("error: PreconditionFailed: ").contains("operationIndex=1");
    assertThat(run.out()).isEmpty();
    assertThat(db.table("BatchFail").get("p", "new")).isEmpty();
  }

  @Test
  void batchOfABadFileOrShapeFailsWithItsCode() throws IOException {
    Cli missing = Cli.run(remote, "batch", dir.resolve("nope.json").toString());
    Cli malformed = Cli.run(remote, "batch", file("{\"operations\":[").toString());
    Cli unknown =
        Cli.run(
            remote,
            "batch",
            file("{\"operations\":[{\"op\":\"upsert\",\"table\":\"T\",\"oops\":1}]}").toString());
    Cli empty = Cli.run(remote, "batch", file(batch()).toString());
    Cli noFile = Cli.run(remote, "batch");

    assertThat(missing.err()).startsWith("error: InvalidInput: Batch file not found");
    assertThat(malformed.err()).startsWith("error: InvalidJson: ");
    assertThat(unknown.err())
        .startsWith("error: InvalidInput: Unknown members")
        .contains("oops", "operationIndex=0");
    assertThat(empty.err()).startsWith("error: InvalidInput: ");
    assertThat(List.of(missing, malformed, unknown, empty))
        .allSatisfy(c -> assertThat(c.exitCode()).isEqualTo(1));
    assertThat(noFile.exitCode()).isEqualTo(2);
  }

  @Test
  void batchFromStdinAsATableMovesAnItem() {
    Cli.run(remote, "table", "create", "BatchMove");
    Item old = db.table("BatchMove").upsert(Item.builder("acme", "ann").put("age", 34).build());
    String body =
        batch(
            op("insert", "BatchMove", "globex", "ann", "{\"age\":34}", null),
            op("delete", "BatchMove", "acme", "ann", null, old.etag()));
    InputStream stdin = System.in;
    Cli run;
    try {
      System.setIn(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
      run = Cli.run(remote, "batch", "-", "--format", "table");
    } finally {
      System.setIn(stdin);
    }

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.lines().get(0)).contains("#", "op", "table", "partitionKey", "id", "_etag");
    assertThat(run.out()).contains("insert").contains("delete").contains("globex");
    assertThat(db.table("BatchMove").get("acme", "ann")).isEmpty();
    assertThat(db.table("BatchMove").get("globex", "ann").orElseThrow().properties())
        .containsEntry("age", Value.of(34));
  }

  @Test
  void batchOnADataDirectoryPersists() throws IOException {
    Path data = Files.createDirectories(dir.resolve("data"));
    List<String> local = List.of("--data", data.toString());
    assertThat(Cli.run(local, "table", "create", "People").exitCode()).isZero();
    Path body =
        file(
            batch(
                op("upsert", "People", "p", "a", "{\"v\":1}", null),
                op("upsert", "People", "q", "b", "{\"v\":2}", null)));

    Cli run = Cli.run(local, "batch", body.toString());

    assertThat(run.exitCode()).as(run.toString()).isZero();
    try (Database reopened = Viewbase.open(data)) {
      assertThat(reopened.table("People").get("q", "b").orElseThrow().properties())
          .containsEntry("v", Value.of(2));
      assertThat(reopened.table("People").get("p", "a")).isPresent();
    }
  }
}
