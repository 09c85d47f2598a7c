package io.viewbase.server.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.server.ServerOptions;
import io.viewbase.server.ViewbaseServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * One RocksDB database behind a DynamoDB listener (the AWS SDK as its client) and the native HTTP
 * API (java.net.http): a DynamoDB table reads through the native API with the values, set objects
 * and escaped names that docs/dynamodb.md lists, its index is a view the native API reads, native
 * filters see its attributes; a native item reads through DynamoDB as the nearest DynamoDB values;
 * and a unique native view on a DynamoDB table is a uniqueness constraint its DynamoDB writes obey.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DynamoDbNativeInteropTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Database db;
  private DynamoDbServer dynamoServer;
  private ViewbaseServer nativeServer;
  private DynamoDbClient dynamo;
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(2))
          .build();

  @BeforeAll
  void start(@TempDir Path dir) {
    db = Viewbase.open(OpenOptions.at(dir));
    dynamoServer = DynamoDbServer.start(db, DynamoDbOptions.defaults().withPort(0));
    nativeServer = ViewbaseServer.start(db, ServerOptions.defaults().withPort(0));
    dynamo =
        DynamoDbTablesContract.client(
            dynamoServer.port(), DynamoDbOptions.LOCAL_KEY_ID, DynamoDbOptions.LOCAL_SECRET);
  }

  @AfterAll
  void stop() {
    dynamo.close();
    nativeServer.close();
    dynamoServer.close();
    db.close();
  }

  // ---- the native API ----

  private record Answer(int status, JsonNode body) {}

  private Answer call(String method, String path, String body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + nativeServer.port() + path))
            .timeout(Duration.ofSeconds(10));
    if (body == null) {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      request
          .header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString(body));
    }
    try {
      HttpResponse<String> r =
          http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      return new Answer(r.statusCode(), r.body().isEmpty() ? null : JSON.readTree(r.body()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private JsonNode get(String path) {
    Answer a = call("GET", path, null);
    assertThat(a.status()).as("GET %s: %s", path, a.body()).isEqualTo(200);
    return a.body();
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** The ids of a native query's items, in order. */
  private static List<String> ids(JsonNode page) {
    List<String> ids = new ArrayList<>();
    page.get("items").forEach(i -> ids.add(i.get("id").asText()));
    return ids;
  }

  private void awaitReady(String view) {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!get("/v1/views/" + view).get("state").asText().equals("ready")) {
      assertThat(System.nanoTime()).as("view %s ready within 30 s", view).isLessThan(deadline);
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  // ---- DynamoDB ----

  private static AttributeValue s(String v) {
    return AttributeValue.fromS(v);
  }

  private static AttributeValue n(String v) {
    return AttributeValue.fromN(v);
  }

  private static AttributeDefinition def(String name, ScalarAttributeType type) {
    return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
  }

  private static KeySchemaElement key(String name, KeyType type) {
    return KeySchemaElement.builder().attributeName(name).keyType(type).build();
  }

  /** A table keyed by shop (S) and sku (S), with the global index byCategory (category, price). */
  private void products(String table) {
    dynamo.createTable(
        b ->
            b.tableName(table)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                    def("shop", ScalarAttributeType.S),
                    def("sku", ScalarAttributeType.S),
                    def("category", ScalarAttributeType.S),
                    def("price", ScalarAttributeType.N))
                .keySchema(key("shop", KeyType.HASH), key("sku", KeyType.RANGE))
                .globalSecondaryIndexes(
                    g ->
                        g.indexName("byCategory")
                            .keySchema(key("category", KeyType.HASH), key("price", KeyType.RANGE))
                            .projection(p -> p.projectionType(ProjectionType.ALL))));
  }

  private void putProduct(String table, String sku, String category, String price) {
    dynamo.putItem(
        b ->
            b.tableName(table)
                .item(
                    Map.of(
                        "shop", s("acme"),
                        "sku", s(sku),
                        "category", s(category),
                        "price", n(price))));
  }

  // ---- DynamoDB to native ----

  @Test
  void anItemWrittenThroughDynamoDbReadsThroughTheNativeApiWithTheDocumentedValues() {
    products("Products");
    Map<String, AttributeValue> item = new LinkedHashMap<>();
    item.put("shop", s("acme"));
    item.put("sku", s("p 1"));
    item.put("price", n("12.50"));
    item.put("big", n("12345678901234567890123456789012345678"));
    item.put("name", s("Hammer"));
    item.put("inStock", AttributeValue.fromBool(true));
    item.put("discontinued", AttributeValue.fromNul(true));
    item.put("photo", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {0, 1, (byte) 255})));
    item.put("tags", AttributeValue.fromSs(List.of("tools", "steel")));
    item.put("sizes", AttributeValue.fromNs(List.of("1", "2.5")));
    item.put("dims", AttributeValue.fromM(Map.of("w", n("3"), "$SS", s("not a set"))));
    item.put("parts", AttributeValue.fromL(List.of(s("head"), n("2"))));
    item.put("id", s("an attribute named id"));
    item.put("_note", s("an attribute starting with _"));
    dynamo.putItem(b -> b.tableName("Products").item(item));

    JsonNode read = get("/v1/tables/Products/items/acme/" + enc("p 1"));

    assertThat(read.get("partitionKey").asText()).isEqualTo("acme");
    assertThat(read.get("id").asText()).isEqualTo("p 1");
    assertThat(read.get("shop").asText()).as("key attributes are properties too").isEqualTo("acme");
    assertThat(read.get("sku").asText()).isEqualTo("p 1");
    assertThat(read.get("price").asText()).isEqualTo("12.5");
    assertThat(read.get("price@odata.type").asText()).isEqualTo("Edm.Decimal");
    assertThat(read.get("big").asText()).isEqualTo("12345678901234567890123456789012345678");
    assertThat(read.get("big@odata.type").asText()).isEqualTo("Edm.Decimal");
    assertThat(read.get("name").asText()).isEqualTo("Hammer");
    assertThat(read.get("inStock").isBoolean()).isTrue();
    assertThat(read.get("discontinued").isNull()).isTrue();
    assertThat(read.get("photo").asText()).isEqualTo("AAH/");
    assertThat(read.get("photo@odata.type").asText()).isEqualTo("Edm.Binary");
    assertThat(read.get("tags").toString()).isEqualTo("{\"$SS\":[\"tools\",\"steel\"]}");
    assertThat(read.get("sizes").get("$NS").size()).isEqualTo(2);
    assertThat(read.get("dims").get("w").asText()).isEqualTo("3");
    assertThat(read.get("dims").get("$$SS").asText())
        .as("a map member named like a set marker gets one more '$'")
        .isEqualTo("not a set");
    assertThat(read.get("parts").get(0).asText()).isEqualTo("head");
    assertThat(read.get("$id").asText()).isEqualTo("an attribute named id");
    assertThat(read.get("$_note").asText()).isEqualTo("an attribute starting with _");
  }

  @Test
  void anIndexIsAViewThatTheNativeApiReadsInTheIndexOrder() {
    products("Catalog");
    putProduct("Catalog", "saw", "tools", "20");
    putProduct("Catalog", "drill", "tools", "9.5");
    putProduct("Catalog", "glue", "supplies", "3");

    JsonNode view = get("/v1/views/CatalogByCategory");
    assertThat(view.get("source").asText()).isEqualTo("Catalog");
    assertThat(view.get("state").asText()).isEqualTo("ready");
    JsonNode tools = get("/v1/tables/CatalogByCategory/items/tools");

    assertThat(tools.get("items")).hasSize(2);
    assertThat(tools.get("items").get(0).get("sku").asText()).as("by price").isEqualTo("drill");
    assertThat(tools.get("items").get(1).get("sku").asText()).isEqualTo("saw");
    assertThat(tools.get("items").get(0).get("_sourcePartitionKey").asText()).isEqualTo("acme");
    assertThat(tools.get("items").get(0).get("_sourceId").asText()).isEqualTo("drill");
  }

  @Test
  void aNativeFilterSelectsOnADynamoDbAttribute() {
    products("Stock");
    putProduct("Stock", "saw", "tools", "20");
    putProduct("Stock", "drill", "tools", "9.5");
    putProduct("Stock", "lathe", "machines", "1000");
    putProduct("Stock", "file", "tools", "10");

    JsonNode over10 = get("/v1/tables/Stock/items?filter=" + enc("price gt 10"));
    JsonNode cheapTools =
        get("/v1/tables/Stock/items?filter=" + enc("category eq 'tools' and price le 10.0M"));

    assertThat(ids(over10)).containsExactly("lathe", "saw");
    assertThat(ids(cheapTools)).containsExactly("drill", "file");
  }

  // ---- native to DynamoDB ----

  @Test
  void anItemWrittenThroughTheNativeApiReadsThroughDynamoDbAsTheNearestValues() {
    products("Shelf");
    String body =
        """
        {"shop": "acme", "sku": "n1",
         "count": 5,
         "big": "9007199254740993", "big@odata.type": "Edm.Int64",
         "ratio": 1.5,
         "exact": "12.50", "exact@odata.type": "Edm.Decimal",
         "when": "2026-11-30T12:00:00.1234567Z", "when@odata.type": "Edm.DateTime",
         "ref": "C9DA6455-213D-42C9-9A79-3E9149A57833", "ref@odata.type": "Edm.Guid",
         "photo": "AAH/", "photo@odata.type": "Edm.Binary",
         "inStock": true, "discontinued": null,
         "dims": {"w": 3, "unit": "cm"}, "parts": ["head", 2]}
        """;
    Answer put = call("PUT", "/v1/tables/Shelf/items/acme/n1", body);
    assertThat(put.status()).as("%s", put.body()).isEqualTo(200);

    Map<String, AttributeValue> read =
        dynamo
            .getItem(b -> b.tableName("Shelf").key(Map.of("shop", s("acme"), "sku", s("n1"))))
            .item();

    assertThat(read)
        .containsEntry("shop", s("acme"))
        .containsEntry("sku", s("n1"))
        .containsEntry("count", n("5"))
        .containsEntry("big", n("9007199254740993"))
        .containsEntry("ratio", n("1.5"))
        .containsEntry("exact", n("12.5"))
        .containsEntry("when", s("2026-11-30T12:00:00.1234567Z"))
        .containsEntry("ref", s("c9da6455-213d-42c9-9a79-3e9149a57833"))
        .containsEntry(
            "photo", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {0, 1, (byte) 255})))
        .containsEntry("inStock", AttributeValue.fromBool(true))
        .containsEntry("discontinued", AttributeValue.fromNul(true))
        .containsEntry("dims", AttributeValue.fromM(Map.of("w", n("3"), "unit", s("cm"))))
        .containsEntry("parts", AttributeValue.fromL(List.of(s("head"), n("2"))));
    assertThat(read.keySet()).noneMatch(name -> name.startsWith("_")).doesNotContain("$etag");
  }

  // ---- uniqueness through a native view ----

  /** A table of users keyed by userId (S) alone, with a unique native view on their email. */
  private void usersWithUniqueEmails(String table, String view) {
    dynamo.createTable(
        b ->
            b.tableName(table)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(def("userId", ScalarAttributeType.S))
                .keySchema(key("userId", KeyType.HASH)));
    Answer created =
        call(
            "PUT",
            "/v1/views/" + view,
            "{\"source\": \"" + table + "\", \"partitionBy\": \"{email}\", \"idBy\": \"{email}\"}");
    assertThat(created.status()).as("%s", created.body()).isIn(201, 202);
    awaitReady(view);
  }

  private Map<String, AttributeValue> user(String id, String email) {
    return Map.of("userId", s(id), "email", s(email));
  }

  private boolean exists(String table, String id) {
    return dynamo.getItem(b -> b.tableName(table).key(Map.of("userId", s(id)))).hasItem();
  }

  @Test
  void aUniqueNativeViewRefusesADynamoDbPutOfASecondItemWithTheSameEmail() {
    usersWithUniqueEmails("Users", "UsersByEmail");
    dynamo.putItem(b -> b.tableName("Users").item(user("u1", "ann@example.com")));

    assertThatThrownBy(
            () -> dynamo.putItem(b -> b.tableName("Users").item(user("u2", "ann@example.com"))))
        .isInstanceOfSatisfying(
            DynamoDbException.class,
            e -> {
              assertThat(e.statusCode()).isEqualTo(400);
              assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
              assertThat(e.awsErrorDetails().errorMessage())
                  .startsWith("Another item already has this key in a unique view")
                  .contains("view: UsersByEmail", "conflictingPartitionKey: u1");
            });
    assertThat(exists("Users", "u2")).as("nothing written").isFalse();
    JsonNode holder = get("/v1/tables/UsersByEmail/items/" + enc("ann@example.com"));
    assertThat(ids(holder)).containsExactly("ann@example.com");
    assertThat(holder.get("items").get(0).get("userId").asText()).isEqualTo("u1");
    assertThat(dynamo.describeTable(b -> b.tableName("Users")).table().hasGlobalSecondaryIndexes())
        .as("the view is no DynamoDB index")
        .isFalse();
    assertThatThrownBy(
            () ->
                dynamo.query(
                    b ->
                        b.tableName("Users")
                            .indexName("UsersByEmail")
                            .keyConditionExpression("email = :e")
                            .expressionAttributeValues(Map.of(":e", s("ann@example.com")))))
        .isInstanceOfSatisfying(
            DynamoDbException.class,
            e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException"));
  }

  @Test
  void everyDynamoDbWriteObeysTheUniqueViewAndAFreedEmailCanBeTaken() {
    usersWithUniqueEmails("Members", "MembersByEmail");
    dynamo.putItem(b -> b.tableName("Members").item(user("u1", "ann@example.com")));
    dynamo.putItem(b -> b.tableName("Members").item(user("u2", "bob@example.com")));
    // an item keeps its own email through a rewrite
    dynamo.putItem(
        b ->
            b.tableName("Members")
                .item(Map.of("userId", s("u1"), "email", s("ann@example.com"), "name", s("Ann"))));

    List<Runnable> refused =
        List.of(
            () ->
                dynamo.updateItem(
                    b ->
                        b.tableName("Members")
                            .key(Map.of("userId", s("u2")))
                            .updateExpression("SET email = :e")
                            .expressionAttributeValues(Map.of(":e", s("ann@example.com")))),
            () ->
                dynamo.putItem(
                    b ->
                        b.tableName("Members")
                            .item(user("u3", "ann@example.com"))
                            .conditionExpression("attribute_not_exists(userId)")),
            () ->
                dynamo.batchWriteItem(
                    b ->
                        b.requestItems(
                            Map.of(
                                "Members",
                                List.of(
                                    put(user("u4", "cy@example.com")),
                                    put(user("u5", "cy@example.com")))))),
            () ->
                dynamo.transactWriteItems(
                    b ->
                        b.transactItems(
                            TransactWriteItem.builder()
                                .put(
                                    p -> p.tableName("Members").item(user("u6", "dee@example.com")))
                                .build(),
                            TransactWriteItem.builder()
                                .put(
                                    p -> p.tableName("Members").item(user("u7", "bob@example.com")))
                                .build())));
    for (Runnable write : refused) {
      assertThatThrownBy(write::run)
          .isInstanceOfSatisfying(
              DynamoDbException.class,
              e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException"));
    }
    for (String id : List.of("u3", "u4", "u5", "u6", "u7")) {
      assertThat(exists("Members", id)).as("%s not written", id).isFalse();
    }
    assertThat(
            dynamo
                .getItem(b -> b.tableName("Members").key(Map.of("userId", s("u2"))))
                .item()
                .get("email"))
        .isEqualTo(s("bob@example.com"));

    dynamo.deleteItem(b -> b.tableName("Members").key(Map.of("userId", s("u1"))));
    dynamo.putItem(b -> b.tableName("Members").item(user("u3", "ann@example.com")));
    assertThat(exists("Members", "u3")).isTrue();
  }

  @Test
  void deletingTheDynamoDbTableDropsTheNativeViewOnIt() {
    usersWithUniqueEmails("Accounts", "AccountsByEmail");

    dynamo.deleteTable(b -> b.tableName("Accounts"));

    assertThat(call("GET", "/v1/views/AccountsByEmail", null).status()).isEqualTo(404);
  }

  private static WriteRequest put(Map<String, AttributeValue> item) {
    return WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build();
  }
}
