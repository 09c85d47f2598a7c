package io.viewbase.server.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.TableInfo;
import io.viewbase.api.Value;
import io.viewbase.api.ViewStatus;
import io.viewbase.server.ViewBuilds;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.CreateTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ListTablesResponse;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughput;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.Tag;

/**
 * The DynamoDB table operations through the AWS SDK for Java v2, against a real server on a socket:
 * create (with indexes, and each validation DynamoDB makes), describe, list with paging, update (an
 * index added and removed, billing, streams), delete, tags; the SDK raises the exception class each
 * error names, and checks each answer's CRC32 as it reads it. Subclasses say which database to
 * serve (memory and RocksDB here, Cassandra in viewbase-cassandra-it, hence public); every test
 * works in tables of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class DynamoDbTablesContract {
  private static final AtomicInteger NAMES = new AtomicInteger();

  private Database db;
  private DynamoDbServer server;
  private DynamoDbClient client;

  /** The database to serve, in {@code dir} if it keeps files (a fresh one per test class). */
  protected abstract Database open(Path dir);

  @BeforeAll
  void start(@TempDir Path dir) {
    db = open(dir);
    server =
        DynamoDbServer.start(
            db, DynamoDbOptions.defaults().withPort(0).withIoThreads(1).withWorkerThreads(4));
    client = client(server.port(), DynamoDbOptions.LOCAL_KEY_ID, DynamoDbOptions.LOCAL_SECRET);
  }

  @AfterAll
  void stop() {
    client.close();
    server.close();
    db.close();
  }

  /** A client that fails fast: no retries, so an error is the first answer's. */
  static DynamoDbClient client(int port, String key, String secret) {
    return DynamoDbClient.builder()
        .endpointOverride(URI.create("http://127.0.0.1:" + port))
        .region(Region.US_WEST_2)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create(key, secret)))
        .httpClient(
            UrlConnectionHttpClient.builder()
                .connectionTimeout(Duration.ofSeconds(2))
                .socketTimeout(Duration.ofSeconds(30))
                .build())
        .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry()))
        .build();
  }

  private static String name(String stem) {
    return stem + "-" + NAMES.incrementAndGet() + ".t";
  }

  private static AttributeDefinition def(String name, ScalarAttributeType type) {
    return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
  }

  private static KeySchemaElement key(String name, KeyType type) {
    return KeySchemaElement.builder().attributeName(name).keyType(type).build();
  }

  private static CreateTableRequest.Builder simple(String table) {
    return CreateTableRequest.builder()
        .tableName(table)
        .attributeDefinitions(def("pk", ScalarAttributeType.S), def("sk", ScalarAttributeType.N))
        .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))
        .billingMode(BillingMode.PAY_PER_REQUEST);
  }

  private void assertValidation(CreateTableRequest request, String message) {
    assertThatThrownBy(() -> client.createTable(request))
        .isInstanceOfSatisfying(
            DynamoDbException.class,
            e -> {
              assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
              assertThat(e.statusCode()).isEqualTo(400);
              assertThat(e.awsErrorDetails().errorMessage()).isEqualTo(message);
            });
  }

  @Test
  void createTableAnswersAnActiveDescriptionThatDescribeTableRepeats() {
    String table = name("orders");
    CreateTableResponse created =
        client.createTable(
            simple(table)
                .tags(Tag.builder().key("team").value("core").build())
                .streamSpecification(
                    s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES))
                .build());

    TableDescription d = created.tableDescription();
    assertThat(d.tableName()).isEqualTo(table);
    assertThat(d.tableStatus()).isEqualTo(TableStatus.ACTIVE);
    assertThat(d.tableArn()).isEqualTo("arn:aws:dynamodb:us-west-2:000000000000:table/" + table);
    assertThat(d.keySchema()).containsExactly(key("pk", KeyType.HASH), key("sk", KeyType.RANGE));
    assertThat(d.billingModeSummary().billingMode()).isEqualTo(BillingMode.PAY_PER_REQUEST);
    assertThat(d.streamSpecification().streamViewType())
        .isEqualTo(StreamViewType.NEW_AND_OLD_IMAGES);
    assertThat(d.latestStreamArn()).startsWith(d.tableArn() + "/stream/");
    assertThat(d.itemCount()).isZero();
    TableDescription described = client.describeTable(b -> b.tableName(table)).table();
    assertThat(described.tableName()).isEqualTo(table);
    assertThat(described.attributeDefinitions()).isEqualTo(d.attributeDefinitions());
    assertThat(described.creationDateTime()).isEqualTo(d.creationDateTime());
    assertThat(described.tableId()).isEqualTo(d.tableId());
  }

  @Test
  void aTableIsAViewbaseTableWhoseItemsCountInItsDescription() {
    String table = name("counted");
    client.createTable(simple(table).build());
    String viewbaseName =
        db.listTables().stream()
            .map(TableInfo::name)
            .filter(
                n ->
                    db.setting(n, StoredTables.SETTING)
                        .map(s -> s.contains("\"" + table + "\""))
                        .orElse(false))
            .findFirst()
            .orElseThrow();
    db.table(viewbaseName).upsert(Item.of("a", "1", Map.of("x", Value.of("v"))));
    db.table(viewbaseName).upsert(Item.of("b", "2", Map.of()));

    assertThat(viewbaseName).matches("counted\\d+t[a-z2-7]{8}");
    assertThat(client.describeTable(b -> b.tableName(table)).table().itemCount()).isEqualTo(2);
  }

  @Test
  void createTableOfAnExistingNameFailsWithResourceInUse() {
    String table = name("twice");
    client.createTable(simple(table).build());

    assertThatThrownBy(() -> client.createTable(simple(table).build()))
        .isInstanceOfSatisfying(
            ResourceInUseException.class,
            e ->
                assertThat(e.awsErrorDetails().errorMessage())
                    .isEqualTo("Table already exists: " + table));
  }

  @Test
  void tablesWhoseNamesDifferInCaseOnlyAreTwoTables() {
    String lower = "case" + NAMES.incrementAndGet() + "table";
    String upper = lower.toUpperCase(java.util.Locale.ROOT);
    client.createTable(simple(lower).build());
    client.createTable(
        simple(upper)
            .attributeDefinitions(
                def("pk", ScalarAttributeType.S), def("sk", ScalarAttributeType.S))
            .build());

    assertThat(client.describeTable(b -> b.tableName(lower)).table().attributeDefinitions())
        .contains(def("sk", ScalarAttributeType.N));
    assertThat(client.describeTable(b -> b.tableName(upper)).table().attributeDefinitions())
        .contains(def("sk", ScalarAttributeType.S));
  }

  @Test
  void describeOrDeleteOfAMissingTableFailsWithResourceNotFound() {
    assertThatThrownBy(() -> client.describeTable(b -> b.tableName("nothing-here")))
        .isInstanceOfSatisfying(
            ResourceNotFoundException.class,
            e ->
                assertThat(e.awsErrorDetails().errorMessage())
                    .isEqualTo("Requested resource not found: Table: nothing-here not found"));
    assertThatThrownBy(() -> client.deleteTable(b -> b.tableName("nothing-here")))
        .isInstanceOf(ResourceNotFoundException.class);
  }

  @Test
  void createTableValidatesAsDynamoDbDoes() {
    String t = name("invalid");
    assertValidation(
        simple(t).attributeDefinitions(def("pk", ScalarAttributeType.S)).build(),
        "Invalid KeySchema: Some index key attribute have no definition");
    assertValidation(
        simple(t)
            .attributeDefinitions(
                def("pk", ScalarAttributeType.S), def("other", ScalarAttributeType.S))
            .build(),
        "One or more parameter values were invalid: Some index key attributes are not defined in"
            + " AttributeDefinitions. Keys: [pk, sk], AttributeDefinitions: [pk, other]");
    assertValidation(
        simple(t)
            .attributeDefinitions(
                def("pk", ScalarAttributeType.S),
                def("sk", ScalarAttributeType.N),
                def("extra", ScalarAttributeType.S))
            .build(),
        "One or more parameter values were invalid: Number of attributes in KeySchema does not"
            + " exactly match number of attributes defined in AttributeDefinitions");
    assertValidation(
        simple(t).keySchema(key("sk", KeyType.RANGE), key("pk", KeyType.HASH)).build(),
        "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
    assertValidation(
        simple(t).keySchema(key("pk", KeyType.HASH), key("pk", KeyType.RANGE)).build(),
        "Both the Hash Key and the Range Key element in the KeySchema have the same name");
    assertValidation(
        simple(t).billingMode(BillingMode.PROVISIONED).build(),
        "One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must"
            + " both be specified when BillingMode is PROVISIONED");
    assertValidation(
        simple(t)
            .provisionedThroughput(
                ProvisionedThroughput.builder()
                    .readCapacityUnits(1L)
                    .writeCapacityUnits(1L)
                    .build())
            .build(),
        "One or more parameter values were invalid: Neither ReadCapacityUnits nor"
            + " WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
    assertValidation(
        simple("ab").build(),
        "1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint:"
            + " Member must have length greater than or equal to 3");
    assertValidation(
        simple("bad name!").build(),
        "1 validation error detected: Value 'bad name!' at 'tableName' failed to satisfy"
            + " constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+");
  }

  @Test
  void indexesAreValidatedAsDynamoDbValidatesThem() {
    String t = name("badindexes");
    assertValidation(
        CreateTableRequest.builder()
            .tableName(t)
            .attributeDefinitions(
                def("pk", ScalarAttributeType.S), def("ls", ScalarAttributeType.S))
            .keySchema(key("pk", KeyType.HASH))
            .billingMode(BillingMode.PAY_PER_REQUEST)
            .localSecondaryIndexes(lsi("byLs", "pk", "ls"))
            .build(),
        "One or more parameter values were invalid: Table KeySchema does not have a range key,"
            + " which is required when specifying a LocalSecondaryIndex");
    assertValidation(
        simple(t)
            .attributeDefinitions(
                def("pk", ScalarAttributeType.S),
                def("sk", ScalarAttributeType.N),
                def("other", ScalarAttributeType.S))
            .localSecondaryIndexes(lsi("byOther", "other", "sk"))
            .build(),
        "One or more parameter values were invalid: Index KeySchema does not have the same leading"
            + " hash key as table KeySchema for index: byOther. index hash key: other, table hash"
            + " key: pk");
    assertValidation(
        simple(t)
            .attributeDefinitions(
                def("pk", ScalarAttributeType.S),
                def("sk", ScalarAttributeType.N),
                def("g", ScalarAttributeType.S))
            .globalSecondaryIndexes(gsi("dup", "g", null), gsi("dup", "g", null))
            .build(),
        "One or more parameter values were invalid: Duplicate index name: dup");
    assertValidation(
        simple(t)
            .attributeDefinitions(
                def("pk", ScalarAttributeType.S),
                def("sk", ScalarAttributeType.N),
                def("g", ScalarAttributeType.S),
                def("unused", ScalarAttributeType.S))
            .globalSecondaryIndexes(gsi("byG", "g", null))
            .build(),
        "One or more parameter values were invalid: Some AttributeDefinitions are not used."
            + " AttributeDefinitions: [pk, sk, g, unused], keys used: [pk, sk, g]");
    List<GlobalSecondaryIndex> many = new ArrayList<>();
    for (int i = 0; i < 21; i++) {
      many.add(gsi("index" + i, "g", null));
    }
    assertValidation(
        simple(t)
            .attributeDefinitions(
                def("pk", ScalarAttributeType.S),
                def("sk", ScalarAttributeType.N),
                def("g", ScalarAttributeType.S))
            .globalSecondaryIndexes(many)
            .build(),
        "One or more parameter values were invalid: GlobalSecondaryIndex count exceeds the"
            + " per-table limit of 20");
    assertValidation(
        simple(t)
            .attributeDefinitions(
                def("pk", ScalarAttributeType.S),
                def("sk", ScalarAttributeType.N),
                def("g", ScalarAttributeType.S))
            .globalSecondaryIndexes(
                GlobalSecondaryIndex.builder()
                    .indexName("byG")
                    .keySchema(key("g", KeyType.HASH))
                    .projection(
                        Projection.builder()
                            .projectionType(ProjectionType.ALL)
                            .nonKeyAttributes("x")
                            .build())
                    .build())
            .build(),
        "One or more parameter values were invalid: ProjectionType is ALL, but NonKeyAttributes is"
            + " specified");
    assertThat(client.listTables().tableNames()).doesNotContain(t);
  }

  private static LocalSecondaryIndex lsi(String name, String hash, String range) {
    return LocalSecondaryIndex.builder()
        .indexName(name)
        .keySchema(key(hash, KeyType.HASH), key(range, KeyType.RANGE))
        .projection(Projection.builder().projectionType(ProjectionType.KEYS_ONLY).build())
        .build();
  }

  private static GlobalSecondaryIndex gsi(String name, String hash, String range) {
    GlobalSecondaryIndex.Builder b =
        GlobalSecondaryIndex.builder()
            .indexName(name)
            .projection(
                Projection.builder()
                    .projectionType(ProjectionType.INCLUDE)
                    .nonKeyAttributes("title")
                    .build());
    return range == null
        ? b.keySchema(key(hash, KeyType.HASH)).build()
        : b.keySchema(key(hash, KeyType.HASH), key(range, KeyType.RANGE)).build();
  }

  @Test
  void indexesAreViewsKeyedByTheirAttributesAndReadyOnceBuilt() throws InterruptedException {
    String t = name("indexed");
    TableDescription d =
        client
            .createTable(
                simple(t)
                    .attributeDefinitions(
                        def("pk", ScalarAttributeType.S),
                        def("sk", ScalarAttributeType.N),
                        def("email", ScalarAttributeType.S),
                        def("score", ScalarAttributeType.N),
                        def("ls", ScalarAttributeType.B))
                    .globalSecondaryIndexes(gsi("byEmail", "email", "score"))
                    .localSecondaryIndexes(lsi("byLs", "pk", "ls"))
                    .build())
            .tableDescription();

    assertThat(d.globalSecondaryIndexes())
        .extracting(GlobalSecondaryIndexDescription::indexName)
        .containsExactly("byEmail");
    assertThat(d.globalSecondaryIndexes().get(0).indexArn())
        .isEqualTo(d.tableArn() + "/index/byEmail");
    assertThat(d.localSecondaryIndexes().get(0).projection().projectionType())
        .isEqualTo(ProjectionType.KEYS_ONLY);
    DynamoDbTable stored = new DynamoDbTables(db).describe(t);
    DynamoDbTable.Index gsi = stored.index("byEmail").orElseThrow();
    ViewStatus view = awaitReady(gsi.viewName());
    assertThat(view.definition().source()).isEqualTo(stored.viewbaseName());
    assertThat(view.definition().partitionBy()).isEqualTo("{email}");
    assertThat(view.definition().idBy()).isEqualTo("{score|key}{partitionKey|key}{id|key}");
    assertThat(view.definition().select()).containsExactly("pk", "sk", "email", "score", "title");
    ViewStatus local = awaitReady(stored.index("byLs").orElseThrow().viewName());
    assertThat(local.definition().partitionBy()).isEqualTo("{partitionKey}");
    assertThat(local.definition().idBy()).isEqualTo("{ls|key}{id|key}");
    assertThat(
            client
                .describeTable(b -> b.tableName(t))
                .table()
                .globalSecondaryIndexes()
                .get(0)
                .indexStatus())
        .isEqualTo(IndexStatus.ACTIVE);
  }

  private ViewStatus awaitReady(String view) {
    return ViewBuilds.awaitReady(db, view);
  }

  @Test
  void updateTableAddsAndRemovesAGlobalIndex() throws InterruptedException {
    String t = name("evolving");
    client.createTable(simple(t).build());
    String vb = new DynamoDbTables(db).describe(t).viewbaseName();
    for (int i = 0; i < 50; i++) {
      db.table(vb).upsert(Item.of("p" + i, "1", Map.of("g", Value.of("x" + (i % 3)))));
    }

    TableDescription added =
        client
            .updateTable(
                b ->
                    b.tableName(t)
                        .attributeDefinitions(def("g", ScalarAttributeType.S))
                        .globalSecondaryIndexUpdates(
                            u ->
                                u.create(
                                    c ->
                                        c.indexName("byG")
                                            .keySchema(key("g", KeyType.HASH))
                                            .projection(
                                                p -> p.projectionType(ProjectionType.ALL)))))
            .tableDescription();

    assertThat(added.tableStatus()).isEqualTo(TableStatus.UPDATING);
    assertThat(added.globalSecondaryIndexes()).hasSize(1);
    assertThat(added.globalSecondaryIndexes().get(0).indexStatus())
        .isIn(IndexStatus.CREATING, IndexStatus.ACTIVE);
    String view = new DynamoDbTables(db).describe(t).index("byG").orElseThrow().viewName();
    awaitReady(view);
    GlobalSecondaryIndexDescription ready =
        client.describeTable(b -> b.tableName(t)).table().globalSecondaryIndexes().get(0);
    assertThat(ready.indexStatus()).isEqualTo(IndexStatus.ACTIVE);
    assertThat(ready.itemCount()).isEqualTo(50);
    assertThat(client.describeTable(b -> b.tableName(t)).table().attributeDefinitions())
        .contains(def("g", ScalarAttributeType.S));

    client.updateTable(
        b -> b.tableName(t).globalSecondaryIndexUpdates(u -> u.delete(x -> x.indexName("byG"))));

    TableDescription after = client.describeTable(b -> b.tableName(t)).table();
    assertThat(after.globalSecondaryIndexes()).isEmpty();
    assertThat(after.attributeDefinitions()).doesNotContain(def("g", ScalarAttributeType.S));
    assertThat(db.listTables()).extracting(TableInfo::name).doesNotContain(view);
  }

  /** A table keyed by pk (S), sk (N) defining org, team (S) and round, seq (N) besides. */
  private static CreateTableRequest.Builder teams(String table) {
    return simple(table)
        .attributeDefinitions(
            def("pk", ScalarAttributeType.S),
            def("sk", ScalarAttributeType.N),
            def("org", ScalarAttributeType.S),
            def("team", ScalarAttributeType.S),
            def("round", ScalarAttributeType.N),
            def("seq", ScalarAttributeType.B));
  }

  private static GlobalSecondaryIndex gsi(String name, KeySchemaElement... keySchema) {
    return GlobalSecondaryIndex.builder()
        .indexName(name)
        .keySchema(keySchema)
        .projection(Projection.builder().projectionType(ProjectionType.KEYS_ONLY).build())
        .build();
  }

  @Test
  void aGlobalIndexOfTwoHashAndTwoRangeAttributesIsDescribedAsGivenAndKeyedByAll()
      throws InterruptedException {
    String t = name("teams");
    List<KeySchemaElement> schema =
        List.of(
            key("team", KeyType.HASH),
            key("org", KeyType.HASH),
            key("round", KeyType.RANGE),
            key("seq", KeyType.RANGE));
    TableDescription created =
        client
            .createTable(
                teams(t)
                    .globalSecondaryIndexes(gsi("byTeam", schema.toArray(KeySchemaElement[]::new)))
                    .build())
            .tableDescription();

    assertThat(created.globalSecondaryIndexes().get(0).keySchema())
        .containsExactlyElementsOf(schema);
    GlobalSecondaryIndexDescription described =
        client.describeTable(b -> b.tableName(t)).table().globalSecondaryIndexes().get(0);
    assertThat(described.keySchema()).containsExactlyElementsOf(schema);
    assertThat(described.indexStatus()).isEqualTo(IndexStatus.ACTIVE);
    DynamoDbTable stored = new DynamoDbTables(db).describe(t);
    ViewStatus view = awaitReady(stored.index("byTeam").orElseThrow().viewName());
    assertThat(view.definition().partitionBy()).isEqualTo("{team|key}{org|key}");
    assertThat(view.definition().idBy())
        .isEqualTo("{round|key}{seq|key}{partitionKey|key}{id|key}");
    assertThat(view.definition().select())
        .containsExactly("pk", "sk", "team", "org", "round", "seq");
    assertThat(StoredTables.decode(StoredTables.encode(stored)).index("byTeam").orElseThrow().key())
        .isEqualTo(stored.index("byTeam").orElseThrow().key());
  }

  @Test
  void multiAttributeKeySchemasAreRefusedAsDynamoDbRefusesThem() {
    String t = name("badteams");
    KeySchemaElement org = key("org", KeyType.HASH);
    KeySchemaElement team = key("team", KeyType.HASH);
    KeySchemaElement round = key("round", KeyType.RANGE);
    assertValidation(
        teams(t)
            .globalSecondaryIndexes(
                gsi(
                    "gsi1",
                    org,
                    team,
                    key("pk", KeyType.HASH),
                    key("sk", KeyType.HASH),
                    key("seq", KeyType.HASH),
                    round))
            .build(),
        "Invalid KeySchema: A KeySchema may have at most 4 HASH key attributes");
    assertValidation(
        teams(t)
            .globalSecondaryIndexes(
                gsi(
                    "gsi1",
                    org,
                    key("team", KeyType.RANGE),
                    key("round", KeyType.RANGE),
                    key("seq", KeyType.RANGE),
                    key("pk", KeyType.RANGE),
                    key("sk", KeyType.RANGE)))
            .build(),
        "Invalid KeySchema: A KeySchema may have at most 4 RANGE key attributes");
    assertValidation(
        teams(t).globalSecondaryIndexes(gsi("gsi1", org, round, team)).build(),
        "Invalid KeySchema: A HASH KeySchemaElement follows a RANGE KeySchemaElement");
    assertValidation(
        teams(t).globalSecondaryIndexes(gsi("gsi1", org, team, key("org", KeyType.RANGE))).build(),
        "Invalid KeySchema: The KeySchema has the attribute org more than once");
    assertValidation(
        teams(t).globalSecondaryIndexes(gsi("gsi1", round, org, team)).build(),
        "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
    assertValidation(
        teams(t).globalSecondaryIndexes(gsi("gsi1", org, team, key("nope", KeyType.RANGE))).build(),
        "One or more parameter values were invalid: Some index key attributes are not defined in"
            + " AttributeDefinitions. Keys: [org, team, nope], AttributeDefinitions: [pk, sk, org,"
            + " team, round, seq]");
    assertValidationContaining(
        teams(t)
            .globalSecondaryIndexes(
                gsi("gsi1", org, team, round, round, round, round, round, round, round))
            .build(),
        "at 'globalSecondaryIndexes.1.member.keySchema' failed to satisfy constraint: Member must"
            + " have length less than or equal to 8");
    // The table's and a local index's keys stay one HASH and at most one RANGE attribute.
    assertValidation(
        teams(t).keySchema(key("pk", KeyType.HASH), org).build(),
        "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
    assertValidationContaining(
        teams(t)
            .localSecondaryIndexes(
                LocalSecondaryIndex.builder()
                    .indexName("lsi1")
                    .keySchema(
                        key("pk", KeyType.HASH),
                        key("round", KeyType.RANGE),
                        key("seq", KeyType.RANGE))
                    .projection(p -> p.projectionType(ProjectionType.ALL))
                    .build())
            .build(),
        "at 'localSecondaryIndexes.1.member.keySchema' failed to satisfy constraint: Member must"
            + " have length less than or equal to 2");
  }

  @Test
  void updateTableAddsAMultiAttributeGlobalIndexWithBackfillAndDeletesIt()
      throws InterruptedException {
    String t = name("backfilled");
    client.createTable(simple(t).build());
    for (int i = 0; i < 30; i++) {
      Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> item =
          new java.util.HashMap<>();
      item.put("pk", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("p" + i));
      item.put("sk", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromN("1"));
      item.put("org", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("o"));
      if (i % 10 != 9) { // the others lack team and round: not in the index
        item.put(
            "team",
            software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("t" + i % 2));
        item.put(
            "round",
            software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromN("" + i % 5));
      }
      client.putItem(b -> b.tableName(t).item(item));
    }
    assertValidationOf(
        () ->
            addTeamIndex(
                t,
                key("org", KeyType.HASH),
                key("round", KeyType.RANGE),
                key("team", KeyType.HASH)),
        "Invalid KeySchema: A HASH KeySchemaElement follows a RANGE KeySchemaElement");

    TableDescription added =
        addTeamIndex(
            t, key("org", KeyType.HASH), key("team", KeyType.HASH), key("round", KeyType.RANGE));
    assertThat(added.globalSecondaryIndexes().get(0).indexStatus())
        .isIn(IndexStatus.CREATING, IndexStatus.ACTIVE);
    awaitReady(new DynamoDbTables(db).describe(t).index("byTeam").orElseThrow().viewName());
    GlobalSecondaryIndexDescription ready =
        client.describeTable(b -> b.tableName(t)).table().globalSecondaryIndexes().get(0);
    assertThat(ready.indexStatus()).isEqualTo(IndexStatus.ACTIVE);
    assertThat(ready.itemCount()).isEqualTo(27);
    assertThat(ready.keySchema())
        .containsExactly(
            key("org", KeyType.HASH), key("team", KeyType.HASH), key("round", KeyType.RANGE));

    List<String> rounds = new ArrayList<>();
    client
        .query(
            q ->
                q.tableName(t)
                    .indexName("byTeam")
                    .keyConditionExpression("org = :o AND team = :t AND round >= :r")
                    .expressionAttributeValues(
                        Map.of(
                            ":o",
                            software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS(
                                "o"),
                            ":t",
                            software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS(
                                "t1"),
                            ":r",
                            software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromN(
                                "3"))))
        .items()
        .forEach(i -> rounds.add(i.get("round").n() + "/" + i.get("pk").s()));
    // t1: the odd i but 9, 19, 29; of those, round (i % 5) 3 or 4: 3, 13, 23, in the order of their
    // table keys' renderings after their round
    assertThat(rounds).containsExactly("3/p13", "3/p23", "3/p3");

    client.updateTable(
        b -> b.tableName(t).globalSecondaryIndexUpdates(u -> u.delete(x -> x.indexName("byTeam"))));
    TableDescription after = client.describeTable(b -> b.tableName(t)).table();
    assertThat(after.globalSecondaryIndexes()).isEmpty();
    assertThat(after.attributeDefinitions()).doesNotContain(def("team", ScalarAttributeType.S));
  }

  private void assertValidationContaining(CreateTableRequest request, String message) {
    assertThatThrownBy(() -> client.createTable(request))
        .isInstanceOfSatisfying(
            DynamoDbException.class,
            e -> {
              assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
              assertThat(e.awsErrorDetails().errorMessage()).contains(message);
            });
  }

  /** UpdateTable adding the global index {@code byTeam} (org, team: S; round: N) of these keys. */
  private TableDescription addTeamIndex(String t, KeySchemaElement... keys) {
    return client
        .updateTable(
            b ->
                b.tableName(t)
                    .attributeDefinitions(
                        def("org", ScalarAttributeType.S),
                        def("team", ScalarAttributeType.S),
                        def("round", ScalarAttributeType.N))
                    .globalSecondaryIndexUpdates(
                        u ->
                            u.create(
                                c ->
                                    c.indexName("byTeam")
                                        .keySchema(keys)
                                        .projection(p -> p.projectionType(ProjectionType.ALL)))))
        .tableDescription();
  }

  private static void assertValidationOf(Runnable call, String message) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            DynamoDbException.class,
            e -> {
              assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
              assertThat(e.awsErrorDetails().errorMessage()).isEqualTo(message);
            });
  }

  @Test
  void updateTableChangesBillingAndRefusesTwoIndexChangesAtOnce() {
    String t = name("billing");
    client.createTable(simple(t).build());

    TableDescription provisioned =
        client
            .updateTable(
                b ->
                    b.tableName(t)
                        .billingMode(BillingMode.PROVISIONED)
                        .provisionedThroughput(p -> p.readCapacityUnits(5L).writeCapacityUnits(7L)))
            .tableDescription();
    assertThat(provisioned.provisionedThroughput().writeCapacityUnits()).isEqualTo(7L);
    assertThat(
            client
                .describeTable(b -> b.tableName(t))
                .table()
                .provisionedThroughput()
                .readCapacityUnits())
        .isEqualTo(5L);
    assertThatThrownBy(
            () ->
                client.updateTable(
                    b ->
                        b.tableName(t)
                            .globalSecondaryIndexUpdates(
                                u -> u.delete(x -> x.indexName("one")),
                                u -> u.delete(x -> x.indexName("two")))))
        .isInstanceOfSatisfying(
            DynamoDbException.class,
            e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("LimitExceededException"));
  }

  @Test
  void listTablesPagesThroughTablesInNameOrder() {
    String prefix = "page" + NAMES.incrementAndGet() + "-";
    for (String n : List.of("c", "a", "b", "e", "d")) {
      client.createTable(simple(prefix + n).build());
    }

    List<String> seen = new ArrayList<>();
    String start = prefix;
    ListTablesResponse page;
    do {
      String from = start;
      page = client.listTables(b -> b.exclusiveStartTableName(from).limit(2));
      assertThat(page.tableNames().size()).isLessThanOrEqualTo(2);
      page.tableNames().stream().filter(n -> n.startsWith(prefix)).forEach(seen::add);
      start = page.lastEvaluatedTableName();
    } while (start != null && start.startsWith(prefix));

    assertThat(seen)
        .containsExactly(prefix + "a", prefix + "b", prefix + "c", prefix + "d", prefix + "e");
    assertThatThrownBy(() -> client.listTables(b -> b.limit(101)))
        .isInstanceOfSatisfying(
            DynamoDbException.class,
            e ->
                assertThat(e.awsErrorDetails().errorMessage())
                    .isEqualTo(
                        "1 validation error detected: Value '101' at 'limit' failed to satisfy"
                            + " constraint: Member must have value less than or equal to 100"));
  }

  @Test
  void deleteTableAnswersDeletingAndDropsTheTableAndItsIndexes() {
    String t = name("doomed");
    client.createTable(
        simple(t)
            .attributeDefinitions(
                def("pk", ScalarAttributeType.S),
                def("sk", ScalarAttributeType.N),
                def("g", ScalarAttributeType.S))
            .globalSecondaryIndexes(gsi("byG", "g", null))
            .build());
    DynamoDbTable stored = new DynamoDbTables(db).describe(t);

    TableDescription d = client.deleteTable(b -> b.tableName(t)).tableDescription();

    assertThat(d.tableStatus()).isEqualTo(TableStatus.DELETING);
    assertThat(client.listTables().tableNames()).doesNotContain(t);
    assertThat(db.listTables())
        .extracting(TableInfo::name)
        .doesNotContain(stored.viewbaseName(), stored.globalIndexes().get(0).viewName());
    assertThatThrownBy(() -> client.describeTable(b -> b.tableName(t)))
        .isInstanceOf(ResourceNotFoundException.class);
  }

  @Test
  void aProtectedTableIsNotDeleted() {
    String t = name("protected");
    client.createTable(simple(t).deletionProtectionEnabled(true).build());

    assertThatThrownBy(() -> client.deleteTable(b -> b.tableName(t)))
        .isInstanceOfSatisfying(
            DynamoDbException.class,
            e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException"));
    client.updateTable(b -> b.tableName(t).deletionProtectionEnabled(false));
    client.deleteTable(b -> b.tableName(t));
  }

  @Test
  void tagsAreAddedListedAndRemovedByArn() {
    String t = name("tagged");
    String arn =
        client
            .createTable(simple(t).tags(Tag.builder().key("a").value("1").build()).build())
            .tableDescription()
            .tableArn();

    client.tagResource(b -> b.resourceArn(arn).tags(Tag.builder().key("b").value("2").build()));
    assertThat(client.listTagsOfResource(b -> b.resourceArn(arn)).tags())
        .containsExactly(
            Tag.builder().key("a").value("1").build(), Tag.builder().key("b").value("2").build());
    client.untagResource(b -> b.resourceArn(arn).tagKeys("a"));
    assertThat(client.listTagsOfResource(b -> b.resourceArn(arn)).tags())
        .containsExactly(Tag.builder().key("b").value("2").build());
    assertThatThrownBy(
            () ->
                client.listTagsOfResource(
                    b -> b.resourceArn("arn:aws:dynamodb:us-west-2:000000000000:table/none-such")))
        .isInstanceOf(ResourceNotFoundException.class);
  }

  @Test
  void describeLimitsAndContinuousBackupsAnswerAsDynamoDbLocal() {
    assertThat(client.describeLimits().tableMaxReadCapacityUnits()).isEqualTo(40000L);
    String t = name("backups");
    client.createTable(simple(t).build());
    assertThat(
            client
                .describeContinuousBackups(b -> b.tableName(t))
                .continuousBackupsDescription()
                .continuousBackupsStatusAsString())
        .isEqualTo("ENABLED");
  }
}
