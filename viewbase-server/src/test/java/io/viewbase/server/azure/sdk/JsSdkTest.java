package io.viewbase.server.azure.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.viewbase.api.Item;
import io.viewbase.api.TableInfo;
import io.viewbase.api.Value;
import io.viewbase.server.js.ChildRun;
import io.viewbase.server.js.NodeRuntime;
import io.viewbase.server.js.ScenarioReport;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The official JavaScript SDK, {@code @azure/data-tables} at the version pinned in {@code
 * src/test/js/package.json}, against a real server: each test runs one scenario of {@code
 * src/test/js/scenarios} as {@code node <script> <endpoint> <account> <key>}. The scenario asserts
 * what the SDK shows (node:assert; a failure exits non-zero and its output is this test's failure
 * message) and reports on its last line what it left behind, which the test then checks through
 * {@link io.viewbase.api.Database}: the server stored what the SDK was told, and a refused request
 * stored nothing.
 *
 * <p>Without Node.js the tests are skipped, or fail with {@code -Dviewbase.test.requireNode=true}
 * (as CI runs them); the npm packages are installed once per JVM when missing ({@link
 * NodeRuntime}).
 */
class JsSdkTest {
  @RegisterExtension static final AzureSdkServer azure = new AzureSdkServer();

  private static NodeRuntime node;

  /**
   * Before each test rather than once for the class: a test skipped or failed from
   * {@code @BeforeAll} is not reported one by one, and Surefire would then count no test and lose
   * the reason.
   */
  @BeforeEach
  void prepareNode() {
    node = NodeRuntime.require("js");
  }

  /**
   * Runs the scenario against this class's server, asserts that it passed, and returns its report.
   */
  private static ScenarioReport passes(String scenario) {
    ChildRun run =
        node.run(
            "scenarios/" + scenario + ".js",
            azure.endpoint(),
            AzureSdkServer.ACCOUNT,
            AzureSdkServer.KEY);
    assertThat(run.succeeded())
        .as(
            () ->
                "scenario "
                    + scenario
                    + ".js with node "
                    + node.version()
                    + " failed:\n"
                    + run.describe())
        .isTrue();
    return ScenarioReport.parse(run.lastLine());
  }

  private static Optional<Item> stored(String table, String partitionKey, String id) {
    return azure.db().table(table).get(partitionKey, id);
  }

  private static Map<String, Value> propertiesOf(String table, String partitionKey, String id) {
    return stored(table, partitionKey, id)
        .orElseThrow(
            () ->
                new AssertionError("not stored: " + table + " (" + partitionKey + ", " + id + ")"))
        .properties();
  }

  @Test
  void tableServiceClientCreatesListsAndDeletesTables() {
    ScenarioReport report = passes("tables");

    List<String> tables = azure.db().listTables().stream().map(TableInfo::name).toList();
    assertThat(tables)
        .contains(report.string("kept"))
        .doesNotContainAnyElementsOf(report.strings("deleted"));
  }

  @Test
  void tableClientCreatesGetsMergesReplacesUpsertsAndDeletesEntities() {
    ScenarioReport report = passes("entities");

    String table = report.string("table");
    String partitionKey = report.string("partitionKey");
    assertThat(propertiesOf(table, partitionKey, "ada"))
        .as("after Replace")
        .containsExactlyEntriesOf(Map.of("name", new Value.Str("Ada Lovelace")));
    assertThat(propertiesOf(table, partitionKey, "grace"))
        .as("after upsert in Replace mode")
        .containsExactlyEntriesOf(Map.of("name", new Value.Str("Grace Hopper")));
    for (String id : report.strings("deleted")) {
      assertThat(stored(table, partitionKey, id)).as("deleted %s", id).isEmpty();
    }
  }

  @Test
  void valuesTheJsSdkSendsAreStoredWithTheirEdmTypes() {
    ScenarioReport report = passes("edm-types");

    Map<String, Value> p =
        propertiesOf(report.string("table"), report.string("partitionKey"), report.string("id"));
    assertThat(p)
        .containsEntry("text", new Value.Str("héllo, 世界 \uD83D\uDE00"))
        .containsEntry("yes", new Value.Bool(true))
        .containsEntry("no", new Value.Bool(false))
        .containsEntry("int32", new Value.Int32(Integer.MAX_VALUE))
        .containsEntry("negative", new Value.Int32(-42))
        .containsEntry("fraction", new Value.Double(1.5))
        .containsEntry("tiny", new Value.Double(-2.5e-300))
        .containsEntry("wholeDouble", new Value.Double(1.0))
        .containsEntry("int64", new Value.Int64(9007199254740993L))
        .containsEntry("bigint", new Value.Int64(Long.MIN_VALUE))
        .containsEntry("when", Value.DateTime.of(Instant.parse(report.string("when"))))
        .containsEntry("guid", new Value.Guid(UUID.fromString(report.string("guid"))))
        .containsEntry("bytes", new Value.Binary(new byte[] {0, 1, 2, (byte) 250, (byte) 255}))
        .containsEntry("empty", new Value.Binary(new byte[0]))
        .hasSize(14);
  }

  @Test
  void listEntitiesFiltersWithTheOdataTemplateAndSelects() {
    ScenarioReport report = passes("queries");

    assertThat(report.number("entities")).isEqualTo(6);
  }

