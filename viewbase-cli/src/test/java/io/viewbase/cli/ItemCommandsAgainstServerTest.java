package io.viewbase.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Value;
import io.viewbase.api.Viewbase;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/** The item and table commands, run in-process against a real server on an ephemeral port. */
class ItemCommandsAgainstServerTest {
  private static Database db;
  private static ViewbaseServer server;
  private static List<String> remote;

  private String table;

  @BeforeAll
  static void startServer() {
    db = Viewbase.open(OpenOptions.inMemory());
    server = ViewbaseServer.start(db, ServerOptions.defaults().withPort(0));
    remote = List.of("--server", "http://127.0.0.1:" + server.port());
  }

  @AfterAll
  static void stopServer() {
    server.close();
    db.close();
  }

  /** Each test gets its own table, named after it, so tests do not see each other's items. */
  @BeforeEach
  void createTable(TestInfo test) {
    table = "T" + test.getTestMethod().orElseThrow().getName();
    table = table.substring(0, Math.min(table.length(), 60));
    assertThat(Cli.run(remote, "table", "create", table).exitCode()).isZero();
  }

  @Test
  void tableCreatePrintsTheTableAndTablesListsIt() {
    Cli created = Cli.run(remote, "table", "create", "Created1");
    Cli tables = Cli.run(remote, "tables");

    assertThat(created.exitCode()).as(created.toString()).isZero();
    assertThat(created.out()).contains("\"name\":\"Created1\"", "\"kind\":\"table\"");
    assertThat(tables.exitCode()).isZero();
    assertThat(tables.lines())
        .anySatisfy(line -> assertThat(line).contains("\"name\":\"Created1\""));
  }

  @Test
  void tableCreateOfAnExistingNameFailsWithTableAlreadyExists() {
    Cli again = Cli.run(remote, "table", "create", table);

    assertThat(again.exitCode()).isEqualTo(1);
    assertThat(again.err()).startsWith("error: TableAlreadyExists: ");
  }

  @Test
  void tableDropRemovesTheTable() {
    Cli dropped = Cli.run(remote, "table", "drop", table);
    Cli get = Cli.run(remote, "get", table, "p", "i");

    assertThat(dropped.exitCode()).as(dropped.toString()).isZero();
    assertThat(get.err()).startsWith("error: TableNotFound: ");
  }

  @Test
  void putThenGetPrintsTheStoredItemWithItsEtag() {
    Cli put = Cli.run(remote, "put", table, "acme", "alice", "{\"name\": \"Alice\", \"age\": 34}");
    Cli get = Cli.run(remote, "get", table, "acme", "alice");

    assertThat(put.exitCode()).as(put.toString()).isZero();
    Item stored = Items.parse(put.out().strip());
    Item read = Items.parse(get.out().strip());
    assertThat(stored.etag()).isNotBlank();
    assertThat(read.etag()).isEqualTo(stored.etag());
    assertThat(read.properties())
        .containsEntry("name", Value.of("Alice"))
        .containsEntry("age", Value.of(34));
  }

  @Test
  void putWithStaleIfMatchFailsWithPreconditionFailedAndLeavesTheItem() {
    String first = Items.parse(Cli.run(remote, "put", table, "p", "i", "{\"v\": 1}").out()).etag();
    Cli.run(remote, "put", table, "p", "i", "{\"v\": 2}");

    Cli stale = Cli.run(remote, "put", table, "p", "i", "{\"v\": 3}", "--if-match", first);

    assertThat(stale.exitCode()).isEqualTo(1);
    assertThat(stale.out()).isEmpty();
    assertThat(stale.err()).startsWith("error: PreconditionFailed: ");
    assertThat(Items.parse(Cli.run(remote, "get", table, "p", "i").out()).properties())
        .containsEntry("v", Value.of(2));
  }

  @Test
  void putWithCurrentIfMatchReplacesTheItem() {
    String etag = Items.parse(Cli.run(remote, "put", table, "p", "i", "{\"v\": 1}").out()).etag();

    Cli replaced = Cli.run(remote, "put", table, "p", "i", "{\"w\": 2}", "--if-match", etag);

    assertThat(replaced.exitCode()).as(replaced.toString()).isZero();
    assertThat(Items.parse(replaced.out()).properties()).containsOnlyKeys("w");
  }

  @Test
  void putWithIfNoneMatchOnAnExistingItemFailsWithItemAlreadyExists() {
    Cli.run(remote, "put", table, "p", "i", "{}");

    Cli insert = Cli.run(remote, "put", table, "p", "i", "{\"v\": 1}", "--if-none-match");

    assertThat(insert.exitCode()).isEqualTo(1);
    assertThat(insert.err()).startsWith("error: ItemAlreadyExists: ");
  }

