package io.viewbase.server.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.TableInfo;
import io.viewbase.api.Value;
import io.viewbase.api.Viewbase;
import io.viewbase.server.dynamodb.model.AttributeValue;
import io.viewbase.server.js.ChildRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The AWS CLI ({@code aws dynamodb ...}, as a user types it) against a real server on a socket: the
 * table commands and their waiters, the item commands with conditions and every type, the CLI's own
 * paging (it follows {@code LastEvaluatedKey} by itself, and {@code --max-items} /{@code
 * --starting-token} resume from its tokens), batches, a canceled transaction, time to live, a
 * table's stream read with {@code aws dynamodbstreams}, and the errors it prints. Each command's
 * JSON output is checked, then what the server stored, through {@link Database}.
 *
 * <p>Without the CLI the tests are skipped, or fail with {@code -Dviewbase.test.requireAwsCli=true}
 * (as CI runs them); {@link AwsCli} says which CLI runs and how.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AwsCliTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final AtomicInteger tables = new AtomicInteger();
  private Database db;
  private DynamoDbServer server;
  private AwsCli aws;
  @TempDir Path files;

  @BeforeAll
  void start() {
    db = Viewbase.open(OpenOptions.inMemory());
    server = DynamoDbServer.start(db, DynamoDbOptions.defaults().withPort(0));
  }

  @AfterAll
  void stop() {
    server.close();
    db.close();
  }

  /** Before each test, so that a missing CLI skips or fails each one with the reason. */
  @BeforeEach
  void findCli() {
    aws = AwsCli.require();
  }

  private ChildRun call(String operation, String... args) {
    return callService("dynamodb", operation, args);
  }

  private ChildRun callService(String service, String operation, String... args) {
    return aws.run(
        service,
        "http://127.0.0.1:" + server.port(),
        DynamoDbOptions.LOCAL_KEY_ID,
        DynamoDbOptions.LOCAL_SECRET,
        files,
        operation,
        List.of(args));
  }

  /** Runs the command, asserts that it succeeded, and returns its JSON output ({} for none). */
  private JsonNode ok(String operation, String... args) {
    return okService("dynamodb", operation, args);
  }

  /** {@link #ok} for a command of another service ({@code dynamodbstreams}). */
  private JsonNode okService(String service, String operation, String... args) {
    ChildRun run = callService(service, operation, args);
    assertThat(run.succeeded())
        .as(() -> "aws-cli/" + aws.version() + " failed:\n" + run.describe())
        .isTrue();
    try {
      return run.stdout().isBlank() ? JSON.createObjectNode() : JSON.readTree(run.stdout());
    } catch (IOException e) {
      throw new AssertionError("not JSON:\n" + run.describe(), e);
    }
  }

  /**
   * Runs the command and asserts that it failed with the service's error: the CLI's line {@code An
   * error occurred (<exception>) when calling the <operation> operation: <message>}.
   */
  private void failsWith(String exception, String message, String operation, String... args) {
    ChildRun run = call(operation, args);
    assertThat(run.exitCode()).as(run::describe).isNotZero();
    assertThat(run.timedOut()).isFalse();
    assertThat(run.stderr())
        .as(run::describe)
        .contains("An error occurred (" + exception + ") when calling the ")
        .contains(" operation: " + message);
  }

  /**
   * Writes a file of the temporary directory, for a {@code file://} argument; returns the latter.
   */
  private String file(String name, String content) {
    try {
      Files.writeString(files.resolve(name), content, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return "file://" + name;
  }

  /**
   * Creates a table keyed by pk (S) and sk (N), with a global index byOwner on owner (S). Its name
   * is a Viewbase name, so also the name of the Viewbase table holding it.
   */
  private String newTable() {
    String name = "CliTable" + tables.incrementAndGet();
    String gsi =
        file(
            name + "-gsi.json",
            """
            [{"IndexName": "byOwner",
              "KeySchema": [{"AttributeName": "owner", "KeyType": "HASH"}],
              "Projection": {"ProjectionType": "ALL"}}]
            """);
    JsonNode created =
        ok(
            "create-table",
            "--table-name",
            name,
            "--attribute-definitions",
            "AttributeName=pk,AttributeType=S",
            "AttributeName=sk,AttributeType=N",
            "AttributeName=owner,AttributeType=S",
            "--key-schema",
            "AttributeName=pk,KeyType=HASH",
            "AttributeName=sk,KeyType=RANGE",
            "--billing-mode",
            "PAY_PER_REQUEST",
            "--global-secondary-indexes",
            gsi);
    JsonNode description = created.path("TableDescription");
    assertThat(description.path("TableName").asText()).isEqualTo(name);
    assertThat(description.path("TableStatus").asText()).isEqualTo("ACTIVE");
    return name;
  }

  private static String id(long sk) {
    return DynamoDbKeys.id(AttributeValue.N.of(sk));
  }

  private static List<String> texts(JsonNode items, String attribute, String type) {
    List<String> out = new ArrayList<>();
    items.forEach(i -> out.add(i.path(attribute).path(type).asText()));
    return out;
  }

  @Test
  void createTableDescribeTableListTablesAndDeleteTableAnswerAsDynamoDb() {
    String table = newTable();
    String other = newTable();
    ok("wait", "table-exists", "--table-name", table); // the waiter polls DescribeTable

    JsonNode described = ok("describe-table", "--table-name", table).path("Table");
    assertThat(described.path("TableStatus").asText()).isEqualTo("ACTIVE");
    assertThat(described.path("ItemCount").asLong()).isZero();
    assertThat(described.path("TableArn").asText())
        .isEqualTo("arn:aws:dynamodb:us-east-1:000000000000:table/" + table);
    assertThat(described.path("KeySchema"))
        .isEqualTo(
            JSON.valueToTree(
                List.of(
                    Map.of("AttributeName", "pk", "KeyType", "HASH"),
                    Map.of("AttributeName", "sk", "KeyType", "RANGE"))));
    assertThat(described.path("BillingModeSummary").path("BillingMode").asText())
        .isEqualTo("PAY_PER_REQUEST");
    JsonNode index = described.path("GlobalSecondaryIndexes").path(0);
    assertThat(index.path("IndexName").asText()).isEqualTo("byOwner");
    assertThat(index.path("IndexStatus").asText()).isEqualTo("ACTIVE");
    assertThat(index.path("IndexArn").asText())
        .isEqualTo(described.path("TableArn").asText() + "/index/byOwner");

    List<String> listed = new ArrayList<>();
    ok("list-tables").path("TableNames").forEach(n -> listed.add(n.asText()));
    assertThat(listed).contains(table, other).isSorted();
    // the CLI's paging of ListTables: one name at a time, resumed from its token
    JsonNode first = ok("list-tables", "--max-items", "1");
    assertThat(first.path("TableNames")).hasSize(1);
    assertThat(first.path("NextToken").asText()).isNotEmpty();
    JsonNode second =
        ok("list-tables", "--max-items", "1", "--starting-token", first.path("NextToken").asText());
    assertThat(second.path("TableNames").path(0).asText())
        .isEqualTo(listed.get(1))
        .isNotEqualTo(first.path("TableNames").path(0).asText());
    assertThat(db.listTables().stream().map(TableInfo::name)).contains(table, other);

    failsWith(
        "ResourceInUseException",
        "Table already exists: " + table,
        "create-table",
        "--table-name",
        table,
        "--attribute-definitions",
        "AttributeName=pk,AttributeType=S",
        "--key-schema",
        "AttributeName=pk,KeyType=HASH",
        "--billing-mode",
        "PAY_PER_REQUEST");

    JsonNode deleted = ok("delete-table", "--table-name", other);
    assertThat(deleted.path("TableDescription").path("TableStatus").asText()).isEqualTo("DELETING");
    ok("wait", "table-not-exists", "--table-name", other);
    failsWith(
        "ResourceNotFoundException",
        "Requested resource not found: Table: " + other + " not found",
        "describe-table",
        "--table-name",
        other);
  }

  @Test
  void putItemGetItemUpdateItemAndDeleteItemWithConditionsAndEveryType() {
    String table = newTable();
    String item =
        file(
            "item.json",
            """
            {"pk": {"S": "doc"}, "sk": {"N": "1"}, "owner": {"S": "ada"},
             "title": {"S": "Notes \u00fc"}, "big": {"N": "123456789012345678901234567890.5"},
             "blob": {"B": "AAEC"}, "done": {"BOOL": true}, "none": {"NULL": true},
             "tags": {"SS": ["a", "b"]}, "scores": {"NS": ["1", "2"]},
             "meta": {"M": {"pages": {"N": "3"}, "authors": {"L": [{"S": "ada"}]}}}}
            """);
    assertThat(ok("put-item", "--table-name", table, "--item", item)).isEmpty();
    // Version 2 reads a B in its input as base64 (the bytes 0, 1, 2); version 1 as the bytes of
    // the text itself. Both print the bytes the server holds in base64.
    byte[] blob =
        aws.major() >= 2 ? new byte[] {0, 1, 2} : "AAEC".getBytes(StandardCharsets.US_ASCII);

    JsonNode got =
        ok(
                "get-item",
                "--table-name",
                table,
                "--key",
                "{\"pk\": {\"S\": \"doc\"}, \"sk\": {\"N\": \"1\"}}",
                "--consistent-read")
            .path("Item");
    assertThat(got.path("title").path("S").asText()).isEqualTo("Notes ü");
    assertThat(got.path("big").path("N").asText()).isEqualTo("123456789012345678901234567890.5");
    assertThat(got.path("blob").path("B").asText())
        .isEqualTo(Base64.getEncoder().encodeToString(blob));
    assertThat(got.path("done").path("BOOL").asBoolean()).isTrue();
    assertThat(got.path("none").path("NULL").asBoolean()).isTrue();
    assertThat(got.path("tags").path("SS")).isEqualTo(JSON.valueToTree(List.of("a", "b")));
    assertThat(got.path("meta").path("M").path("authors").path("L").path(0).path("S").asText())
        .isEqualTo("ada");
    assertThat(got.size()).isEqualTo(11);
    JsonNode projected =
        ok(
                "get-item",
                "--table-name",
                table,
                "--key",
                "{\"pk\": {\"S\": \"doc\"}, \"sk\": {\"N\": \"1\"}}",
                "--projection-expression",
                "#o, meta.pages",
                "--expression-attribute-names",
                "{\"#o\": \"owner\"}")
            .path("Item");
    assertThat(projected)
        .isEqualTo(
            JSON.valueToTree(
                Map.of(
                    "owner", Map.of("S", "ada"),
                    "meta", Map.of("M", Map.of("pages", Map.of("N", "3"))))));
    assertThat(
            ok(
                "get-item",
                "--table-name",
                table,
                "--key",
                "{\"pk\": {\"S\": \"doc\"}, \"sk\": {\"N\": \"2\"}}"))
        .as("an absent item: no output")
        .isEmpty();

    failsWith(
        "ConditionalCheckFailedException",
        "The conditional request failed",
        "put-item",
        "--table-name",
        table,
        "--item",
        "{\"pk\": {\"S\": \"doc\"}, \"sk\": {\"N\": \"1\"}}",
        "--condition-expression",
        "attribute_not_exists(pk)");
    JsonNode updated =
        ok(
            "update-item",
            "--table-name",
            table,
            "--key",
            "{\"pk\": {\"S\": \"doc\"}, \"sk\": {\"N\": \"1\"}}",
            "--update-expression",
            "SET title = :t ADD visits :one REMOVE #n",
            "--condition-expression",
            "#o = :ada",
            "--expression-attribute-names",
            "{\"#n\": \"none\", \"#o\": \"owner\"}",
            "--expression-attribute-values",
            "{\":t\": {\"S\": \"Notes, revised\"}, \":one\": {\"N\": \"1\"}, \":ada\": {\"S\": \"ada\"}}",
            "--return-values",
            "UPDATED_NEW");
    assertThat(updated.path("Attributes"))
        .isEqualTo(
            JSON.valueToTree(
                Map.of("title", Map.of("S", "Notes, revised"), "visits", Map.of("N", "1"))));
    failsWith(
        "ConditionalCheckFailedException",
        "The conditional request failed",
        "update-item",
        "--table-name",
        table,
        "--key",
        "{\"pk\": {\"S\": \"doc\"}, \"sk\": {\"N\": \"1\"}}",
        "--update-expression",
        "SET title = :t",
        "--condition-expression",
        "attribute_exists(#n)",
        "--expression-attribute-names",
        "{\"#n\": \"none\"}",
        "--expression-attribute-values",
        "{\":t\": {\"S\": \"never\"}}");

    Map<String, Value> stored = db.table(table).get("doc", id(1)).orElseThrow().properties();
    assertThat(stored)
        .containsEntry("title", new Value.Str("Notes, revised"))
        .containsEntry("visits", Value.Decimal.parse("1"))
        .containsEntry("big", Value.Decimal.parse("123456789012345678901234567890.5"))
        .containsEntry("blob", new Value.Binary(blob))
        .doesNotContainKey("none");

    ok(
        "put-item",
        "--table-name",
        table,
        "--item",
        "{\"pk\": {\"S\": \"doc\"}, \"sk\": {\"N\": \"2\"}}");
    JsonNode deleted =
        ok(
            "delete-item",
            "--table-name",
            table,
            "--key",
            "{\"pk\": {\"S\": \"doc\"}, \"sk\": {\"N\": \"1\"}}",
            "--return-values",
            "ALL_OLD");
    assertThat(deleted.path("Attributes").path("title").path("S").asText())
        .isEqualTo("Notes, revised");
    assertThat(db.table(table).get("doc", id(1))).isEmpty();
    assertThat(db.table(table).get("doc", id(2))).isPresent();
  }

  @Test
  void queryAndScanFollowEveryPageAndResumeFromTheCliTokens() {
    String table = newTable();
    StringBuilder batch = new StringBuilder("{\"" + table + "\": [");
    for (int i = 0; i < 25; i++) {
      batch
          .append(i == 0 ? "" : ",")
          .append("{\"PutRequest\": {\"Item\": {\"pk\": {\"S\": \"p")
          .append(i % 3)
          .append("\"}, \"sk\": {\"N\": \"")
          .append(i - 12)
          .append("\"}, \"owner\": {\"S\": \"")
          .append(i % 2 == 0 ? "even" : "odd")
          .append("\"}}}}");
    }
    batch.append("]}");
    JsonNode written =
        ok("batch-write-item", "--request-items", file("batch.json", batch.toString()));
    assertThat(written.path("UnprocessedItems")).isEmpty();
    JsonNode read =
        ok(
            "batch-get-item",
            "--request-items",
            "{\""
                + table
                + "\": {\"Keys\": [{\"pk\": {\"S\": \"p0\"}, \"sk\": {\"N\": \"-12\"}},"
                + " {\"pk\": {\"S\": \"p1\"}, \"sk\": {\"N\": \"-11\"}},"
                + " {\"pk\": {\"S\": \"p1\"}, \"sk\": {\"N\": \"99\"}}]}}");
    assertThat(read.path("Responses").path(table)).hasSize(2);
    assertThat(read.path("UnprocessedKeys")).isEmpty();

    // p0 holds i = 0, 3, ..., 24: sk -12, -9, ..., 12. The CLI reads every page of 2 by itself.
    String[] p0 = {
      "--table-name",
      table,
      "--key-condition-expression",
      "pk = :p AND sk BETWEEN :lo AND :hi",
      "--expression-attribute-values",
      "{\":p\": {\"S\": \"p0\"}, \":lo\": {\"N\": \"-9\"}, \":hi\": {\"N\": \"9\"}}"
    };
    JsonNode all = ok("query", concat(p0, "--page-size", "2"));
    assertThat(texts(all.path("Items"), "sk", "N"))
        .containsExactly("-9", "-6", "-3", "0", "3", "6", "9");
    assertThat(all.path("Count").asInt()).isEqualTo(7);
    JsonNode descending = ok("query", concat(p0, "--no-scan-index-forward"));
    assertThat(texts(descending.path("Items"), "sk", "N"))
        .containsExactly("9", "6", "3", "0", "-3", "-6", "-9");
    JsonNode firstThree = ok("query", concat(p0, "--max-items", "3", "--page-size", "2"));
    assertThat(texts(firstThree.path("Items"), "sk", "N")).containsExactly("-9", "-6", "-3");
    String token = firstThree.path("NextToken").asText();
    assertThat(token).isNotEmpty();
    JsonNode rest = ok("query", concat(p0, "--starting-token", token, "--page-size", "2"));
    assertThat(texts(rest.path("Items"), "sk", "N")).containsExactly("0", "3", "6", "9");
    JsonNode byOwner =
        ok(
            "query",
            "--table-name",
            table,
            "--index-name",
            "byOwner",
            "--key-condition-expression",
            "#o = :o",
            "--expression-attribute-names",
            "{\"#o\": \"owner\"}",
            "--expression-attribute-values",
            "{\":o\": {\"S\": \"odd\"}}",
            "--select",
            "COUNT");
    assertThat(byOwner.path("Count").asInt()).isEqualTo(12);

    JsonNode scan = ok("scan", "--table-name", table, "--page-size", "4");
    assertThat(scan.path("Count").asInt()).isEqualTo(25);
    Set<String> seen = new HashSet<>();
    int segmented = 0;
    for (int segment = 0; segment < 3; segment++) {
      JsonNode part =
          ok(
              "scan",
              "--table-name",
              table,
              "--total-segments",
              "3",
              "--segment",
              Integer.toString(segment),
              "--page-size",
              "3");
      for (JsonNode i : part.path("Items")) {
        seen.add(i.path("pk").path("S").asText() + "/" + i.path("sk").path("N").asText());
        segmented++;
      }
    }
    assertThat(segmented).isEqualTo(25);
    assertThat(seen).hasSize(25);
    JsonNode filtered =
        ok(
            "scan",
            "--table-name",
            table,
            "--filter-expression",
            "sk > :z AND #o = :even",
            "--expression-attribute-names",
            "{\"#o\": \"owner\"}",
            "--expression-attribute-values",
            "{\":z\": {\"N\": \"8\"}, \":even\": {\"S\": \"even\"}}");
    // i - 12 > 8 and i even: i = 22, 24
    assertThat(texts(filtered.path("Items"), "sk", "N")).containsExactlyInAnyOrder("10", "12");

    failsWith(
        "TransactionCanceledException",
        "Transaction cancelled, please refer cancellation reasons for specific reasons"
            + " [None, ConditionalCheckFailed]",
        "transact-write-items",
        "--transact-items",
        "[{\"Put\": {\"TableName\": \""
            + table
            + "\", \"Item\": {\"pk\": {\"S\": \"new\"}, \"sk\": {\"N\": \"1\"}}}},"
            + " {\"ConditionCheck\": {\"TableName\": \""
            + table
            + "\", \"Key\": {\"pk\": {\"S\": \"p0\"}, \"sk\": {\"N\": \"0\"}},"
            + " \"ConditionExpression\": \"attribute_not_exists(pk)\"}}]");
    assertThat(db.table(table).get("new", id(1))).isEmpty();
  }

  @Test
  void timeToLiveHidesExpiredItemsAndTheStreamRecordsEveryChange() throws InterruptedException {
    String table = "CliTable" + tables.incrementAndGet();
    JsonNode created =
        ok(
            "create-table",
            "--table-name",
            table,
            "--attribute-definitions",
            "AttributeName=pk,AttributeType=S",
            "--key-schema",
            "AttributeName=pk,KeyType=HASH",
            "--billing-mode",
            "PAY_PER_REQUEST",
            "--stream-specification",
            "StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES");
    String streamArn = created.path("TableDescription").path("LatestStreamArn").asText();
    assertThat(streamArn).startsWith("arn:aws:dynamodb:us-east-1:000000000000:table/" + table);

    JsonNode enabled =
        ok(
            "update-time-to-live",
            "--table-name",
            table,
            "--time-to-live-specification",
            "Enabled=true,AttributeName=expires");
    assertThat(enabled.path("TimeToLiveSpecification"))
        .isEqualTo(JSON.valueToTree(Map.of("Enabled", true, "AttributeName", "expires")));
    long now = java.time.Instant.now().getEpochSecond();
    ok("put-item", "--table-name", table, "--item", ttlItem("past", now - 10));
    ok("put-item", "--table-name", table, "--item", ttlItem("future", now + 3600));
    ok("put-item", "--table-name", table, "--item", ttlItem("future", now + 7200));
    assertThat(texts(ok("scan", "--table-name", table).path("Items"), "pk", "S"))
        .containsExactly("future");
    assertThat(ok("get-item", "--table-name", table, "--key", "{\"pk\": {\"S\": \"past\"}}"))
        .as("expired: absent at once")
        .isEmpty();
    String status = "";
    for (int i = 0; i < 100 && !status.equals("ENABLED"); i++) {
      status =
          ok("describe-time-to-live", "--table-name", table)
              .path("TimeToLiveDescription")
              .path("TimeToLiveStatus")
              .asText();
      if (!status.equals("ENABLED")) {
        assertThat(status).isEqualTo("ENABLING");
        Thread.sleep(100);
      }
    }
    assertThat(status).isEqualTo("ENABLED");

    JsonNode streams = okService("dynamodbstreams", "list-streams", "--table-name", table);
    assertThat(streams.path("Streams").path(0).path("StreamArn").asText()).isEqualTo(streamArn);
    JsonNode stream =
        okService("dynamodbstreams", "describe-stream", "--stream-arn", streamArn)
            .path("StreamDescription");
    assertThat(stream.path("StreamStatus").asText()).isEqualTo("ENABLED");
    assertThat(stream.path("StreamViewType").asText()).isEqualTo("NEW_AND_OLD_IMAGES");
    String iterator =
        okService(
                "dynamodbstreams",
                "get-shard-iterator",
                "--stream-arn",
                streamArn,
                "--shard-id",
                stream.path("Shards").path(0).path("ShardId").asText(),
                "--shard-iterator-type",
                "TRIM_HORIZON")
            .path("ShardIterator")
            .asText();
    JsonNode records =
        okService("dynamodbstreams", "get-records", "--shard-iterator", iterator).path("Records");
    List<String> events = new ArrayList<>();
    for (JsonNode record : records) {
      JsonNode change = record.path("dynamodb");
      events.add(
          record.path("eventName").asText()
              + " "
              + change.path("Keys").path("pk").path("S").asText()
              + " old="
              + change.path("OldImage").path("expires").path("N").asText("-")
              + " new="
              + change.path("NewImage").path("expires").path("N").asText("-"));
    }
    assertThat(events)
        .startsWith(
            "INSERT past old=- new=" + (now - 10),
            "INSERT future old=- new=" + (now + 3600),
            "MODIFY future old=" + (now + 3600) + " new=" + (now + 7200));
  }

  private static String ttlItem(String pk, long expires) {
    return "{\"pk\": {\"S\": \"" + pk + "\"}, \"expires\": {\"N\": \"" + expires + "\"}}";
  }

  @Test
  void anUnknownTableAndAnUnknownKeyFailWithDynamoDbsErrors() {
    failsWith(
        "ResourceNotFoundException",
        "Requested resource not found",
        "get-item",
        "--table-name",
        "no-such-table",
        "--key",
        "{\"pk\": {\"S\": \"x\"}}");
    ChildRun unknownKey =
        aws.run(
            "dynamodb",
            "http://127.0.0.1:" + server.port(),
            "AKIDUNKNOWN",
            "whatever",
            files,
            "list-tables",
            List.of());
    assertThat(unknownKey.exitCode()).isNotZero();
    assertThat(unknownKey.stderr())
        .as(unknownKey::describe)
        .contains(
            "An error occurred (UnrecognizedClientException) when calling the ListTables"
                + " operation: The security token included in the request is invalid.");
  }

  private static String[] concat(String[] first, String... more) {
    String[] all = new String[first.length + more.length];
    System.arraycopy(first, 0, all, 0, first.length);
    System.arraycopy(more, 0, all, first.length, more.length);
    return all;
  }
}