  @Test
  void listEntitiesByPageWalksSeveralPagesInKeyOrder() {
    ScenarioReport report = passes("paging");

    @SuppressWarnings("unchecked")
    List<Long> pageSizes = (List<Long>) report.members().get("pageSizes");
    assertThat(pageSizes).hasSizeGreaterThanOrEqualTo(5).allMatch(size -> size <= 7);
    assertThat(pageSizes.stream().mapToLong(Long::longValue).sum())
        .isEqualTo(report.number("entities"));
  }

  @Test
  void updateWithAStaleEtagFailsWithPreconditionFailedAndKeepsTheWinningWrite() {
    ScenarioReport report = passes("etag");

    assertThat(
            propertiesOf(
                report.string("table"), report.string("partitionKey"), report.string("id")))
        .containsExactlyEntriesOf(Map.of("value", new Value.Str(report.string("value"))));
  }

  @Test
  void forgedEtagDatedAheadFailsWithPreconditionFailedAndLeavesTheClockAtNow() {
    ScenarioReport report = passes("forged-etag");

    String table = report.string("table");
    String partitionKey = report.string("partitionKey");
    List<String> ids = report.strings("ids");
    List<String> values = report.strings("values");
    Item first = stored(table, partitionKey, ids.get(0)).orElseThrow();
    Item second = stored(table, partitionKey, ids.get(1)).orElseThrow();
    assertThat(first.properties())
        .as("after the refused writes")
        .containsExactlyEntriesOf(Map.of("value", new Value.Str(values.get(0))));
    assertThat(first.timestamp()).isEqualTo(Instant.parse(report.string("firstTimestamp")));
    assertThat(second.properties())
        .containsExactlyEntriesOf(Map.of("value", new Value.Str(values.get(1))));
    assertThat(second.timestamp())
        .as("written after the forged ETag")
        .isAfter(first.timestamp())
        .isCloseTo(Instant.now(), within(5, ChronoUnit.MINUTES));
  }

  @Test
  void submitTransactionCommitsTogetherAndOneFailingActionWritesNothing() {
    ScenarioReport report = passes("transactions");

    String table = report.string("table");
    String partitionKey = report.string("partitionKey");
    for (String id : report.strings("present")) {
      assertThat(stored(table, partitionKey, id)).as("committed %s", id).isPresent();
    }
    for (String id : report.strings("absent")) {
      assertThat(stored(table, partitionKey, id)).as("deleted or refused %s", id).isEmpty();
    }
    assertThat(propertiesOf(table, partitionKey, "existing"))
        .as("the refused batch's duplicate create")
        .containsEntry("state", new Value.Str("shipped"));
  }

  @Test
  void tableSasWithAPartitionKeyRangeServesInsideAndRefusesOutside() {
    ScenarioReport report = passes("sas");

    String table = report.string("table");
    for (List<String> key : report.keys("present")) {
      assertThat(stored(table, key.get(0), key.get(1))).as("written %s", key).isPresent();
    }
    for (List<String> key : report.keys("absent")) {
      assertThat(stored(table, key.get(0), key.get(1))).as("refused %s", key).isEmpty();
    }
    ScenarioReport unchanged = report.object("unchanged");
    assertThat(propertiesOf(table, unchanged.string("partitionKey"), unchanged.string("id")))
        .as("after a refused update and delete")
        .containsExactlyEntriesOf(Map.of("where", new Value.Str(unchanged.string("where"))));
  }

  @Test
  void filtersWrittenToEscapeASasRangeFailAndATransactionOutsideItWritesNothing() {
    ScenarioReport report = passes("sas-filter-escape");

    String table = report.string("table");
    for (List<String> key : report.keys("committed")) {
      assertThat(propertiesOf(table, key.get(0), key.get(1)))
          .as("committed %s", key)
          .containsEntry("n", new Value.Int32(2));
    }
    for (List<String> key : report.keys("refused")) {
      assertThat(stored(table, key.get(0), key.get(1))).as("refused %s", key).isEmpty();
    }
    for (List<String> key : report.keys("unchanged")) {
      assertThat(propertiesOf(table, key.get(0), key.get(1)))
          .as("after a refused transaction %s", key)
          .isEqualTo(Map.of("x", new Value.Str("a"), "n", new Value.Int32(1)));
    }
  }

  @Test
  void connectionStringWithAnExplicitTableEndpointReachesThisServer() {
    ScenarioReport report = passes("connection-string");

    for (String id : report.strings("ids")) {
      assertThat(stored(report.string("table"), report.string("partitionKey"), id))
          .as(id)
          .isPresent();
    }
  }

  /**
   * Found by the JS SDK: an unannotated integer beyond Int32 was an Int64 and read back as a
   * bigint.
   */
  @Test
  void integerBeyondInt32WrittenAsAJsNumberReadsBackAsANumber() {
    ScenarioReport report = passes("large-numbers");

    assertThat(stored(report.string("table"), report.string("partitionKey"), report.string("id")))
        .isPresent();
  }

  @Test
  void everyAnswerNamesVersion20190202AndEndpointsEndingInASlashWork() {
    ScenarioReport report = passes("versions-and-paths");

    String table = report.string("table");
    String partitionKey = report.string("partitionKey");
    for (String id : report.strings("ids")) {
      assertThat(stored(table, partitionKey, id)).as(id).isPresent();
    }
    for (String id : report.strings("absent")) {
      assertThat(stored(table, partitionKey, id)).as("refused %s", id).isEmpty();
    }
  }
}