  @Test
  void putReadsTheBodyFromAFile(@TempDir Path dir) throws IOException {
    Path body = dir.resolve("item.json");
    Files.writeString(body, "{\"fromFile\": true}");

    Cli put = Cli.run(remote, "put", table, "p", "i", "@" + body);

    assertThat(put.exitCode()).as(put.toString()).isZero();
    assertThat(Items.parse(put.out()).properties()).containsEntry("fromFile", Value.of(true));
  }

  @Test
  void putWithADashReadsTheBodyFromStandardInput() {
    InputStream stdin = System.in;
    Cli put;
    try {
      System.setIn(new ByteArrayInputStream("{\"fromStdin\": 1}".getBytes(StandardCharsets.UTF_8)));
      put = Cli.run(remote, "put", table, "p", "i", "-");
    } finally {
      System.setIn(stdin);
    }

    assertThat(put.exitCode()).as(put.toString()).isZero();
    assertThat(Items.parse(put.out()).properties()).containsEntry("fromStdin", Value.of(1));
  }

  @Test
  void putOfAMissingBodyFileFailsNamingTheFile(@TempDir Path dir) {
    Cli put = Cli.run(remote, "put", table, "p", "i", "@" + dir.resolve("absent.json"));

    assertThat(put.exitCode()).isEqualTo(1);
    assertThat(put.err())
        .startsWith("error: InvalidInput: Body file not found")
        .contains("absent.json");
  }

  @Test
  void putWithMalformedJsonFailsWithInvalidJsonAndStoresNothing() {
    Cli put = Cli.run(remote, "put", table, "p", "i", "{\"name\": ");

    assertThat(put.exitCode()).isEqualTo(1);
    assertThat(put.err()).startsWith("error: InvalidJson: ").doesNotContain("\tat ");
    assertThat(Cli.run(remote, "get", table, "p", "i").err()).startsWith("error: ItemNotFound: ");
  }

  @Test
  void putWhoseBodyNamesAnotherIdFailsWithKeyMismatch() {
    Cli put = Cli.run(remote, "put", table, "p", "i", "{\"id\": \"other\"}");

    assertThat(put.exitCode()).isEqualTo(1);
    assertThat(put.err()).startsWith("error: KeyMismatch: ");
  }

  @Test
  void putWithBothConditionsIsAUsageError() {
    Cli put = Cli.run(remote, "put", table, "p", "i", "{}", "--if-match", "x", "--if-none-match");

    assertThat(put.exitCode()).isEqualTo(2);
    assertThat(put.err()).startsWith("error: Usage: ");
  }

  @Test
  void mergeSetsGivenPropertiesAndKeepsTheOthers() {
    Cli.run(remote, "put", table, "p", "i", "{\"a\": 1, \"b\": 2}");

    Cli merged = Cli.run(remote, "merge", table, "p", "i", "{\"b\": 3, \"c\": 4}");

    assertThat(merged.exitCode()).as(merged.toString()).isZero();
    assertThat(Items.parse(merged.out()).properties())
        .containsEntry("a", Value.of(1))
        .containsEntry("b", Value.of(3))
        .containsEntry("c", Value.of(4));
  }

  @Test
  void deleteRemovesTheItemAndASecondDeleteFailsWithItemNotFound() {
    Cli.run(remote, "put", table, "p", "i", "{}");

    Cli first = Cli.run(remote, "delete", table, "p", "i");
    Cli second = Cli.run(remote, "delete", table, "p", "i");

    assertThat(first.exitCode()).as(first.toString()).isZero();
    assertThat(first.out()).isEmpty();
    assertThat(second.exitCode()).isEqualTo(1);
    assertThat(second.err()).startsWith("error: ItemNotFound: ");
  }

  @Test
  void getOfAMissingItemFailsWithItemNotFoundNamingTheKey() {
    Cli get = Cli.run(remote, "get", table, "p", "nobody");

    assertThat(get.exitCode()).isEqualTo(1);
    assertThat(get.err()).startsWith("error: ItemNotFound: ").contains("nobody");
  }

  @Test
  void queryWithALimitPrintsOnePageAndTheTokenThatContinuesIt() {
    putItems("p", "a", "b", "c", "d", "e");

    Cli first = Cli.run(remote, "query", table, "p", "--limit", "2");
    String token = first.err().strip().replaceFirst("^next: --continuation ", "");
    Cli second = Cli.run(remote, "query", table, "p", "--limit", "2", "--continuation", token);

    assertThat(Items.ids(first.out())).containsExactly("a", "b");
    assertThat(first.err()).startsWith("next: --continuation ");
    assertThat(Items.ids(second.out())).containsExactly("c", "d");
  }

