package io.viewbase.server.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.Database;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The item operations through the AWS SDK for Java v2, unchanged, against a real server on a
 * socket: every type round-tripped, conditions, updates, queries on the table and on its indexes
 * right after each write, scans by segment, paging, batches and transactions. Subclasses choose the
 * storage backend: memory and RocksDB here, Cassandra in viewbase-cassandra-it (hence public).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class DynamoDbItemsContract {
  private Database db;
  private DynamoDbServer server;
  private DynamoDbClient client;
  private final AtomicInteger tables = new AtomicInteger();

  /** The database to serve, in {@code dir} if it keeps files (a fresh one per test class). */
  protected abstract Database open(Path dir);

  @BeforeAll
  void start(@TempDir Path dir) {
    db = open(dir);
    server = DynamoDbServer.start(db, DynamoDbOptions.defaults().withPort(0));
    client =
        DynamoDbClient.builder()
            .endpointOverride(URI.create("http://127.0.0.1:" + server.port()))
            .region(Region.US_EAST_1)
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(
                        DynamoDbOptions.LOCAL_KEY_ID, DynamoDbOptions.LOCAL_SECRET)))
            .httpClient(UrlConnectionHttpClient.create())
            .build();
  }

  @AfterAll
  void stop() {
    client.close();
    server.close();
    db.close();
  }

  private static AttributeValue s(String v) {
    return AttributeValue.fromS(v);
  }

  private static AttributeValue n(String v) {
    return AttributeValue.fromN(v);
  }

  /** A table keyed by pk (S) and sk (N), with a global index by (g S, gn N) and a local one. */
  private String table() {
    String name = "items-" + tables.incrementAndGet() + "_t";
    client.createTable(
        b ->
            b.tableName(name)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                    AttributeDefinition.builder()
                        .attributeName("pk")
                        .attributeType(ScalarAttributeType.S)
                        .build(),
                    AttributeDefinition.builder()
                        .attributeName("sk")
                        .attributeType(ScalarAttributeType.N)
                        .build(),
                    AttributeDefinition.builder()
                        .attributeName("g")
                        .attributeType(ScalarAttributeType.S)
                        .build(),
                    AttributeDefinition.builder()
                        .attributeName("gn")
                        .attributeType(ScalarAttributeType.N)
                        .build(),
                    AttributeDefinition.builder()
                        .attributeName("ls")
                        .attributeType(ScalarAttributeType.S)
                        .build())
                .keySchema(
                    KeySchemaElement.builder().attributeName("pk").keyType(KeyType.HASH).build(),
                    KeySchemaElement.builder().attributeName("sk").keyType(KeyType.RANGE).build())
                .globalSecondaryIndexes(
                    GlobalSecondaryIndex.builder()
                        .indexName("byG")
                        .keySchema(
                            KeySchemaElement.builder()
                                .attributeName("g")
                                .keyType(KeyType.HASH)
                                .build(),
                            KeySchemaElement.builder()
                                .attributeName("gn")
                                .keyType(KeyType.RANGE)
                                .build())
                        .projection(Projection.builder().projectionType(ProjectionType.ALL).build())
                        .build())
                .localSecondaryIndexes(
                    LocalSecondaryIndex.builder()
                        .indexName("byLs")
                        .keySchema(
                            KeySchemaElement.builder()
                                .attributeName("pk")
                                .keyType(KeyType.HASH)
                                .build(),
                            KeySchemaElement.builder()
                                .attributeName("ls")
                                .keyType(KeyType.RANGE)
                                .build())
                        .projection(
                            Projection.builder().projectionType(ProjectionType.KEYS_ONLY).build())
                        .build()));
    return name;
  }

  private Map<String, AttributeValue> item(String pk, String sk, Object... more) {
    Map<String, AttributeValue> item = new LinkedHashMap<>();
    item.put("pk", s(pk));
    item.put("sk", n(sk));
    for (int i = 0; i < more.length; i += 2) {
      item.put((String) more[i], (AttributeValue) more[i + 1]);
    }
    return item;
  }

  private Map<String, AttributeValue> key(String pk, String sk) {
    return Map.of("pk", s(pk), "sk", n(sk));
  }

  @Test
  void everyTypeRoundTripsExactly() {
    String t = table();
    Map<String, AttributeValue> item =
        item(
            "p",
            "1",
            "s",
            s("text ü \uD83D\uDE00"),
            "n",
            n("12345678901234567890123456789012345678"),
            "tiny",
            n("-0.000000000000000000000000000000000001"),
            "b",
            AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {0, 1, (byte) 255})),
            "yes",
            AttributeValue.fromBool(true),
            "nothing",
            AttributeValue.fromNul(true),
            "m",
            AttributeValue.fromM(
                Map.of(
                    "inner", s("x"), "$SS", n("1"), "deep", AttributeValue.fromL(List.of(n("2"))))),
            "l",
            AttributeValue.fromL(List.of(s("a"), n("3"), AttributeValue.fromBool(false))),
            "ss",
            AttributeValue.fromSs(List.of("a", "b")),
            "ns",
            AttributeValue.fromNs(List.of("1", "2.5")),
            "bs",
            AttributeValue.fromBs(
                List.of(SdkBytes.fromUtf8String("x"), SdkBytes.fromUtf8String("y"))),
            "id",
            s("an attribute named id"),
            "_private",
            s("an attribute starting with _"));
    client.putItem(b -> b.tableName(t).item(item));
    Map<String, AttributeValue> read =
        client.getItem(b -> b.tableName(t).key(key("p", "1"))).item();
    assertThat(read).isEqualTo(item);
  }

  @Test
  void numbersAreReturnedInDynamoDbsCanonicalForm() {
    String t = table();
    client.putItem(b -> b.tableName(t).item(item("p", "1.50", "x", n("1E+2"), "y", n("-0"))));
    Map<String, AttributeValue> read =
        client.getItem(b -> b.tableName(t).key(key("p", "1.5"))).item();
    assertThat(read.get("sk").n()).isEqualTo("1.5");
    assertThat(read.get("x").n()).isEqualTo("100");
    assertThat(read.get("y").n()).isEqualTo("0");
  }

  @Test
  void conditionsDecideAtomicallyAndReturnTheOldItemOnFailure() {
    String t = table();
    client.putItem(
        b ->
            b.tableName(t)
                .item(item("p", "1", "v", n("1")))
                .conditionExpression("attribute_not_exists(pk)"));
    assertThatThrownBy(
            () ->
                client.putItem(
                    b ->
                        b.tableName(t)
                            .item(item("p", "1", "v", n("2")))
                            .conditionExpression("attribute_not_exists(pk)")
                            .returnValuesOnConditionCheckFailure(
                                ReturnValuesOnConditionCheckFailure.ALL_OLD)))
        .isInstanceOfSatisfying(
            ConditionalCheckFailedException.class,
            e -> assertThat(e.item()).containsEntry("v", n("1")));
    var old =
        client.putItem(
            b ->
                b.tableName(t)
                    .item(item("p", "1", "v", n("3")))
                    .conditionExpression("v = :one")
                    .expressionAttributeValues(Map.of(":one", n("1")))
                    .returnValues(ReturnValue.ALL_OLD));
    assertThat(old.attributes()).containsEntry("v", n("1"));
    // DynamoDB's delete of an absent item succeeds; a failed condition on it does not
    client.deleteItem(b -> b.tableName(t).key(key("nobody", "1")));
    assertThatThrownBy(
            () ->
                client.deleteItem(
                    b ->
                        b.tableName(t)
                            .key(key("nobody", "1"))
                            .conditionExpression("attribute_exists(pk)")))
        .isInstanceOf(ConditionalCheckFailedException.class);
  }

  @Test
  void updatesApplyExpressionsAndReturnWhatWasAsked() {
    String t = table();
    var created =
        client.updateItem(
            b ->
                b.tableName(t)
                    .key(key("p", "1"))
                    .updateExpression(
                        "SET #c = if_not_exists(#c, :zero) + :one, tags = :tags, l = :l ADD hits :one")
                    .expressionAttributeNames(Map.of("#c", "count"))
                    .expressionAttributeValues(
                        Map.of(
                            ":zero", n("0"),
                            ":one", n("1"),
                            ":tags", AttributeValue.fromSs(List.of("x")),
                            ":l", AttributeValue.fromL(List.of(s("a")))))
                    .returnValues(ReturnValue.ALL_NEW));
    assertThat(created.attributes())
        .containsEntry("count", n("1"))
        .containsEntry("hits", n("1"))
        .containsEntry("pk", s("p"));
    var updated =
        client.updateItem(
            b ->
                b.tableName(t)
                    .key(key("p", "1"))
                    .updateExpression(
                        "SET #c = #c + :one, l = list_append(l, :more) REMOVE hits DELETE tags :x")
                    .expressionAttributeNames(Map.of("#c", "count"))
                    .expressionAttributeValues(
                        Map.of(
                            ":one", n("1"),
                            ":more", AttributeValue.fromL(List.of(s("b"))),
                            ":x", AttributeValue.fromSs(List.of("x"))))
                    .returnValues(ReturnValue.UPDATED_OLD));
    assertThat(updated.attributes()).containsEntry("count", n("1")).containsKey("hits");
    Map<String, AttributeValue> now = client.getItem(b -> b.tableName(t).key(key("p", "1"))).item();
    assertThat(now.get("count")).isEqualTo(n("2"));
    assertThat(now.get("l").l()).containsExactly(s("a"), s("b"));
    assertThat(now).doesNotContainKeys("hits", "tags");
    assertThatThrownBy(
            () ->
                client.updateItem(
                    b ->
                        b.tableName(t)
                            .key(key("p", "1"))
                            .updateExpression("SET pk = :v")
                            .expressionAttributeValues(Map.of(":v", s("other")))))
        .isInstanceOf(DynamoDbException.class)
        .hasMessageContaining("part of the key");
  }

  @Test
  void queriesReadASortKeyRangeInNumericOrderWithPaging() {
    String t = table();
    String[] numbers = {"-10", "-1.5", "0", "0.25", "2", "10", "100", "1E+3"};
    for (String x : numbers) {
      client.putItem(b -> b.tableName(t).item(item("p", x, "even", AttributeValue.fromBool(true))));
    }
    client.putItem(b -> b.tableName(t).item(item("other", "5")));
    QueryResponse all =
        client.query(
            b ->
                b.tableName(t)
                    .keyConditionExpression("pk = :p")
                    .expressionAttributeValues(Map.of(":p", s("p"))));
    assertThat(all.items())
        .extracting(i -> i.get("sk").n())
        .containsExactly("-10", "-1.5", "0", "0.25", "2", "10", "100", "1000");
    QueryResponse between =
        client.query(
            b ->
                b.tableName(t)
                    .keyConditionExpression("pk = :p AND sk BETWEEN :a AND :b")
                    .expressionAttributeValues(Map.of(":p", s("p"), ":a", n("-1.5"), ":b", n("10")))
                    .scanIndexForward(false));
    assertThat(between.items())
        .extracting(i -> i.get("sk").n())
        .containsExactly("10", "2", "0.25", "0", "-1.5");
    List<String> paged = new ArrayList<>();
    Map<String, AttributeValue> start = null;
    int pages = 0;
    do {
      Map<String, AttributeValue> from = start;
      QueryResponse page =
          client.query(
              b ->
                  b.tableName(t)
                      .keyConditionExpression("pk = :p AND sk > :z")
                      .expressionAttributeValues(Map.of(":p", s("p"), ":z", n("0")))
                      .limit(2)
                      .exclusiveStartKey(from));
      page.items().forEach(i -> paged.add(i.get("sk").n()));
      start =
          page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
              ? page.lastEvaluatedKey()
              : null;
      pages++;
    } while (start != null);
    assertThat(paged).containsExactly("0.25", "2", "10", "100", "1000");
    assertThat(pages).isBetween(3, 4);
  }

  @Test
  void aGlobalIndexAnswersRightAfterEachWriteAndIsSparse() {
    String t = table();
    for (int i = 0; i < 20; i++) {
      String x = Integer.toString(i);
      String parity = i % 2 == 0 ? "even" : "odd";
      client.putItem(
          b -> b.tableName(t).item(item("p" + x, "1", "g", s(parity), "gn", n("-" + x))));
      QueryResponse q =
          client.query(
              b ->
                  b.tableName(t)
                      .indexName("byG")
                      .keyConditionExpression("g = :g")
                      .expressionAttributeValues(Map.of(":g", s(parity))));
      assertThat(q.items()).anySatisfy(item -> assertThat(item.get("pk")).isEqualTo(s("p" + x)));
    }
    client.putItem(b -> b.tableName(t).item(item("sparse", "1"))); // no g: not in the index
    QueryResponse even =
        client.query(
            b ->
                b.tableName(t)
                    .indexName("byG")
                    .keyConditionExpression("g = :g AND gn < :n")
                    .expressionAttributeValues(Map.of(":g", s("even"), ":n", n("-10"))));
    assertThat(even.items())
        .extracting(i -> i.get("gn").n())
        .containsExactly("-18", "-16", "-14", "-12");
    ScanResponse scan = client.scan(b -> b.tableName(t).indexName("byG"));
    assertThat(scan.items()).hasSize(20);
    client.deleteItem(b -> b.tableName(t).key(key("p0", "1")));
    QueryResponse after =
        client.query(
            b ->
                b.tableName(t)
                    .indexName("byG")
                    .keyConditionExpression("g = :g AND gn = :n")
                    .expressionAttributeValues(Map.of(":g", s("even"), ":n", n("0"))));
    assertThat(after.items()).isEmpty();
  }

  @Test
  void aLocalIndexOrdersAPartitionByAnotherAttribute() {
    String t = table();
    client.putItem(b -> b.tableName(t).item(item("p", "1", "ls", s("c"))));
    client.putItem(b -> b.tableName(t).item(item("p", "2", "ls", s("a"))));
    client.putItem(b -> b.tableName(t).item(item("p", "3", "ls", s("b"), "other", s("x"))));
    QueryResponse ordered =
        client.query(
            b ->
                b.tableName(t)
                    .indexName("byLs")
                    .keyConditionExpression("pk = :p")
                    .expressionAttributeValues(Map.of(":p", s("p"))));
    assertThat(ordered.items()).extracting(i -> i.get("sk").n()).containsExactly("2", "3", "1");
    // KEYS_ONLY: the table's and the index's keys, nothing else
    assertThat(ordered.items().get(1)).containsOnlyKeys("pk", "sk", "ls");
    QueryResponse prefixed =
        client.query(
            b ->
                b.tableName(t)
                    .indexName("byLs")
                    .keyConditionExpression("pk = :p AND begins_with(ls, :x)")
                    .expressionAttributeValues(Map.of(":p", s("p"), ":x", s("b"))));
    assertThat(prefixed.items()).extracting(i -> i.get("sk").n()).containsExactly("3");
    QueryResponse whole =
        client.query(
            b ->
                b.tableName(t)
                    .indexName("byLs")
                    .select("ALL_ATTRIBUTES")
                    .keyConditionExpression("pk = :p AND ls = :x")
                    .expressionAttributeValues(Map.of(":p", s("p"), ":x", s("b"))));
    assertThat(whole.items().get(0)).containsEntry("other", s("x"));
  }

  @Test
  void scanSegmentsTogetherReadEveryItemOnce() {
    String t = table();
    for (int i = 0; i < 60; i++) {
      String x = Integer.toString(i);
      client.putItem(b -> b.tableName(t).item(item("p" + x, x)));
    }
    Set<String> seen = new HashSet<>();
    int total = 0;
    for (int segment = 0; segment < 4; segment++) {
      int seg = segment;
      Map<String, AttributeValue> start = null;
      do {
        Map<String, AttributeValue> from = start;
        ScanResponse page =
            client.scan(
                b -> b.tableName(t).segment(seg).totalSegments(4).limit(7).exclusiveStartKey(from));
        for (var item : page.items()) {
          seen.add(item.get("pk").s());
          total++;
        }
        start =
            page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
                ? page.lastEvaluatedKey()
                : null;
      } while (start != null);
    }
    assertThat(total).isEqualTo(60);
    assertThat(seen).hasSize(60);
  }

  @Test
  void batchesWriteAndReadManyItems() {
    String t = table();
    List<WriteRequest> writes = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      Map<String, AttributeValue> item = item("b", Integer.toString(i));
      writes.add(
          WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build());
    }
    var written = client.batchWriteItem(b -> b.requestItems(Map.of(t, writes)));
    assertThat(written.unprocessedItems()).isEmpty();
    List<Map<String, AttributeValue>> keys = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      keys.add(key("b", Integer.toString(i)));
    }
    var read =
        client.batchGetItem(
            b -> b.requestItems(Map.of(t, KeysAndAttributes.builder().keys(keys).build())));
    assertThat(read.responses().get(t)).hasSize(25);
  }

  @Test
  void transactionsCommitAllOrNothingWithReasonsPerAction() {
    String t = table();
    client.putItem(b -> b.tableName(t).item(item("acct", "1", "balance", n("100"))));
    client.transactWriteItems(
        b ->
            b.transactItems(
                TransactWriteItem.builder()
                    .update(
                        u ->
                            u.tableName(t)
                                .key(key("acct", "1"))
                                .updateExpression("SET balance = balance - :x")
                                .conditionExpression("balance >= :x")
                                .expressionAttributeValues(Map.of(":x", n("30"))))
                    .build(),
                TransactWriteItem.builder()
                    .put(p -> p.tableName(t).item(item("acct", "2", "balance", n("30"))))
                    .build()));
    assertThat(client.getItem(b -> b.tableName(t).key(key("acct", "1"))).item().get("balance"))
        .isEqualTo(n("70"));
    assertThatThrownBy(
            () ->
                client.transactWriteItems(
                    b ->
                        b.transactItems(
                            TransactWriteItem.builder()
                                .put(p -> p.tableName(t).item(item("acct", "3")))
                                .build(),
                            TransactWriteItem.builder()
                                .conditionCheck(
                                    c ->
                                        c.tableName(t)
                                            .key(key("acct", "1"))
                                            .conditionExpression("balance > :x")
                                            .expressionAttributeValues(Map.of(":x", n("1000"))))
                                .build())))
        .isInstanceOfSatisfying(
            TransactionCanceledException.class,
            e ->
                assertThat(e.cancellationReasons())
                    .extracting(CancellationReason::code)
                    .containsExactly("None", "ConditionalCheckFailed"));
    assertThat(client.getItem(b -> b.tableName(t).key(key("acct", "3"))).hasItem()).isFalse();
    String token = UUID.randomUUID().toString();
    for (int i = 0; i < 2; i++) {
      client.transactWriteItems(
          b ->
              b.clientRequestToken(token)
                  .transactItems(
                      TransactWriteItem.builder()
                          .update(
                              u ->
                                  u.tableName(t)
                                      .key(key("acct", "2"))
                                      .updateExpression("SET balance = balance + :x")
                                      .expressionAttributeValues(Map.of(":x", n("1"))))
                          .build()));
    }
    assertThat(client.getItem(b -> b.tableName(t).key(key("acct", "2"))).item().get("balance"))
        .isEqualTo(n("31"));
    var got =
        client.transactGetItems(
            b ->
                b.transactItems(
                    g -> g.get(x -> x.tableName(t).key(key("acct", "1"))),
                    g -> g.get(x -> x.tableName(t).key(key("acct", "9")))));
    assertThat(got.responses().get(0).item().get("balance")).isEqualTo(n("70"));
    assertThat(got.responses().get(1).hasItem()).isFalse();
  }

  @Test
  void concurrentConditionalIncrementsLoseNothing() throws Exception {
    String t = table();
    int clients = 16;
    int each = 20;
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(clients);
    List<java.util.concurrent.Future<?>> done = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      done.add(
          pool.submit(
              () -> {
                for (int i = 0; i < each; i++) {
                  client.updateItem(
                      b ->
                          b.tableName(t)
                              .key(key("counter", "1"))
                              .updateExpression("ADD hits :one SET touched = :yes")
                              .conditionExpression("attribute_not_exists(locked)")
                              .expressionAttributeValues(
                                  Map.of(":one", n("1"), ":yes", AttributeValue.fromBool(true))));
                }
              }));
    }
    for (var f : done) {
      f.get();
    }
    pool.shutdown();
    assertThat(client.getItem(b -> b.tableName(t).key(key("counter", "1"))).item().get("hits"))
        .isEqualTo(n(Integer.toString(clients * each)));
  }

  /**
   * DynamoDB does not look ahead: a page that stops at Limit carries a LastEvaluatedKey even when
   * no item follows, and the next page is empty without one; a page that ends because the items ran
   * out, before Limit, has none. Clients that page to the end (ElectroDB's {@code pages: "all"},
   * the CLI) make that one more request on DynamoDB, so they must here too.
   */
  @Test
  void aPageStoppedByLimitAtTheLastItemStillCarriesALastEvaluatedKey() {
    String t = table();
    for (int i = 0; i < 4; i++) {
      String x = Integer.toString(i);
      client.putItem(b -> b.tableName(t).item(item("p", x, "g", s("g"), "gn", n(x))));
    }
    QueryResponse full =
        client.query(
            b ->
                b.tableName(t)
                    .keyConditionExpression("pk = :p")
                    .expressionAttributeValues(Map.of(":p", s("p")))
                    .limit(4));
    assertThat(full.items()).hasSize(4);
    assertThat(full.lastEvaluatedKey()).isEqualTo(key("p", "3"));
    QueryResponse after =
        client.query(
            b ->
                b.tableName(t)
                    .keyConditionExpression("pk = :p")
                    .expressionAttributeValues(Map.of(":p", s("p")))
                    .limit(4)
                    .exclusiveStartKey(full.lastEvaluatedKey()));
    assertThat(after.items()).isEmpty();
    assertThat(after.hasLastEvaluatedKey()).isFalse();
    QueryResponse under =
        client.query(
            b ->
                b.tableName(t)
                    .keyConditionExpression("pk = :p")
                    .expressionAttributeValues(Map.of(":p", s("p")))
                    .limit(5));
    assertThat(under.items()).hasSize(4);
    assertThat(under.hasLastEvaluatedKey()).isFalse();
    QueryResponse index =
        client.query(
            b ->
                b.tableName(t)
                    .indexName("byG")
                    .keyConditionExpression("g = :g")
                    .expressionAttributeValues(Map.of(":g", s("g")))
                    .limit(4));
    assertThat(index.lastEvaluatedKey())
        .isEqualTo(Map.of("pk", s("p"), "sk", n("3"), "g", s("g"), "gn", n("3")));
    ScanResponse scan = client.scan(b -> b.tableName(t).limit(4));
    assertThat(scan.items()).hasSize(4);
    assertThat(scan.lastEvaluatedKey()).isEqualTo(key("p", "3"));
    assertThat(client.scan(b -> b.tableName(t).limit(5)).hasLastEvaluatedKey()).isFalse();
  }

  /**
   * A Query's filter may not read the key attributes of the table or index it queries (they belong
   * in its key condition): DynamoDB refuses it, and so must Viewbase, or a program that passes here
   * fails there. ElectroDB sends such a filter for a where clause on an index keyed by the entity's
   * own attributes (scenarios/electrodb-queries.js). A Scan's filter may read any attribute.
   */
  @Test
  void aQueryFilterOnAKeyAttributeOfTheTableOrIndexReadIsRefused() {
    String t = table();
    client.putItem(b -> b.tableName(t).item(item("p", "1", "g", s("g"), "gn", n("1"))));
    assertThatThrownBy(
            () ->
                client.query(
                    b ->
                        b.tableName(t)
                            .keyConditionExpression("pk = :p")
                            .filterExpression("sk > :z")
                            .expressionAttributeValues(Map.of(":p", s("p"), ":z", n("0")))))
        .isInstanceOf(DynamoDbException.class)
        .hasMessageStartingWith(
            "Filter Expression can only contain non-primary key attributes: Primary key"
                + " attribute: sk");
    assertThatThrownBy(
            () ->
                client.query(
                    b ->
                        b.tableName(t)
                            .indexName("byG")
                            .keyConditionExpression("g = :g")
                            .filterExpression("attribute_exists(extra) OR size(#g) > :z")
                            .expressionAttributeNames(Map.of("#g", "g"))
                            .expressionAttributeValues(Map.of(":g", s("g"), ":z", n("0")))))
        .isInstanceOf(DynamoDbException.class)
        .hasMessageStartingWith(
            "Filter Expression can only contain non-primary key attributes: Primary key"
                + " attribute: g");
    assertThatThrownBy(
            () ->
                client.query(
                    b ->
                        b.tableName(t)
                            .keyConditions(
                                Map.of(
                                    "pk",
                                    software.amazon.awssdk.services.dynamodb.model.Condition
                                        .builder()
                                        .comparisonOperator("EQ")
                                        .attributeValueList(s("p"))
                                        .build()))
                            .queryFilter(
                                Map.of(
                                    "pk",
                                    software.amazon.awssdk.services.dynamodb.model.Condition
                                        .builder()
                                        .comparisonOperator("NOT_NULL")
                                        .build()))))
        .isInstanceOf(DynamoDbException.class)
        .hasMessageStartingWith(
            "QueryFilter can only contain non-primary key attributes: Primary key attribute: pk");
    // the table's keys are ordinary attributes of a global index, and a scan filters on anything
    QueryResponse byIndex =
        client.query(
            b ->
                b.tableName(t)
                    .indexName("byG")
                    .keyConditionExpression("g = :g")
                    .filterExpression("sk = :one")
                    .expressionAttributeValues(Map.of(":g", s("g"), ":one", n("1"))));
    assertThat(byIndex.items()).hasSize(1);
    assertThat(
            client
                .scan(
                    b ->
                        b.tableName(t)
                            .filterExpression("pk = :p AND sk = :one")
                            .expressionAttributeValues(Map.of(":p", s("p"), ":one", n("1"))))
                .items())
        .hasSize(1);
  }

  // ---- A global index of a multi-attribute key ----

  /**
   * A table keyed by id (S) with a KEYS_ONLY global index "byTeam" whose partition key is (org S,
   * team S) and sort key (round N, player S), and an INCLUDE one "byOrg" of partition key org and
   * sort key (team, round): DynamoDB's multi-attribute keys.
   */
  private String teams() {
    String name = "teams-" + tables.incrementAndGet() + "_t";
    client.createTable(
        b ->
            b.tableName(name)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                    definition("id", ScalarAttributeType.S),
                    definition("org", ScalarAttributeType.S),
                    definition("team", ScalarAttributeType.S),
                    definition("round", ScalarAttributeType.N),
                    definition("player", ScalarAttributeType.S))
                .keySchema(schemaKey("id", KeyType.HASH))
                .globalSecondaryIndexes(
                    GlobalSecondaryIndex.builder()
                        .indexName("byTeam")
                        .keySchema(
                            schemaKey("org", KeyType.HASH),
                            schemaKey("team", KeyType.HASH),
                            schemaKey("round", KeyType.RANGE),
                            schemaKey("player", KeyType.RANGE))
                        .projection(
                            Projection.builder().projectionType(ProjectionType.KEYS_ONLY).build())
                        .build(),
                    GlobalSecondaryIndex.builder()
                        .indexName("byOrg")
                        .keySchema(
                            schemaKey("org", KeyType.HASH),
                            schemaKey("team", KeyType.RANGE),
                            schemaKey("round", KeyType.RANGE))
                        .projection(
                            Projection.builder()
                                .projectionType(ProjectionType.INCLUDE)
                                .nonKeyAttributes("extra")
                                .build())
                        .build()));
    return name;
  }

  private static AttributeDefinition definition(String name, ScalarAttributeType type) {
    return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
  }

  private static KeySchemaElement schemaKey(String name, KeyType type) {
    return KeySchemaElement.builder().attributeName(name).keyType(type).build();
  }

  /** A team member: attributes named and valued in pairs, those given as null left out. */
  private void putMember(String table, String id, String... attributes) {
    Map<String, AttributeValue> item = new LinkedHashMap<>();
    item.put("id", s(id));
    item.put("extra", s("not projected"));
    for (int i = 0; i < attributes.length; i += 2) {
      if (attributes[i + 1] != null) {
        String name = attributes[i];
        item.put(name, name.equals("round") ? n(attributes[i + 1]) : s(attributes[i + 1]));
      }
    }
    client.putItem(b -> b.tableName(table).item(item));
  }

  /**
   * Team (o, t) in index order, by round numerically then player: m4 (-1, cat), m6 (2, abe), m3 (2,
   * amy), m2 (2, bob), m5 (9.5, dan), m1 (10, ann); other partitions and members without every key
   * attribute besides.
   */
  private String teamsWithMembers() {
    String t = teams();
    putMember(t, "m1", "org", "o", "team", "t", "round", "10", "player", "ann");
    putMember(t, "m2", "org", "o", "team", "t", "round", "2", "player", "bob");
    putMember(t, "m3", "org", "o", "team", "t", "round", "2", "player", "amy");
    putMember(t, "m4", "org", "o", "team", "t", "round", "-1", "player", "cat");
    putMember(t, "m5", "org", "o", "team", "t", "round", "9.5", "player", "dan");
    putMember(t, "m6", "org", "o", "team", "t", "round", "2", "player", "abe");
    putMember(t, "other", "org", "o", "team", "u", "round", "2", "player", "zed");
    // (o, tt) and (ot, t) would collide if the partition key joined plain strings
    putMember(t, "o-tt", "org", "o", "team", "tt", "round", "1", "player", "x");
    putMember(t, "ot-t", "org", "ot", "team", "t", "round", "1", "player", "x");
    putMember(t, "noPlayer", "org", "o", "team", "t", "round", "3", "player", null);
    putMember(t, "noRound", "org", "o", "team", "t", "round", null, "player", "zoe");
    putMember(t, "noTeam", "org", "o", "team", null, "round", "3", "player", "eve");
    return t;
  }

  /** The ids a KeyConditionExpression on team (o, t) finds, in order. */
  private List<String> members(String table, String condition, Object... values) {
    return members(table, true, condition, values);
  }

  private List<String> members(String table, boolean forward, String condition, Object... values) {
    Map<String, AttributeValue> bound = new LinkedHashMap<>();
    bound.put(":o", s("o"));
    bound.put(":t", s("t"));
    for (int i = 0; i < values.length; i += 2) {
      bound.put((String) values[i], (AttributeValue) values[i + 1]);
    }
    return client
        .query(
            b ->
                b.tableName(table)
                    .indexName("byTeam")
                    .keyConditionExpression("org = :o AND team = :t" + condition)
                    .expressionAttributeValues(bound)
                    .scanIndexForward(forward))
        .items()
        .stream()
        .map(i -> i.get("id").s())
        .toList();
  }

  @Test
  void aMultiAttributeGlobalIndexHoldsOnlyItemsWithEveryKeyAttributeAndProjectsThemAll() {
    String t = teamsWithMembers();
    QueryResponse team =
        client.query(
            b ->
                b.tableName(t)
                    .indexName("byTeam")
                    .keyConditionExpression("org = :o AND team = :t")
                    .expressionAttributeValues(Map.of(":o", s("o"), ":t", s("t"))));
    assertThat(team.items())
        .extracting(i -> i.get("id").s())
        .containsExactly("m4", "m6", "m3", "m2", "m5", "m1");
    assertThat(team.items().get(0))
        .isEqualTo(
            Map.of(
                "id", s("m4"), "org", s("o"), "team", s("t"), "round", n("-1"), "player",
                s("cat")));
    assertThat(members(t, " AND round = :r", ":r", n("1"))).isEmpty();
    assertThat(
            client
                .query(
                    b ->
                        b.tableName(t)
                            .indexName("byTeam")
                            .keyConditionExpression("org = :o AND team = :t")
                            .expressionAttributeValues(Map.of(":o", s("o"), ":t", s("tt"))))
                .items())
        .extracting(i -> i.get("id").s())
        .containsExactly("o-tt");
    assertThat(client.scan(b -> b.tableName(t).indexName("byTeam")).items()).hasSize(9);
    // an item that loses a key attribute leaves the index; one that gains them all joins it
    putMember(t, "m1", "org", "o", "team", "t", "round", "10", "player", null);
    putMember(t, "noPlayer", "org", "o", "team", "t", "round", "3", "player", "al");
    assertThat(members(t, "")).containsExactly("m4", "m6", "m3", "m2", "noPlayer", "m5");
  }

  @Test
  void aMultiAttributeSortKeyAnswersEveryPrefixWithEachOperatorOnItsLastAttribute() {
    String t = teamsWithMembers();
    assertThat(members(t, "")).containsExactly("m4", "m6", "m3", "m2", "m5", "m1");
    assertThat(members(t, false, "")).containsExactly("m1", "m5", "m2", "m3", "m6", "m4");
    // the first sort key attribute, numbers in numeric order
    assertThat(members(t, " AND round = :r", ":r", n("2"))).containsExactly("m6", "m3", "m2");
    assertThat(members(t, " AND round < :r", ":r", n("2"))).containsExactly("m4");
    assertThat(members(t, " AND round <= :r", ":r", n("2")))
        .containsExactly("m4", "m6", "m3", "m2");
    assertThat(members(t, " AND round > :r", ":r", n("2"))).containsExactly("m5", "m1");
    assertThat(members(t, " AND round >= :r", ":r", n("9.5"))).containsExactly("m5", "m1");
    assertThat(members(t, " AND round BETWEEN :a AND :b", ":a", n("2"), ":b", n("9.5")))
        .containsExactly("m6", "m3", "m2", "m5");
    assertThat(members(t, false, " AND round BETWEEN :a AND :b", ":a", n("-1"), ":b", n("2")))
        .containsExactly("m2", "m3", "m6", "m4");
    // both, the first by equality
    String both = " AND round = :r AND player ";
    assertThat(members(t, both + "= :p", ":r", n("2"), ":p", s("amy"))).containsExactly("m3");
    assertThat(members(t, both + "< :p", ":r", n("2"), ":p", s("amy"))).containsExactly("m6");
    assertThat(members(t, both + "<= :p", ":r", n("2"), ":p", s("amy")))
        .containsExactly("m6", "m3");
    assertThat(members(t, both + "> :p", ":r", n("2"), ":p", s("amy"))).containsExactly("m2");
    assertThat(members(t, both + ">= :p", ":r", n("2"), ":p", s("amy")))
        .containsExactly("m3", "m2");
    assertThat(
            members(
                t,
                " AND round = :r AND player BETWEEN :a AND :b",
                ":r",
                n("2"),
                ":a",
                s("abe"),
                ":b",
                s("amy")))
        .containsExactly("m6", "m3");
    assertThat(
            members(t, " AND round = :r AND begins_with(player, :p)", ":r", n("2"), ":p", s("a")))
        .containsExactly("m6", "m3");
    assertThat(
            members(
                t,
                false,
                " AND begins_with(player, :p) AND round = :r",
                ":r",
                n("2"),
                ":p",
                s("a")))
        .containsExactly("m3", "m6");
    // nothing past the round fixed: a range on the last attribute stays within its prefix
    assertThat(members(t, both + "> :p", ":r", n("-1"), ":p", s("cat"))).isEmpty();
    // the legacy KeyConditions, by the same rules
    QueryResponse legacy =
        client.query(
            b ->
                b.tableName(t)
                    .indexName("byTeam")
                    .keyConditions(
                        Map.of(
                            "org", eq(s("o")),
                            "team", eq(s("t")),
                            "round", eq(n("2")),
                            "player",
                                software.amazon.awssdk.services.dynamodb.model.Condition.builder()
                                    .comparisonOperator("GT")
                                    .attributeValueList(s("abe"))
                                    .build())));
    assertThat(legacy.items()).extracting(i -> i.get("id").s()).containsExactly("m3", "m2");
  }

  private static software.amazon.awssdk.services.dynamodb.model.Condition eq(AttributeValue v) {
    return software.amazon.awssdk.services.dynamodb.model.Condition.builder()
        .comparisonOperator("EQ")
        .attributeValueList(v)
        .build();
  }

  private void assertQueryRefused(
      String table, String condition, String message, Object... values) {
    assertThatThrownBy(() -> members(table, condition, values))
        .isInstanceOfSatisfying(
            DynamoDbException.class,
            e -> {
              assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
              assertThat(e.awsErrorDetails().errorMessage()).isEqualTo(message);
            });
  }

  @Test
  void aMultiAttributeKeyConditionOfAnotherShapeIsRefusedAsDynamoDbRefusesIt() {
    String t = teams();
    String skipped =
        "RANGE key attributes round must have equality conditions specified in the query because"
            + " a condition is present on key attribute player";
    assertQueryRefused(t, " AND player = :p", skipped, ":p", s("amy"));
    assertQueryRefused(t, " AND round > :r AND player = :p", skipped, ":r", n("1"), ":p", s("a"));
    assertQueryRefused(
        t, " AND round BETWEEN :r AND :r AND player = :p", skipped, ":r", n("1"), ":p", s("a"));
    assertQueryRefused(
        t,
        " AND round = :r AND extra = :p",
        "Query key condition not supported",
        ":r",
        n("1"),
        ":p",
        s("a"));
    assertQueryRefused(
        t, " AND extra = :p", "Query condition missed key schema element: round", ":p", s("a"));
    assertQueryRefused(
        t,
        " AND begins_with(round, :r)",
        "Invalid KeyConditionExpression: Incorrect operand type for operator or function;"
            + " operator or function: begins_with, operand type: N",
        ":r",
        n("1"));
    assertQueryRefused(
        t,
        " AND round = :r",
        "One or more parameter values were invalid: Condition parameter type does not match"
            + " schema type",
        ":r",
        s("1"));
    assertQueryRefused(
        t,
        " AND round = :r AND round = :r",
        "KeyConditionExpressions must only contain one condition per key",
        ":r",
        n("1"));
    for (String condition : List.of("org = :o", "team = :t AND round = :r")) {
      assertThatThrownBy(
              () ->
                  client.query(
                      b ->
                          b.tableName(t)
                              .indexName("byTeam")
                              .keyConditionExpression(condition)
                              .expressionAttributeValues(
                                  condition.contains(":t")
                                      ? Map.of(":t", s("t"), ":r", n("1"))
                                      : Map.of(":o", s("o")))))
          .isInstanceOf(DynamoDbException.class)
          .hasMessageStartingWith(
              "Query condition missed key schema element: "
                  + (condition.contains(":t") ? "org" : "team"));
    }
    assertThatThrownBy(
            () ->
                client.query(
                    b ->
                        b.tableName(t)
                            .indexName("byTeam")
                            .keyConditionExpression("org = :o AND team > :t")
                            .expressionAttributeValues(Map.of(":o", s("o"), ":t", s("t")))))
        .isInstanceOf(DynamoDbException.class)
        .hasMessageStartingWith("Query key condition not supported");
    assertThatThrownBy(
            () ->
                client.query(
                    b ->
                        b.tableName(t)
                            .indexName("byTeam")
                            .keyConditions(
                                Map.of(
                                    "org", eq(s("o")), "team", eq(s("t")), "player", eq(s("a"))))))
        .isInstanceOf(DynamoDbException.class)
        .hasMessageStartingWith(skipped);
    assertThatThrownBy(
            () ->
                client.query(
                    b ->
                        b.tableName(t)
                            .indexName("byTeam")
                            .keyConditionExpression("org = :o AND team = :t")
                            .filterExpression("round > :r")
                            .expressionAttributeValues(
                                Map.of(":o", s("o"), ":t", s("t"), ":r", n("1")))))
        .isInstanceOf(DynamoDbException.class)
        .hasMessageStartingWith(
            "Filter Expression can only contain non-primary key attributes: Primary key"
                + " attribute: round");
  }

  @Test
  void aMultiAttributeIndexPagesWithLimitAndExclusiveStartKeyEitherWay() {
    String t = teamsWithMembers();
    for (boolean forward : List.of(true, false)) {
      for (String condition : List.of("", " AND round = :r", " AND round = :r AND player >= :p")) {
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        values.put(":o", s("o"));
        values.put(":t", s("t"));
        if (condition.contains(":r")) {
          values.put(":r", n("2"));
        }
        if (condition.contains(":p")) {
          values.put(":p", s("amy"));
        }
        List<String> paged = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
          Map<String, AttributeValue> from = start;
          QueryResponse page =
              client.query(
                  b ->
                      b.tableName(t)
                          .indexName("byTeam")
                          .keyConditionExpression("org = :o AND team = :t" + condition)
                          .expressionAttributeValues(values)
                          .scanIndexForward(forward)
                          .limit(2)
                          .exclusiveStartKey(from));
          page.items().forEach(i -> paged.add(i.get("id").s()));
          if (page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()) {
            assertThat(page.lastEvaluatedKey())
                .containsOnlyKeys("id", "org", "team", "round", "player");
            start = page.lastEvaluatedKey();
          } else {
            start = null;
          }
        } while (start != null);
        Object[] bound =
            values.entrySet().stream()
                .skip(2)
                .flatMap(e -> java.util.stream.Stream.of(e.getKey(), e.getValue()))
                .toArray();
        assertThat(paged).as(condition).isEqualTo(members(t, forward, condition, bound));
      }
    }
    assertThat(members(t, " AND round = :r AND player >= :p", ":r", n("2"), ":p", s("amy")))
        .containsExactly("m3", "m2");
    List<String> scanned = new ArrayList<>();
    Map<String, AttributeValue> start = null;
    do {
      Map<String, AttributeValue> from = start;
      ScanResponse page =
          client.scan(b -> b.tableName(t).indexName("byTeam").limit(2).exclusiveStartKey(from));
      page.items().forEach(i -> scanned.add(i.get("id").s()));
      start =
          page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
              ? page.lastEvaluatedKey()
              : null;
    } while (start != null);
    assertThat(scanned)
        .containsExactlyInAnyOrder("m1", "m2", "m3", "m4", "m5", "m6", "other", "o-tt", "ot-t");
  }

  @Test
  void aGlobalIndexOfOnePartitionAndTwoSortKeyAttributesOrdersByBoth() {
    String t = teamsWithMembers();
    QueryResponse org =
        client.query(
            b ->
                b.tableName(t)
                    .indexName("byOrg")
                    .keyConditionExpression("org = :o AND team = :t AND round BETWEEN :a AND :b")
                    .expressionAttributeValues(
                        Map.of(":o", s("o"), ":t", s("t"), ":a", n("2"), ":b", n("3"))));
    // noPlayer has every key attribute of this index (org, team, round), though not of byTeam
    assertThat(org.items())
        .extracting(i -> i.get("id").s())
        .containsExactly("m2", "m3", "m6", "noPlayer");
    assertThat(org.items().get(0))
        .isEqualTo(
            Map.of(
                "id",
                s("m2"),
                "org",
                s("o"),
                "team",
                s("t"),
                "round",
                n("2"),
                "extra",
                s("not projected")));
    QueryResponse teams =
        client.query(
            b ->
                b.tableName(t)
                    .indexName("byOrg")
                    .keyConditionExpression("org = :o AND begins_with(team, :t)")
                    .expressionAttributeValues(Map.of(":o", s("o"), ":t", s("t")))
                    .scanIndexForward(false));
    assertThat(teams.items())
        .extracting(i -> i.get("team").s() + " " + i.get("round").n())
        .containsExactly("tt 1", "t 10", "t 9.5", "t 3", "t 2", "t 2", "t 2", "t -1");
  }
}
