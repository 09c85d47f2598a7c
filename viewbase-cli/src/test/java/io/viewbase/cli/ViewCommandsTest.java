package io.viewbase.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Table;
import io.viewbase.api.Value;
import io.viewbase.api.VerifyReport;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import io.viewbase.api.Viewbase;
import io.viewbase.json.VerifyReportJson;
import io.viewbase.json.ViewStatusJson;
import io.viewbase.server.ServerOptions;
import io.viewbase.server.ViewbaseServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code view create|status|drop} and {@code verify}, in-process against a real server, and on a
 * data directory.
 */
class ViewCommandsTest {
  private static Database db;
  private static ViewbaseServer server;
  private static List<String> remote;

  private String table;
  private String view;

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

  /** Each test gets a source table and a view name of its own, named after it. */
  @BeforeEach
  void createTable(TestInfo test) {
    String method = test.getTestMethod().orElseThrow().getName();
    table = "T" + method.substring(0, Math.min(method.length(), 50));
    view = "V" + method.substring(0, Math.min(method.length(), 50));
    db.createTable(table);
  }

  private void fill(int count) {
    Table source = db.table(table);
    for (int i = 0; i < count; i++) {
      source.upsert(
          Item.builder("p" + (i % 5), "id" + i).put("email", "u" + i + "@x").put("n", i).build());
    }
  }