  @Test
  void queryWithFilterSelectsMatchingItemsAndExplainPrintsThePlan() {
    putItems("p", "a", "b", "c");
    putItems("q", "z");

    Cli filtered =
        Cli.run(
            remote, "query", table, "--filter", "PartitionKey eq 'p' and RowKey ge 'b'", "--all");
    assertThat(filtered.exitCode()).as(filtered.toString()).isZero();
    assertThat(Items.ids(filtered.out())).containsExactly("b", "c");

    Cli explain =
        Cli.run(
            remote,
            "query",
            table,
            "--filter",
            "PartitionKey eq 'p' and RowKey ge 'b'",
            "--explain");
    assertThat(explain.exitCode()).as(explain.toString()).isZero();
    assertThat(explain.out()).contains("plan:   keyRange of " + table).contains("partition 'p'");

    Cli bad = Cli.run(remote, "query", table, "--filter", "RowKey ge");
    assertThat(bad.exitCode()).isEqualTo(1);
    assertThat(bad.err()).startsWith("error: InvalidFilter:");
  }

  @Test
  void queryAllFollowsContinuationsToTheLastItem() {
    putItems("p", "a", "b", "c", "d", "e");
    putItems("q", "z");

    Cli all = Cli.run(remote, "query", table, "p", "--limit", "2", "--all");

    assertThat(all.exitCode()).as(all.toString()).isZero();
    assertThat(Items.ids(all.out())).containsExactly("a", "b", "c", "d", "e");
    assertThat(all.err()).isEmpty();
  }

  @Test
  void queryWithPrefixRangeAndDescSelectsThoseIdsInThatOrder() {
    putItems("p", "a1", "a2", "a3", "b1");

    assertThat(Items.ids(Cli.run(remote, "query", table, "p", "--prefix", "a", "--desc").out()))
        .containsExactly("a3", "a2", "a1");
    assertThat(Items.ids(Cli.run(remote, "query", table, "p", "--from", "a2", "--to", "b1").out()))
        .containsExactly("a2", "a3");
  }

  @Test
  void queryWithSelectReturnsOnlyThoseProperties() {
    Cli.run(remote, "put", table, "p", "i", "{\"a\": 1, \"b\": 2, \"c\": 3}");

    Cli query = Cli.run(remote, "query", table, "p", "--select", "a,c");

    assertThat(Items.parseLines(query.out()))
        .singleElement()
        .satisfies(item -> assertThat(item.properties()).containsOnlyKeys("a", "c"));
  }

  @Test
  void queryWithoutAPartitionKeyScansTheTable() {
    putItems("p", "a");
    putItems("q", "b");

    assertThat(Items.ids(Cli.run(remote, "query", table).out()))
        .containsExactlyInAnyOrder("a", "b");
  }

  @Test
  void queryWithARangeButNoPartitionKeyIsAUsageError() {
    Cli query = Cli.run(remote, "query", table, "--prefix", "a");

    assertThat(query.exitCode()).isEqualTo(2);
    assertThat(query.err()).startsWith("error: Usage: ");
  }

  @Test
  void formatTablePrintsAHeaderAndOneRowPerItem() {
    Cli.run(remote, "put", table, "p", "a", "{\"name\": \"Alice\"}");
    Cli.run(remote, "put", table, "p", "b", "{\"age\": 7}");

    Cli query = Cli.run(remote, "query", table, "p", "--format", "table");

    assertThat(query.lines()).hasSize(3);
    assertThat(query.lines().get(0))
        .startsWith("partitionKey")
        .contains("id", "name", "age", "_etag");
    assertThat(query.lines().get(1)).startsWith("p").contains("Alice");
    assertThat(query.lines().get(2)).contains("7");
  }

  @Test
  void aMissingArgumentIsAUsageErrorWithExitCode2() {
    Cli get = Cli.run(remote, "get", table, "p");

    assertThat(get.exitCode()).isEqualTo(2);
    assertThat(get.err()).startsWith("error: Usage: ").contains("ID").contains("--help");
  }

  private void putItems(String partitionKey, String... ids) {
    for (String id : ids) {
      Cli put = Cli.run(remote, "put", table, partitionKey, id, "{}");
      assertThat(put.exitCode()).as(put.toString()).isZero();
    }
  }
}
