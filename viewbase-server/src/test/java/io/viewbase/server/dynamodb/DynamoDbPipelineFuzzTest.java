package io.viewbase.server.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Query;
import io.viewbase.api.TableInfo;
import io.viewbase.api.Viewbase;
import io.viewbase.server.PipelineExchange;
import io.viewbase.server.ServerMetrics;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Coverage-guided fuzzing of the DynamoDB dialect's request path, in process ({@link
 * PipelineExchange}: the listener's own connection handlers, the dialect, a real database): SigV4
 * authentication, the target header, the JSON request tree, every operation's parameters and
 * expressions, key and attribute values, paging keys, batches and transactions. The input builds
 * one request: an operation, and a body that is either one of the operations' valid requests on the
 * seeded table with fuzzed text spliced in, or fuzzed bytes; the request is signed with the
 * dialect's local key (so that it reaches the operation) or, one time in four, sent with a fuzzed
 * {@code Authorization} header; one time in eight it is raw bytes as they come. The contract for
 * any input:
 *
 * <ul>
 *   <li>every answer is a well-formed HTTP/1.1 response whose status is below 500;
 *   <li>the exchange ends within {@link PipelineExchange#HANG_MILLIS} (no hang);
 *   <li>a refused request (every answer 4xx) changes no stored item of any table (the DynamoDB
 *       table, its index's view, the dialect's own tables).
 * </ul>
 *
 * Inputs replay from {@code DynamoDbPipelineFuzzTestInputs/}.
 */
class DynamoDbPipelineFuzzTest {
  private static final String REGION = "us-east-1";
  private static final String[] OPERATIONS = {
    "PutItem",
    "GetItem",
    "UpdateItem",
    "DeleteItem",
    "Query",
    "Scan",
    "BatchGetItem",
    "BatchWriteItem",
    "TransactWriteItems",
    "TransactGetItems",
    "CreateTable",
    "DescribeTable",
    "UpdateTable",
    "DeleteTable",
    "ListTables",
    "UpdateTimeToLive",
    "DescribeTimeToLive",
    "TagResource",
    "ListTagsOfResource"
  };

  /** A valid request for each kind of operation, on the seeded table; fuzzed text goes into it. */
  private static final String[] BODIES = {
    "{\"TableName\":\"people\",\"Item\":{\"pk\":{\"S\":\"acme\"},\"sk\":{\"N\":\"7\"},"
        + "\"email\":{\"S\":\"a@x\"},\"tags\":{\"SS\":[\"a\",\"b\"]}},"
        + "\"ConditionExpression\":\"attribute_not_exists(pk)\"}",
    "{\"TableName\":\"people\",\"Key\":{\"pk\":{\"S\":\"acme\"},\"sk\":{\"N\":\"1\"}},"
        + "\"ProjectionExpression\":\"#e, tags[0], m.n\",\"ExpressionAttributeNames\":"
        + "{\"#e\":\"email\"},\"ConsistentRead\":true}",
    "{\"TableName\":\"people\",\"Key\":{\"pk\":{\"S\":\"acme\"},\"sk\":{\"N\":\"2\"}},"
        + "\"UpdateExpression\":\"SET n = if_not_exists(n, :z) + :one, l = list_append(:l, l)"
        + " REMOVE gone ADD s :s DELETE tags :t\",\"ConditionExpression\":"
        + "\"size(email) > :z AND begins_with(email, :p)\",\"ExpressionAttributeValues\":"
        + "{\":z\":{\"N\":\"0\"},\":one\":{\"N\":\"1\"},\":l\":{\"L\":[]},\":s\":{\"NS\":[\"1\"]},"
        + "\":t\":{\"SS\":[\"a\"]},\":p\":{\"S\":\"p\"}},\"ReturnValues\":\"ALL_NEW\"}",
    "{\"TableName\":\"people\",\"Key\":{\"pk\":{\"S\":\"acme\"},\"sk\":{\"N\":\"3\"}},"
        + "\"ConditionExpression\":\"attribute_type(email, :t)\",\"ExpressionAttributeValues\":"
        + "{\":t\":{\"S\":\"S\"}},\"ReturnValuesOnConditionCheckFailure\":\"ALL_OLD\"}",
    "{\"TableName\":\"people\",\"KeyConditionExpression\":\"pk = :p AND sk BETWEEN :a AND :b\","
        + "\"FilterExpression\":\"contains(email, :x) OR email IN (:x, :p)\","
        + "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"acme\"},\":a\":{\"N\":\"1\"},"
        + "\":b\":{\"N\":\"4\"},\":x\":{\"S\":\"@\"}},\"Limit\":2,\"ScanIndexForward\":false,"
        + "\"ExclusiveStartKey\":{\"pk\":{\"S\":\"acme\"},\"sk\":{\"N\":\"4\"}}}",
    "{\"TableName\":\"people\",\"IndexName\":\"byEmail\",\"KeyConditionExpression\":"
        + "\"email = :e\",\"ExpressionAttributeValues\":{\":e\":{\"S\":\"p1@x\"}}}",
    "{\"TableName\":\"people\",\"Segment\":0,\"TotalSegments\":2,\"Select\":\"COUNT\","
        + "\"ScanFilter\":{\"sk\":{\"ComparisonOperator\":\"GT\",\"AttributeValueList\":"
        + "[{\"N\":\"1\"}]}}}",
    "{\"RequestItems\":{\"people\":{\"Keys\":[{\"pk\":{\"S\":\"acme\"},\"sk\":{\"N\":\"1\"}}]}}}",
    "{\"RequestItems\":{\"people\":[{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"b\"},"
        + "\"sk\":{\"N\":\"1\"},\"b\":{\"B\":\"AAE=\"}}}},{\"DeleteRequest\":{\"Key\":"
        + "{\"pk\":{\"S\":\"acme\"},\"sk\":{\"N\":\"1\"}}}}]}}",
    "{\"TransactItems\":[{\"ConditionCheck\":{\"TableName\":\"people\",\"Key\":{\"pk\":"
        + "{\"S\":\"acme\"},\"sk\":{\"N\":\"1\"}},\"ConditionExpression\":\"attribute_exists(pk)\"}},"
        + "{\"Put\":{\"TableName\":\"people\",\"Item\":{\"pk\":{\"S\":\"t\"},\"sk\":{\"N\":\"1\"}}}}],"
        + "\"ClientRequestToken\":\"tok\"}",
    "{\"TableName\":\"pets\",\"AttributeDefinitions\":[{\"AttributeName\":\"id\","
        + "\"AttributeType\":\"S\"}],\"KeySchema\":[{\"AttributeName\":\"id\",\"KeyType\":\"HASH\"}],"
        + "\"BillingMode\":\"PAY_PER_REQUEST\"}",
    "{\"TableName\":\"people\",\"TimeToLiveSpecification\":{\"Enabled\":true,"
        + "\"AttributeName\":\"ttl\"}}"
  };

  static Database db;
  static PipelineExchange exchange;

  @BeforeAll
  static void start() {
    db = Viewbase.open(OpenOptions.inMemory());
    DynamoDbOptions options = DynamoDbOptions.defaults();
    exchange =
        new PipelineExchange(
            DynamoDbServer.listenerOptions(options),
            new DynamoDbDialect(new DynamoDbApi(db, options), new ServerMetrics().requests("d")));
    seed();
  }

  /**
   * The seeded table {@code people} (key {@code pk}, {@code sk}; index {@code byEmail}) with five
   * items, made through the dialect: at the start, and again when an accepted input dropped it.
   */
  private static void seed() {
    String create =
        "{\"TableName\":\"people\",\"AttributeDefinitions\":["
            + "{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},"
            + "{\"AttributeName\":\"sk\",\"AttributeType\":\"N\"},"
            + "{\"AttributeName\":\"email\",\"AttributeType\":\"S\"}],"
            + "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
            + "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}],"
            + "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"byEmail\",\"KeySchema\":"
            + "[{\"AttributeName\":\"email\",\"KeyType\":\"HASH\"}],"
            + "\"Projection\":{\"ProjectionType\":\"ALL\"}}],\"BillingMode\":\"PAY_PER_REQUEST\"}";
    assertThat(exchange.statuses(signed("CreateTable", create, null), 5000)).containsExactly(200);
    for (int i = 0; i < 5; i++) {
      String put =
          "{\"TableName\":\"people\",\"Item\":{\"pk\":{\"S\":\"acme\"},\"sk\":{\"N\":\""
              + i
              + "\"},\"email\":{\"S\":\"p"
              + i
              + "@x\"},\"m\":{\"M\":{\"n\":{\"N\":\"1\"}}}}}";
      assertThat(exchange.statuses(signed("PutItem", put, null), 5000)).containsExactly(200);
    }
  }

  @AfterAll
  static void stop() {
    db.close();
  }

  @DictionaryEntries({
    "{\"S\":\"",
    "{\"N\":\"",
    "{\"B\":\"",
    "{\"M\":{",
    "{\"L\":[",
    "{\"NULL\":true}",
    "{\"BOOL\":false}",
    "\"SS\":[",
    "\"NS\":[",
    "\"BS\":[",
    "\"KeyConditionExpression\":\"",
    "\"FilterExpression\":\"",
    "\"ConditionExpression\":\"",
    "\"UpdateExpression\":\"",
    "\"ProjectionExpression\":\"",
    "\"ExpressionAttributeNames\":{\"#",
    "\"ExpressionAttributeValues\":{\":",
    "\"ExclusiveStartKey\":",
    "\"IndexName\":\"byEmail\"",
    "\"Limit\":",
    "\"ReturnValues\":\"",
    "\"Expected\":{",
    "\"AttributeUpdates\":{",
    "\"KeyConditions\":{",
    "attribute_exists(",
    "attribute_not_exists(",
    "begins_with(",
    "contains(",
    "size(",
    " BETWEEN ",
    " IN (",
    "if_not_exists(",
    "list_append(",
    " AND ",
    " OR ",
    "NOT ",
    "99999999999999999999999999999999999999",
    "1E-130",
    "AWS4-HMAC-SHA256 Credential=",
    "X-Amz-Target: DynamoDB_20120810.",
    "Content-Type: application/x-amz-json-1.0"
  })
  @FuzzTest(maxDuration = "3s")
  void requestsAnswerBelow500WithoutChangingDataWhenRefused(FuzzedDataProvider data) {
    if (db.listTables().stream().noneMatch(table -> table.name().equals("people"))) {
      seed();
    }
    Map<String, List<String>> before = stored();
    List<Integer> statuses = exchange.statuses(request(data));
    for (int status : statuses) {
      assertThat(status).as("statuses %s", statuses).isLessThan(500);
    }
    if (!statuses.isEmpty() && statuses.stream().allMatch(s -> s >= 400)) {
      assertThat(stored()).as("every table after a refused request").isEqualTo(before);
    }
  }

  /** Every table's items, each as its key and properties. */
  private static Map<String, List<String>> stored() {
    Map<String, List<String>> tables = new LinkedHashMap<>();
    for (TableInfo table : db.listTables()) {
      tables.put(
          table.name(),
          db.table(table.name()).query(Query.all()).items().stream()
              .map(item -> item.partitionKey() + "/" + item.id() + " " + item.properties())
              .toList());
    }
    return tables;
  }

  private static byte[] request(FuzzedDataProvider data) {
    int shape = data.consumeInt(0, 7);
    if (shape == 0) {
      return data.consumeRemainingAsBytes();
    }
    String operation = data.pickValue(OPERATIONS);
    String authorization = shape <= 2 ? data.consumeString(120) : null;
    String headers = data.consumeString(80);
    String body;
    if (data.consumeBoolean()) {
      String valid = data.pickValue(BODIES);
      int at = data.consumeInt(0, valid.length());
      int cut = data.consumeInt(0, Math.min(8, valid.length() - at));
      body = valid.substring(0, at) + data.consumeRemainingAsString() + valid.substring(at + cut);
    } else {
      body = data.consumeRemainingAsString();
    }
    byte[] request = signed(operation, body, authorization);
    if (headers.isEmpty()) {
      return request;
    }
    // fuzzed headers after the signed ones, before the blank line
    String text = new String(request, StandardCharsets.ISO_8859_1);
    int end = text.indexOf("\r\n\r\n");
    return (text.substring(0, end) + "\r\n" + headers + text.substring(end))
        .getBytes(StandardCharsets.ISO_8859_1);
  }

  /**
   * A POST of {@code body} to {@code operation}, signed with the local key as the SDKs sign, or
   * carrying {@code authorization} as given when it is not null.
   */
  private static byte[] signed(String operation, String body, String authorization) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    Map<String, String> headers =
        RequestSigner.localHeaders("127.0.0.1:8000", operation, REGION, bytes);
    if (authorization != null) {
      headers.put("Authorization", authorization);
    }
    StringBuilder head = new StringBuilder("POST / HTTP/1.1\r\nConnection: close\r\n");
    headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
    head.append("Content-Length: ").append(bytes.length).append("\r\n\r\n");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(head.toString().getBytes(StandardCharsets.UTF_8));
    out.writeBytes(bytes);
    return out.toByteArray();
  }
}