  private static ViewStatus status(String json) {
    return ViewStatusJson.read(json.strip().getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void viewCreateWaitsForTheBackfillShowsProgressAndPrintsTheReadyStatus() {
    fill(500);

    Cli created =
        Cli.run(
            remote,
            "view",
            "create",
            view,
            "--source",
            table,
            "--partition-by",
            "all",
            "--id-by",
            "{email}",
            "--select",
            "email,n");

    assertThat(created.exitCode()).as(created.toString()).isZero();
    ViewStatus status = status(created.out());
    assertThat(status.state()).isEqualTo(ViewStatus.READY);
    assertThat(status.definition().select()).containsExactly("email", "n");
    assertThat(status.progress().done()).isEqualTo(500);
    assertThat(created.err()).endsWith(view + " ready: 500/500 (100.0%)" + System.lineSeparator());
    Item viewItem = Items.parse(Cli.run(remote, "get", view, "all", "u7@x").out());
    assertThat(viewItem.sourceId()).isEqualTo("id7");
    assertThat(viewItem.sourcePartitionKey()).isEqualTo("p2");
    assertThat(Cli.run(remote, "tables").out())
        .contains(
            "\"name\":\""
                + view
                + "\",\"kind\":\"view\",\"source\":\""
                + table
                + "\",\"state\":\"ready\"");
  }

  @Test
  void viewCreateOverDuplicateKeysExits1ListingTheConflicts() {
    db.table(table).upsert(Item.builder("p", "1").put("email", "same@x").build());
    db.table(table).upsert(Item.builder("p", "2").put("email", "same@x").build());

    Cli created =
        Cli.run(
            remote,
            "view",
            "create",
            view,
            "--source",
            table,
            "--partition-by",
            "all",
            "--id-by",
            "{email}");

    assertThat(created.exitCode()).as(created.toString()).isEqualTo(1);
    assertThat(status(created.out()).state()).isEqualTo(ViewStatus.FAILED);
    assertThat(created.err())
        .contains("error: view " + view + " failed: ")
        .containsAnyOf("  all/same@x: p/1 and p/2", "  all/same@x: p/2 and p/1");
  }

  @Test
  void viewCreateWithNoWaitPrintsTheStatusAtOnceAndShowsNoProgress() {
    fill(50);

    Cli created =
        Cli.run(
            remote, "view", "create", view, "--source", table, "--id-by", "{email}", "--no-wait");

    assertThat(created.exitCode()).as(created.toString()).isZero();
    assertThat(status(created.out()).state()).isIn(ViewStatus.BUILDING, ViewStatus.READY);
    assertThat(created.err()).isEmpty();
  }

  @Test
  void viewCreateWithABadDefinitionFailsWithTheEnginesCode() {
    Cli badTemplate =
        Cli.run(remote, "view", "create", view, "--source", table, "--id-by", "{email");
    Cli noSource =
        Cli.run(remote, "view", "create", view, "--source", "Nowhere", "--id-by", "{email}");
    Cli noSourceOption = Cli.run(remote, "view", "create", view, "--id-by", "{email}");

    assertThat(badTemplate.exitCode()).isEqualTo(1);
    assertThat(badTemplate.err()).startsWith("error: InvalidView: ");
    assertThat(noSource.err()).startsWith("error: TableNotFound: ");
    assertThat(noSourceOption.exitCode()).isEqualTo(2);
    assertThat(noSourceOption.err()).contains("--source");
    assertThat(Cli.run(remote, "view", "status", view).err()).startsWith("error: TableNotFound: ");
  }

  @Test
  void viewStatusPrintsTheDefinitionAndStateAndDropRemovesTheView() {
    fill(10);
    Cli.run(
        remote,
        "view",
        "create",
        view,
        "--source",
        table,
        "--id-by",
        "n_{n:04}",
        "--where",
        "n ge 5");

    Cli json = Cli.run(remote, "view", "status", view);
    Cli human = Cli.run(remote, "view", "status", view, "--format", "table");
    Cli dropped = Cli.run(remote, "view", "drop", view);

    assertThat(json.exitCode()).as(json.toString()).isZero();
    ViewStatus status = status(json.out());
    assertThat(status.definition().idBy()).isEqualTo("n_{n:04}");
    assertThat(status.definition().where()).isEqualTo("n ge 5");
    assertThat(human.lines())
        .anySatisfy(line -> assertThat(line).matches("state +ready"))
        .anySatisfy(line -> assertThat(line).matches("partitionBy +\\{partitionKey}"));
    assertThat(dropped.exitCode()).as(dropped.toString()).isZero();
    assertThat(Cli.run(remote, "view", "status", view).err()).startsWith("error: TableNotFound: ");
    assertThat(Cli.run(remote, "view", "drop", view).exitCode()).isEqualTo(1);
  }

  @Test
  void verifyOfAViewInStepWithItsSourcePrintsTheReportAndExits0() {
    fill(40);
    Cli.run(
        remote,
        "view",
        "create",
        view,
        "--source",
        table,
        "--partition-by",
        "all",
        "--id-by",
        "{email}");
    db.table(table).upsert(Item.builder("p9", "late").put("email", "late@x").build());

    Cli verified = Cli.run(remote, "verify", view);
    Cli repaired = Cli.run(remote, "verify", view, "--repair", "--format", "table");

    assertThat(verified.exitCode()).as(verified.toString()).isZero();
    VerifyReport report =
        VerifyReportJson.read(verified.out().strip().getBytes(StandardCharsets.UTF_8));
    assertThat(report.checked()).isEqualTo(41);
    assertThat(report.drift()).isZero();
    assertThat(verified.err()).isEmpty();
    assertThat(repaired.exitCode()).as(repaired.toString()).isZero();
    assertThat(repaired.lines()).anySatisfy(line -> assertThat(line).matches("repaired +true"));
  }

  @Test
  void verifyOfAnUnknownViewFailsWithTableNotFound() {
    Cli verified = Cli.run(remote, "verify", view);

    assertThat(verified.exitCode()).isEqualTo(1);
    assertThat(verified.err()).startsWith("error: TableNotFound: ");
  }

  @Test
  void verifyExitCodeIs3OnlyForDriftThatWasNotRepaired() {
    VerifyReport clean = new VerifyReport("V", 10, 0, 0, 0, false, List.of());
    VerifyReport drift =
        new VerifyReport(
            "V",
            10,
            1,
            0,
            2,
            false,
            List.of(new VerifyReport.Difference("missing", "all", "a@x", "p", "1")));
    VerifyReport repaired = new VerifyReport("V", 10, 1, 0, 2, true, drift.samples());

    assertThat(VerifyCommand.exitCode(clean)).isZero();
    assertThat(VerifyCommand.exitCode(drift)).isEqualTo(3);
    assertThat(VerifyCommand.exitCode(repaired)).isZero();
  }

  @Test
  void viewCommandsOnADataDirectoryBuildAViewThatLastsAndVerifies(@TempDir Path dir) {
    List<String> local = List.of("--data", dir.toString());
    assertThat(Cli.run(local, "table", "create", "People").exitCode()).isZero();
    for (int i = 0; i < 20; i++) {
      Cli.run(local, "put", "People", "people", "g" + i, "{\"email\": \"p" + i + "@x\"}");
    }

    Cli created =
        Cli.run(
            local,
            "view",
            "create",
            "PeopleByEmail",
            "--source",
            "People",
            "--partition-by",
            "all",
            "--id-by",
            "{email}");
    Cli verified = Cli.run(local, "verify", "PeopleByEmail");

    assertThat(created.exitCode()).as(created.toString()).isZero();
    assertThat(created.err()).contains("PeopleByEmail ready: 20/20");
    assertThat(verified.exitCode()).as(verified.toString()).isZero();
    try (Database reopened = Viewbase.open(dir)) {
      assertThat(reopened.viewStatus("PeopleByEmail").isReady()).isTrue();
      assertThat(reopened.table("PeopleByEmail").get("all", "p3@x"))
          .map(Item::sourceId)
          .hasValue("g3");
    }
  }

  @Test
  void viewCreateOfAHistoryAndAPartitionsViewShowsTheKindAndRetention() {
    fill(20);
    Cli history =
        Cli.run(
            remote,
            "view",
            "create",
            view,
            "--source",
            table,
            "--kind",
            "history",
            "--max-versions",
            "10",
            "--max-age",
            "30d");
    assertThat(history.exitCode()).as(history.toString()).isZero();
    ViewStatus status = status(history.out());
    assertThat(status.state()).isEqualTo(ViewStatus.READY);
    assertThat(status.definition().kind()).isEqualTo(ViewDefinition.Kind.HISTORY);
    assertThat(status.definition().retention())
        .isEqualTo(new ViewDefinition.Retention(10, Duration.ofDays(30)));
    assertThat(Cli.run(remote, "query", view, "p1#id1").out())
        .contains("\"_operation\":\"backfill\"");

    String counts = view + "Counts";
    Cli partitions =
        Cli.run(remote, "view", "create", counts, "--source", table, "--kind", "partitions");
    assertThat(partitions.exitCode()).as(partitions.toString()).isZero();
    assertThat(Items.parse(Cli.run(remote, "get", counts, "all", "p3").out()).properties())
        .containsEntry("count", Value.of(4L));
    Cli text = Cli.run(remote, "view", "status", counts, "--format", "table");
    assertThat(text.out()).contains("partitions").contains("(source partition key)");

    Cli bad =
        Cli.run(remote, "view", "create", view + "Bad", "--source", table, "--kind", "ledger");
    assertThat(bad.exitCode()).isNotZero();
    assertThat(bad.err()).contains("--kind is copy, history or partitions");
  }
}
