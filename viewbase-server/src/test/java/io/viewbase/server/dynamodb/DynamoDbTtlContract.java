package io.viewbase.server.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.Query;
import io.viewbase.api.TimeToLive;
import io.viewbase.api.Value;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * DynamoDB's time to live through the AWS SDK for Java v2, against a real server: enabling,
 * describing and disabling it, items past their time absent to every read and removed by a sweep
 * into the stream as the service's REMOVE, items written before TTL was enabled, and what never
 * expires. The database runs no background sweep ({@link #WITHOUT_BACKGROUND_SWEEPS}), so the
 * forced sweep of each test is what removes its items. Subclasses choose the storage backend.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class DynamoDbTtlContract {
  /** Open options under which the background sweeper waits a day before a table's first walk. */
  static final Map<String, String> WITHOUT_BACKGROUND_SWEEPS =
      Map.of("sweep.intervalSeconds", "86400");

  private Database db;
  private DynamoDbServer server;
  private DynamoDbClient client;
  private DynamoDbStreamsClient streams;
  private final AtomicInteger tables = new AtomicInteger();

  abstract Database open(Path dir);

  @BeforeAll
  void start(@TempDir Path dir) {
    db = open(dir);
    server = DynamoDbServer.start(db, DynamoDbOptions.defaults().withPort(0));
    client = SdkTables.dynamo(server.port());
    streams = SdkTables.streams(server.port());
  }

  @AfterAll
  void stop() {
    streams.close();
    client.close();
    server.close();
    db.close();
  }

  private String table(StreamViewType viewType) {
    String name = "ttl-" + tables.incrementAndGet() + "_t";
    SdkTables.create(client, name, viewType);
    return name;
  }

  private static AttributeValue s(String v) {
    return AttributeValue.fromS(v);
  }

  private static AttributeValue n(String v) {
    return AttributeValue.fromN(v);
  }

  private static AttributeValue seconds(Instant at) {
    return n(Long.toString(at.getEpochSecond()));
  }

  private static Map<String, AttributeValue> item(String pk, String sk, Object... more) {
    Map<String, AttributeValue> item = new LinkedHashMap<>();
    item.put("pk", s(pk));
    item.put("sk", n(sk));
    for (int i = 0; i < more.length; i += 2) {
      item.put((String) more[i], (AttributeValue) more[i + 1]);
    }
    return item;
  }

  private static Map<String, AttributeValue> key(String pk, String sk) {
    return Map.of("pk", s(pk), "sk", n(sk));
  }

  private void put(String t, Map<String, AttributeValue> item) {
    client.putItem(b -> b.tableName(t).item(item));
  }

  private Optional<Map<String, AttributeValue>> get(String t, String pk, String sk) {
    var answer = client.getItem(b -> b.tableName(t).key(key(pk, sk)));
    return answer.hasItem() ? Optional.of(answer.item()) : Optional.empty();
  }

  private List<String> query(String t, String pk) {
    return client
        .query(
            b ->
                b.tableName(t)
                    .keyConditionExpression("pk = :p")
                    .expressionAttributeValues(Map.of(":p", s(pk))))
        .items()
        .stream()
        .map(i -> i.get("sk").n())
        .toList();
  }

  private List<String> queryIndex(String t, String g) {
    return client
        .query(
            b ->
                b.tableName(t)
                    .indexName("byG")
                    .keyConditionExpression("g = :g")
                    .expressionAttributeValues(Map.of(":g", s(g))))
        .items()
        .stream()
        .map(i -> i.get("sk").n())
        .toList();
  }

  private List<String> scan(String t) {
    return client.scan(b -> b.tableName(t)).items().stream().map(i -> i.get("sk").n()).toList();
  }

  private TimeToLiveDescription describe(String t) {
    return client.describeTimeToLive(b -> b.tableName(t)).timeToLiveDescription();
  }

  private void update(String t, String attribute, boolean enabled) {
    client.updateTimeToLive(
        b ->
            b.tableName(t)
                .timeToLiveSpecification(s -> s.attributeName(attribute).enabled(enabled)));
  }

  /** Waits for the status the pass of the last change ends in. */
  private void await(String t, TimeToLiveStatus status) {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (describe(t).timeToLiveStatus() != status) {
      assertThat(System.nanoTime())
          .as("TTL status of %s becomes %s", t, status)
          .isLessThan(deadline);
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }
  }

  private void enable(String t, String attribute) {
    update(t, attribute, true);
    await(t, TimeToLiveStatus.ENABLED);
  }

  private String viewbaseName(String t) {
    return new DynamoDbTables(db).describe(t).viewbaseName();
  }

  /** The stored Viewbase item of a key (sk an integer), as the native API reads it. */
  private Optional<Item> stored(String t, String pk, String sk) {
    String id =
        DynamoDbKeys.id(new io.viewbase.server.dynamodb.model.AttributeValue.N(new BigDecimal(sk)));
    return db.table(viewbaseName(t)).get(pk, id);
  }

  private static void assertFails(Runnable call, Class<?> type, String message) {
    assertThatThrownBy(call::run).isInstanceOf(type).hasMessageContaining(message);
  }

  @Test
  void timeToLiveIsEnabledDescribedAndDisabledWithDynamoDbsRefusals() {
    String t = table(null);
    assertThat(describe(t).timeToLiveStatus()).isEqualTo(TimeToLiveStatus.DISABLED);
    assertThat(describe(t).attributeName()).isNull();
    assertFails(
        () -> update(t, "expires", false),
        DynamoDbException.class,
        "TimeToLive is already disabled");

    var enabled =
        client
            .updateTimeToLive(
                b ->
                    b.tableName(t)
                        .timeToLiveSpecification(s -> s.attributeName("expires").enabled(true)))
            .timeToLiveSpecification();
    assertThat(enabled.attributeName()).isEqualTo("expires");
    assertThat(enabled.enabled()).isTrue();
    assertThat(describe(t).timeToLiveStatus())
        .isIn(TimeToLiveStatus.ENABLING, TimeToLiveStatus.ENABLED);
    await(t, TimeToLiveStatus.ENABLED);
    assertThat(describe(t).attributeName()).isEqualTo("expires");

    assertFails(
        () -> update(t, "expires", true), DynamoDbException.class, "TimeToLive is already enabled");
    assertFails(
        () -> update(t, "other", true),
        DynamoDbException.class,
        "TimeToLive is active on a different AttributeName: current AttributeName is expires");
    assertFails(
        () -> update(t, "other", false),
        DynamoDbException.class,
        "TimeToLive is active on a different AttributeName: current AttributeName is expires");
    assertFails(
        () -> update(t, "", true),
        DynamoDbException.class,
        "TimeToLiveSpecification.AttributeName must be non empty");
    assertFails(
        () -> client.updateTimeToLive(b -> b.tableName(t)),
        DynamoDbException.class,
        "Value null at 'timeToLiveSpecification' failed to satisfy constraint: Member must not be null");
    assertFails(
        () -> update("no-such-table", "expires", true),
        ResourceNotFoundException.class,
        "Requested resource not found: Table: no-such-table not found");
    assertFails(
        () -> client.describeTimeToLive(b -> b.tableName("no-such-table")),
        ResourceNotFoundException.class,
        "no-such-table");

    var disabled =
        client
            .updateTimeToLive(
                b ->
                    b.tableName(t)
                        .timeToLiveSpecification(s -> s.attributeName("expires").enabled(false)))
            .timeToLiveSpecification();
    assertThat(disabled.enabled()).isFalse();
    await(t, TimeToLiveStatus.DISABLED);
    assertThat(describe(t).attributeName()).isNull();
    // once disabled, another attribute may be enabled
    enable(t, "other");
    assertThat(describe(t).attributeName()).isEqualTo("other");
  }

  @Test
  void anItemPastItsTimeIsAbsentToEveryReadAndItsSweepIsTheServicesRemoveInTheStream() {
    String t = table(StreamViewType.NEW_AND_OLD_IMAGES);
    enable(t, "expires");
    Instant now = Instant.now();
    put(t, item("p", "1", "g", s("G"), "expires", seconds(now.minusSeconds(60))));
    put(t, item("p", "2", "g", s("G"), "expires", seconds(now.plusSeconds(3600))));
    put(t, item("p", "3", "g", s("G"), "expires", s("not a number")));

    assertThat(get(t, "p", "1")).isEmpty();
    assertThat(get(t, "p", "2")).isPresent();
    assertThat(get(t, "p", "3")).isPresent();
    assertThat(query(t, "p")).containsExactly("2", "3");
    assertThat(queryIndex(t, "G")).containsExactlyInAnyOrder("2", "3");
    assertThat(scan(t)).containsExactly("2", "3");
    var batch =
        client.batchGetItem(
            b ->
                b.requestItems(
                    Map.of(
                        t,
                        KeysAndAttributes.builder().keys(key("p", "1"), key("p", "2")).build())));
    assertThat(batch.responses().get(t)).extracting(i -> i.get("sk").n()).containsExactly("2");

    // the item's own attribute is what DynamoDB answers; Viewbase's _ttl is never shown
    assertThat(get(t, "p", "2").orElseThrow())
        .containsEntry("expires", seconds(now.plusSeconds(3600)))
        .doesNotContainKey("_ttl");
    assertThat(stored(t, "p", "2").orElseThrow().properties().get(TimeToLive.PROPERTY))
        .isEqualTo(Value.of(Instant.ofEpochSecond(now.plusSeconds(3600).getEpochSecond())));
    assertThat(stored(t, "p", "3").orElseThrow().properties())
        .doesNotContainKey(TimeToLive.PROPERTY);

    assertThat(db.expire(viewbaseName(t))).isEqualTo(1);
    assertThat(db.expire(viewbaseName(t))).isZero();

    List<Record> records = SdkTables.all(streams, SdkTables.streamArn(client, t));
    assertThat(records)
        .extracting(Record::eventNameAsString)
        .containsExactly("INSERT", "INSERT", "INSERT", "REMOVE");
    Record removed = records.get(3);
    assertThat(removed.dynamodb().keys()).isEqualTo(key("p", "1"));
    assertThat(removed.userIdentity()).isNotNull();
    assertThat(removed.userIdentity().type()).isEqualTo("Service");
    assertThat(removed.userIdentity().principalId()).isEqualTo("dynamodb.amazonaws.com");
    assertThat(removed.dynamodb().oldImage())
        .isEqualTo(item("p", "1", "g", s("G"), "expires", seconds(now.minusSeconds(60))));
    assertThat(records.subList(0, 3)).allSatisfy(r -> assertThat(r.userIdentity()).isNull());
    assertThat(records.get(1).dynamodb().newImage()).doesNotContainKey("_ttl");

    // a delete by a client is not the service's
    client.deleteItem(b -> b.tableName(t).key(key("p", "2")));
    List<Record> after = SdkTables.all(streams, SdkTables.streamArn(client, t));
    assertThat(after).hasSize(5);
    assertThat(after.get(4).eventNameAsString()).isEqualTo("REMOVE");
    assertThat(after.get(4).userIdentity()).isNull();
  }

  @Test
  void anItemIsVisibleUntilItsTimeThenAbsentAtOnce() throws InterruptedException {
    String t = table(null);
    enable(t, "expires");
    Instant at = Instant.now().plusSeconds(2);
    put(t, item("p", "1", "expires", seconds(at)));
    assertThat(get(t, "p", "1")).isPresent();
    while (Instant.now().isBefore(Instant.ofEpochSecond(at.getEpochSecond()))) {
      Thread.sleep(50);
    }
    Thread.sleep(50);
    assertThat(get(t, "p", "1")).isEmpty();
    assertThat(query(t, "p")).isEmpty();
    // an update giving it a later time before then would have kept it: a new item does
    put(t, item("p", "1", "expires", seconds(Instant.now().plusSeconds(3600))));
    client.updateItem(
        b ->
            b.tableName(t)
                .key(key("p", "1"))
                .updateExpression("SET expires = :e")
                .expressionAttributeValues(Map.of(":e", seconds(Instant.now().minusSeconds(1)))));
    assertThat(get(t, "p", "1")).isEmpty();
  }

  @Test
  void itemsWrittenBeforeTimeToLiveWasEnabledGetTheirTimeAndNoRecord() {
    String t = table(StreamViewType.NEW_AND_OLD_IMAGES);
    Instant now = Instant.now();
    put(t, item("p", "1", "expires", seconds(now.minusSeconds(60))));
    put(t, item("p", "2", "expires", seconds(now.plusSeconds(3600))));
    put(t, item("p", "3"));
    // TTL is not enabled: the past time means nothing yet
    assertThat(query(t, "p")).containsExactly("1", "2", "3");
    assertThat(stored(t, "p", "2").orElseThrow().properties())
        .doesNotContainKey(TimeToLive.PROPERTY);

    enable(t, "expires");
    assertThat(query(t, "p")).containsExactly("2", "3");
    assertThat(stored(t, "p", "2").orElseThrow().properties().get(TimeToLive.PROPERTY))
        .isEqualTo(Value.of(Instant.ofEpochSecond(now.plusSeconds(3600).getEpochSecond())));
    assertThat(db.setting(viewbaseName(t), TtlPasses.PROGRESS)).isEmpty();
    assertThat(db.expire(viewbaseName(t))).isEqualTo(1);
    // the pass's rewrites changed no attribute: the stream has the writes and the expiry only
    assertThat(SdkTables.all(streams, SdkTables.streamArn(client, t)))
        .extracting(Record::eventNameAsString)
        .containsExactly("INSERT", "INSERT", "INSERT", "REMOVE");
  }

  @Test
  void disablingTimeToLiveRemovesTheTimesItSetAndWritesSetNoMore() {
    String t = table(null);
    enable(t, "expires");
    Instant later = Instant.now().plusSeconds(3600);
    put(t, item("p", "1", "expires", seconds(later)));
    assertThat(stored(t, "p", "1").orElseThrow().properties()).containsKey(TimeToLive.PROPERTY);

    update(t, "expires", false);
    await(t, TimeToLiveStatus.DISABLED);
    assertThat(stored(t, "p", "1").orElseThrow().properties())
        .doesNotContainKey(TimeToLive.PROPERTY);
    assertThat(get(t, "p", "1").orElseThrow()).containsEntry("expires", seconds(later));
    put(t, item("p", "2", "expires", seconds(Instant.now().minusSeconds(60))));
    assertThat(get(t, "p", "2")).isPresent();
    assertThat(db.expire(viewbaseName(t))).isZero();
  }

  @Test
  void valuesDynamoDbWouldNotExpireNeverExpire() {
    String t = table(null);
    enable(t, "expires");
    Instant now = Instant.now();
    put(t, item("p", "1", "expires", seconds(now.minus(Duration.ofDays(6 * 365))))); // > 5 years
    put(t, item("p", "2", "expires", n(Long.toString(now.toEpochMilli())))); // milliseconds
    put(t, item("p", "3", "expires", AttributeValue.fromNs(List.of("1"))));
    put(t, item("p", "4", "expires", seconds(now.minus(Duration.ofDays(4 * 365))))); // < 5 years
    assertThat(query(t, "p")).containsExactly("1", "2", "3");
    for (String sk : List.of("1", "2", "3")) {
      assertThat(stored(t, "p", sk).orElseThrow().properties())
          .doesNotContainKey(TimeToLive.PROPERTY);
    }
  }

  @Test
  void anAttributeNamedUnderscoreTtlIsTheDynamoDbAttributeAndGivesTheViewbaseTime() {
    String t = table(null);
    enable(t, "_ttl");
    Instant later = Instant.now().plusSeconds(3600);
    put(t, item("p", "1", "_ttl", seconds(Instant.now().minusSeconds(1))));
    put(t, item("p", "2", "_ttl", seconds(later)));
    assertThat(get(t, "p", "1")).isEmpty();
    assertThat(get(t, "p", "2").orElseThrow()).containsEntry("_ttl", seconds(later));
    Item stored = stored(t, "p", "2").orElseThrow();
    assertThat(stored.properties().get("$_ttl"))
        .isEqualTo(Value.of(new BigDecimal(later.getEpochSecond())));
    assertThat(stored.properties().get(TimeToLive.PROPERTY))
        .isEqualTo(Value.of(Instant.ofEpochSecond(later.getEpochSecond())));
  }

  @Test
  void aPassStoppedHalfWayResumesAfterItsStoredPositionAndEndsEnabled() {
    String t = table(null);
    Instant later = Instant.now().plusSeconds(3600);
    for (int i = 1; i <= 5; i++) {
      put(t, item("p", Integer.toString(i), "expires", seconds(later)));
    }
    DynamoDbTables tables = new DynamoDbTables(db);
    tables.update(
        t,
        d -> d.withTtl(new DynamoDbTable.TimeToLive("expires", DynamoDbTable.TtlStatus.ENABLING)));
    // a pass that stopped after p/2 left its position
    String id2 = stored(t, "p", "2").orElseThrow().id();
    db.putSetting(
        viewbaseName(t),
        TtlPasses.PROGRESS,
        "{\"AttributeName\":\"expires\",\"TimeToLiveStatus\":\"ENABLING\",\"PartitionKey\":\"p\","
            + "\"Id\":\""
            + id2
            + "\"}");
    try (TtlPasses passes = new TtlPasses(db, tables)) {
      assertThat(passes.run(t)).isEqualTo(3);
    }
    for (String sk : List.of("1", "2")) {
      assertThat(stored(t, "p", sk).orElseThrow().properties())
          .doesNotContainKey(TimeToLive.PROPERTY);
    }
    for (String sk : List.of("3", "4", "5")) {
      assertThat(stored(t, "p", sk).orElseThrow().properties()).containsKey(TimeToLive.PROPERTY);
    }
    assertThat(db.setting(viewbaseName(t), TtlPasses.PROGRESS)).isEmpty();
    await(t, TimeToLiveStatus.ENABLED);
  }

  @Test
  void thePassReachesEveryItemOverManyPages() {
    String t = table(null);
    Instant later = Instant.now().plusSeconds(3600);
    int count = 2 * TtlPasses.PAGE + 100;
    List<WriteRequest> writes = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Map<String, AttributeValue> written =
          item("p" + (i % 7), Integer.toString(i), "expires", seconds(later));
      writes.add(WriteRequest.builder().putRequest(p -> p.item(written)).build());
      if (writes.size() == 25 || i == count - 1) {
        var batch = List.copyOf(writes);
        client.batchWriteItem(b -> b.requestItems(Map.of(t, batch)));
        writes.clear();
      }
    }
    enable(t, "expires");
    long withTtl = 0;
    try (var cursor = db.table(viewbaseName(t)).cursor(Query.all())) {
      while (cursor.hasNext()) {
        if (cursor.next().properties().containsKey(TimeToLive.PROPERTY)) {
          withTtl++;
        }
      }
    }
    assertThat(withTtl).isEqualTo(count);
  }

  @Test
  void aWriteOverAnExpiredItemIsTheServicesRemoveThenAnInsert() {
    String t = table(StreamViewType.NEW_AND_OLD_IMAGES);
    enable(t, "expires");
    put(t, item("p", "1", "v", s("old"), "expires", seconds(Instant.now().minusSeconds(60))));
    put(t, item("p", "1", "v", s("new")));
    assertThat(get(t, "p", "1").orElseThrow()).containsEntry("v", s("new"));
    assertThat(db.expire(viewbaseName(t))).isZero();
    List<Record> records = SdkTables.all(streams, SdkTables.streamArn(client, t));
    assertThat(records)
        .extracting(Record::eventNameAsString)
        .containsExactly("INSERT", "REMOVE", "INSERT");
    assertThat(records.get(1).userIdentity().principalId()).isEqualTo("dynamodb.amazonaws.com");
    assertThat(records.get(1).dynamodb().oldImage()).containsEntry("v", s("old"));
    assertThat(records.get(2).dynamodb().hasOldImage()).isFalse();
    assertThat(records.get(2).dynamodb().newImage()).containsEntry("v", s("new"));
  }
}
