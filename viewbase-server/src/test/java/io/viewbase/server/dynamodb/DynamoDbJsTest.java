package io.viewbase.server.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Page;
import io.viewbase.api.Query;
import io.viewbase.api.TableInfo;
import io.viewbase.api.Value;
import io.viewbase.api.Viewbase;
import io.viewbase.server.dynamodb.model.AttributeValue;
import io.viewbase.server.js.ChildRun;
import io.viewbase.server.js.NodeRuntime;
import io.viewbase.server.js.ScenarioReport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * ElectroDB and the AWS SDK for JavaScript v3, at the versions pinned in {@code
 * src/test/js-dynamodb/package.json}, against a real DynamoDB-dialect server on a socket over
 * RocksDB: each test runs one scenario of {@code src/test/js-dynamodb/scenarios} as {@code node
 * <script> <endpoint> <accessKeyId> <secretAccessKey>}. The scenario asserts what the client shows
 * (node:assert; a failure exits non-zero and its output is this test's failure message) and reports
 * on its last line what it left behind, which the test then checks through {@link Database}: the
 * server stored what the client was told, under the identities docs/dynamodb.md describes, and a
 * refused or canceled write stored nothing.
 *
 * <p>Without Node.js the tests are skipped, or fail with {@code -Dviewbase.test.requireNode=true}
 * (as CI runs them); the npm packages are installed once per JVM when missing ({@link
 * NodeRuntime}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DynamoDbJsTest {
  private Database db;
  private DynamoDbServer server;
  private NodeRuntime node;

  @BeforeAll
  void start(@TempDir Path dir) {
    db = Viewbase.open(OpenOptions.at(dir));
    server = DynamoDbServer.start(db, DynamoDbOptions.defaults().withPort(0));
  }

  @AfterAll
  void stop() {
    server.close();
    db.close();
  }

  /**
   * Before each test rather than once for the class: a test skipped or failed from
   * {@code @BeforeAll} is not reported one by one, and Surefire would then count no test and lose
   * the reason.
   */
  @BeforeEach
  void prepareNode() {
    node = NodeRuntime.require("js-dynamodb");
  }

  /**
   * Runs the scenario against this class's server, asserts that it passed, and returns its report.
   */
  private ScenarioReport passes(String scenario) {
    ChildRun run =
        node.run(
            "scenarios/" + scenario + ".js",
            "http://127.0.0.1:" + server.port(),
            DynamoDbOptions.LOCAL_KEY_ID,
            DynamoDbOptions.LOCAL_SECRET);
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

  private Optional<Item> stored(String table, String partitionKey, String id) {
    return db.table(table).get(partitionKey, id);
  }

  private Map<String, Value> propertiesOf(String table, String partitionKey, String id) {
    return stored(table, partitionKey, id)
        .orElseThrow(
            () ->
                new AssertionError("not stored: " + table + " (" + partitionKey + ", " + id + ")"))
        .properties();
  }

  private List<Item> partition(String table, String partitionKey) {
    List<Item> items = new ArrayList<>();
    String continuation = null;
    do {
      Page page =
          db.table(table).query(Query.partition(partitionKey).withContinuation(continuation));
      items.addAll(page.items());
      continuation = page.continuation();
    } while (continuation != null);
    return items;
  }

  /** Checks the report's {@code present} and {@code absent} [partitionKey, id] pairs. */
  private void checkKeys(ScenarioReport report) {
    String table = report.string("table");
    for (List<String> key : report.keys("present")) {
      assertThat(stored(table, key.get(0), key.get(1))).as("stored %s", key).isPresent();
    }
    for (List<String> key : report.keys("absent")) {
      assertThat(stored(table, key.get(0), key.get(1))).as("deleted or refused %s", key).isEmpty();
    }
  }

  private static Value number(String n) {
    return Value.Decimal.parse(n);
  }

  @Test
  void electroDbEntityPutsCreatesUpdatesPatchesAndDeletesWithItsOwnKeys() {
    ScenarioReport report = passes("electrodb-entity");

    checkKeys(report);
    List<String> ada = report.keys("present").get(0);
    Map<String, Value> p = propertiesOf(report.string("table"), ada.get(0), ada.get(1));
    assertThat(p)
        .containsEntry("name", new Value.Str(report.string("name")))
        .containsEntry("logins", number(Long.toString(report.number("logins"))))
        .containsEntry("pk", new Value.Str(ada.get(0)))
        .containsEntry("gsi1pk", new Value.Str("$platform#email_ada@example.com"))
        // ElectroDB's identifiers start with _, so they are stored escaped (docs/dynamodb.md)
        .containsEntry("$__edb_e__", new Value.Str("user"))
        .containsEntry("$__edb_v__", new Value.Str("1"))
        .doesNotContainKeys("tags", "active", "__edb_e__");
    assertThat(p.get("roles"))
        .isEqualTo(
            new Value.Obj(
                Map.of(ItemValues.STRING_SET, new Value.Arr(List.of(new Value.Str("admin"))))));
  }

  @Test
  void electroDbQueriesPageWithLimitsAndCursorsAndScan() {
    ScenarioReport report = passes("electrodb-queries");

    List<Item> readings = partition(report.string("table"), report.string("partitionKey"));
    assertThat(readings).hasSize((int) report.number("readings"));
    assertThat(readings.get(0).id()).isEqualTo("$reading_1#at_2024-01-01");
    assertThat(readings.get(readings.size() - 1).properties())
        .containsEntry("seq", number("30"))
        .containsEntry("gsi1sk", new Value.Str("$reading_1#seq_0030"));
  }

  @Test
  void electroDbServiceCollectionsNamespacesBatchesAndTransactions() {
    ScenarioReport report = passes("electrodb-service");

    checkKeys(report);
    String table = report.string("table");
    assertThat(partition(table, "$platform#organizationid_acme"))
        .as("the scopes keep entities out of the unscoped partition")
        .isEmpty();
    assertThat(partition(table, "$platform_user#organizationid_acme")).hasSize(20);
    assertThat(propertiesOf(table, "$platform_organization#organizationid_core", "$organization_1"))
        .containsEntry("seats", number("1"))
        .containsEntry("gsi2pk", new Value.Str("$platform_organizations"));
  }

  @Test
  void sdkCreatesTablesAndWritesReadsUpdatesAndDeletesItems() {
    ScenarioReport report = passes("sdk-items");

    String table = report.string("table");
    for (List<String> key : report.keys("present")) {
      String id = DynamoDbKeys.id(AttributeValue.N.parse(key.get(1)));
      assertThat(stored(table, key.get(0), id)).as("stored %s", key).isPresent();
    }
    for (List<String> key : report.keys("absent")) {
      String id = DynamoDbKeys.id(AttributeValue.N.parse(key.get(1)));
      assertThat(stored(table, key.get(0), id)).as("deleted %s", key).isEmpty();
    }
    Map<String, Value> doc = propertiesOf(table, "doc-1", DynamoDbKeys.id(AttributeValue.N.of(1)));
    assertThat(doc)
        .containsEntry("title", new Value.Str("Notes, revised"))
        .containsEntry("big", number("12345678901234567890123456789012345678"))
        .containsEntry("blob", new Value.Binary(new byte[] {0, 1, (byte) 254, (byte) 255}))
        .containsEntry("done", new Value.Bool(false))
        .doesNotContainKey("nothing");
    assertThat(db.listTables().stream().map(TableInfo::name))
        .contains(table)
        .doesNotContain(report.string("deletedTable"));
  }

  @Test
  void sdkQueriesAndScansPageWithLimitAndExclusiveStartKeyAndSegments() {
    ScenarioReport report = passes("sdk-queries");

    String table = report.string("table");
    long stored = 0;
    for (int c = 0; c < 6; c++) {
      stored += partition(table, "c" + c).size();
    }
    assertThat(stored).isEqualTo(report.number("items"));
    @SuppressWarnings("unchecked")
    List<Long> perSegment = (List<Long>) report.members().get("perSegment");
    assertThat(perSegment.stream().mapToLong(Long::longValue).sum())
        .isEqualTo(report.number("items"));
  }

  @Test
  void sdkBatchesAndTransactionsCommitAllOrNothing() {
    ScenarioReport report = passes("sdk-batches");

    String accounts = report.string("accounts");
    ScenarioReport balances = report.object("balances");
    for (String account : balances.members().keySet()) {
      assertThat(propertiesOf(accounts, account, ""))
          .as(account)
          .containsEntry("balance", number(balances.string(account)));
    }
    for (String account : report.strings("absent")) {
      assertThat(stored(accounts, account, "")).as(account).isEmpty();
    }
    assertThat(partition(report.string("ledger"), "alice"))
        .extracting(item -> item.properties().get("amount"))
        .containsExactly(number("1"), number("1"), number("-30"));
  }
}
