package io.viewbase.server.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.TableOptions;
import io.viewbase.api.Viewbase;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ExpiredIteratorException;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.SequenceNumberRange;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamDescription;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamStatus;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TrimmedDataAccessException;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * DynamoDB Streams through the AWS SDK for Java v2's {@code DynamoDbStreamsClient}, against a real
 * server: every kind of write as one record in commit order with the images its view type asks for,
 * the four iterator types, paging, trimmed and expired iterators, and a stream's life through
 * UpdateTable. Subclasses choose the storage backend.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class DynamoDbStreamsContract {
  private static final String ARN =
      "arn:aws:dynamodb:us-east-1:000000000000:table/%s/stream/\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}";

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
    String name = "streams-" + tables.incrementAndGet() + "_t";
    SdkTables.create(client, name, viewType);
    return name;
  }

  private static AttributeValue s(String v) {
    return AttributeValue.fromS(v);
  }

  private static AttributeValue n(String v) {
    return AttributeValue.fromN(v);
  }

  private static Map<String, AttributeValue> item(String pk, String sk, String v) {
    Map<String, AttributeValue> item = new LinkedHashMap<>();
    item.put("pk", s(pk));
    item.put("sk", n(sk));
    item.put("v", s(v));
    return item;
  }

  private static Map<String, AttributeValue> key(String pk, String sk) {
    Map<String, AttributeValue> key = new LinkedHashMap<>();
    key.put("pk", s(pk));
    key.put("sk", n(sk));
    return key;
  }

  private void put(String t, Map<String, AttributeValue> item) {
    client.putItem(b -> b.tableName(t).item(item));
  }

  /** What one record says, for comparing a stream with what the writes should have made. */
  private record Seen(
      String event, Map<String, AttributeValue> keys, String newV, String oldV, boolean service) {}

  private static Seen seen(Record r) {
    var d = r.dynamodb();
    return new Seen(
        r.eventNameAsString(),
        d.keys(),
        d.hasNewImage() ? d.newImage().get("v").s() : null,
        d.hasOldImage() ? d.oldImage().get("v").s() : null,
        r.userIdentity() != null);
  }

  @ParameterizedTest
  @EnumSource(
      value = StreamViewType.class,
      names = {"KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES"})
  void everyWriteIsOneRecordInCommitOrderWithTheImagesOfItsViewType(StreamViewType viewType) {
    String t = table(viewType);
    put(t, item("a", "1", "a1")); // put new
    put(t, item("a", "1", "a2")); // put over
    client.updateItem(
        b ->
            b.tableName(t)
                .key(key("a", "1"))
                .updateExpression("SET v = :v")
                .expressionAttributeValues(Map.of(":v", s("a3"))));
    client.deleteItem(b -> b.tableName(t).key(key("a", "1")));
    client.batchWriteItem(
        b ->
            b.requestItems(
                Map.of(
                    t,
                    List.of(
                        WriteRequest.builder()
                            .putRequest(PutRequest.builder().item(item("b", "1", "b1")).build())
                            .build(),
                        WriteRequest.builder()
                            .putRequest(PutRequest.builder().item(item("b", "2", "b2")).build())
                            .build()))));
    client.transactWriteItems(
        b ->
            b.transactItems(
                TransactWriteItem.builder()
                    .put(p -> p.tableName(t).item(item("c", "1", "c1")))
                    .build(),
                TransactWriteItem.builder()
                    .update(
                        u ->
                            u.tableName(t)
                                .key(key("b", "1"))
                                .updateExpression("SET v = :v")
                                .expressionAttributeValues(Map.of(":v", s("b1x"))))
                    .build(),
                TransactWriteItem.builder()
                    .delete(d -> d.tableName(t).key(key("b", "2")))
                    .build()));
    // writes that change nothing make no record, as on DynamoDB
    put(t, item("c", "1", "c1"));
    client.deleteItem(b -> b.tableName(t).key(key("nobody", "1")));
    assertThatThrownBy(
            () ->
                client.putItem(
                    b ->
                        b.tableName(t)
                            .item(item("c", "1", "never"))
                            .conditionExpression("attribute_not_exists(pk)")))
        .isInstanceOf(ConditionalCheckFailedException.class);

    List<Record> records = SdkTables.all(streams, SdkTables.streamArn(client, t));

    boolean news =
        viewType == StreamViewType.NEW_IMAGE || viewType == StreamViewType.NEW_AND_OLD_IMAGES;
    boolean olds =
        viewType == StreamViewType.OLD_IMAGE || viewType == StreamViewType.NEW_AND_OLD_IMAGES;
    List<Seen> expected =
        List.of(
            new Seen("INSERT", key("a", "1"), news ? "a1" : null, null, false),
            new Seen("MODIFY", key("a", "1"), news ? "a2" : null, olds ? "a1" : null, false),
            new Seen("MODIFY", key("a", "1"), news ? "a3" : null, olds ? "a2" : null, false),
            new Seen("REMOVE", key("a", "1"), null, olds ? "a3" : null, false),
            new Seen("INSERT", key("b", "1"), news ? "b1" : null, null, false),
            new Seen("INSERT", key("b", "2"), news ? "b2" : null, null, false),
            new Seen("INSERT", key("c", "1"), news ? "c1" : null, null, false),
            new Seen("MODIFY", key("b", "1"), news ? "b1x" : null, olds ? "b1" : null, false),
            new Seen("REMOVE", key("b", "2"), null, olds ? "b2" : null, false));
    assertThat(records.stream().map(DynamoDbStreamsContract::seen).toList())
        .containsExactlyElementsOf(expected);

    BigInteger previous = BigInteger.ZERO;
    for (Record r : records) {
      assertThat(r.eventSource()).isEqualTo("aws:dynamodb");
      assertThat(r.eventVersion()).isEqualTo("1.1");
      assertThat(r.awsRegion()).isEqualTo("us-east-1");
      assertThat(r.eventID()).matches("[0-9a-f]{32}");
      assertThat(r.dynamodb().streamViewType()).isEqualTo(viewType);
      assertThat(r.dynamodb().sizeBytes()).isPositive();
      assertThat(r.dynamodb().approximateCreationDateTime())
          .isBetween(Instant.now().minusSeconds(120), Instant.now().plusSeconds(1));
      String sequence = r.dynamodb().sequenceNumber();
      assertThat(sequence).hasSizeGreaterThanOrEqualTo(21).containsOnlyDigits();
      assertThat(new BigInteger(sequence)).isGreaterThan(previous);
      previous = new BigInteger(sequence);
      if (r.dynamodb().hasNewImage()) {
        assertThat(r.dynamodb().newImage()).containsOnlyKeys("pk", "sk", "v");
      }
    }
    // reading again gives the same records, ids included
    assertThat(SdkTables.all(streams, SdkTables.streamArn(client, t))).isEqualTo(records);
  }

  @Test
  void describeTableListStreamsAndDescribeStreamNameTheOneStream() {
    String t = table(StreamViewType.NEW_AND_OLD_IMAGES);
    var described = client.describeTable(b -> b.tableName(t)).table();
    String arn = described.latestStreamArn();
    assertThat(arn).matches(String.format(ARN, t.replace(".", "\\.")));
    assertThat(arn).endsWith("/stream/" + described.latestStreamLabel());
    assertThat(described.streamSpecification().streamViewType())
        .isEqualTo(StreamViewType.NEW_AND_OLD_IMAGES);

    assertThat(streams.listStreams(b -> b.tableName(t)).streams())
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.streamArn()).isEqualTo(arn);
              assertThat(s.tableName()).isEqualTo(t);
              assertThat(s.streamLabel()).isEqualTo(described.latestStreamLabel());
            });
    assertThat(streams.listStreams().streams()).anyMatch(s -> s.streamArn().equals(arn));
    String other = table(null);
    assertThat(streams.listStreams(b -> b.tableName(other)).streams()).isEmpty();
    assertThat(streams.listStreams().streams()).noneMatch(s -> s.tableName().equals(other));

    StreamDescription d = streams.describeStream(b -> b.streamArn(arn)).streamDescription();
    assertThat(d.streamArn()).isEqualTo(arn);
    assertThat(d.streamStatus()).isEqualTo(StreamStatus.ENABLED);
    assertThat(d.streamViewType()).isEqualTo(StreamViewType.NEW_AND_OLD_IMAGES);
    assertThat(d.tableName()).isEqualTo(t);
    assertThat(d.keySchema()).hasSize(2);
    assertThat(d.keySchema().get(0).attributeName()).isEqualTo("pk");
    assertThat(d.creationRequestDateTime())
        .isBetween(Instant.now().minusSeconds(120), Instant.now().plusSeconds(1));
    assertThat(d.shards()).hasSize(1);
    assertThat(d.shards().get(0).shardId()).matches("shardId-\\d{20}-[0-9a-f]{8}");
    SequenceNumberRange range = d.shards().get(0).sequenceNumberRange();
    assertThat(range.startingSequenceNumber()).hasSize(21);
    assertThat(range.endingSequenceNumber()).isNull();
    String shard = d.shards().get(0).shardId();
    assertThat(
            streams
                .describeStream(b -> b.streamArn(arn).exclusiveStartShardId(shard))
                .streamDescription()
                .shards())
        .isEmpty();

    put(t, item("a", "1", "x"));
    Record first = SdkTables.all(streams, arn).get(0);
    assertThat(first.dynamodb().sequenceNumber()).isEqualTo(range.startingSequenceNumber());
  }

  @Test
  void listStreamsPagesByTable() {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      names.add(table(StreamViewType.KEYS_ONLY));
    }
    List<String> listed = new ArrayList<>();
    String start = null;
    do {
      String from = start;
      var page = streams.listStreams(b -> b.limit(1).exclusiveStartStreamArn(from));
      assertThat(page.streams()).hasSizeLessThanOrEqualTo(1);
      page.streams().forEach(s -> listed.add(s.tableName()));
      start = page.lastEvaluatedStreamArn();
    } while (start != null);
    assertThat(listed).containsAll(names).isSorted().doesNotHaveDuplicates();
  }

  @Test
  void eachIteratorTypeStartsWhereItSays() {
    String t = table(StreamViewType.KEYS_ONLY);
    String arn = SdkTables.streamArn(client, t);
    String latestBefore = SdkTables.iterator(streams, arn, ShardIteratorType.LATEST, null);
    put(t, item("a", "1", "x"));
    put(t, item("a", "2", "x"));
    put(t, item("a", "3", "x"));
    List<Record> all = SdkTables.all(streams, arn);
    assertThat(all).hasSize(3);
    String second = all.get(1).dynamodb().sequenceNumber();

    assertThat(SdkTables.readToEnd(streams, latestBefore)).isEqualTo(all);
    assertThat(
            SdkTables.readToEnd(
                streams,
                SdkTables.iterator(streams, arn, ShardIteratorType.AT_SEQUENCE_NUMBER, second)))
        .isEqualTo(all.subList(1, 3));
    assertThat(
            SdkTables.readToEnd(
                streams,
                SdkTables.iterator(streams, arn, ShardIteratorType.AFTER_SEQUENCE_NUMBER, second)))
        .isEqualTo(all.subList(2, 3));
    String latest = SdkTables.iterator(streams, arn, ShardIteratorType.LATEST, null);
    assertThat(streams.getRecords(b -> b.shardIterator(latest)).records()).isEmpty();
    put(t, item("a", "4", "x"));
    assertThat(SdkTables.readToEnd(streams, latest))
        .singleElement()
        .satisfies(r -> assertThat(r.dynamodb().keys()).isEqualTo(key("a", "4")));
  }

  @Test
  void pagesOfLimitRecordsFollowEachOtherThroughNextShardIterator() {
    String t = table(StreamViewType.NEW_IMAGE);
    for (int i = 0; i < 25; i++) {
      put(t, item("p", Integer.toString(i), "v" + i));
    }
    String arn = SdkTables.streamArn(client, t);
    String iterator = SdkTables.iterator(streams, arn, ShardIteratorType.TRIM_HORIZON, null);
    List<Integer> sizes = new ArrayList<>();
    List<String> values = new ArrayList<>();
    while (true) {
      String at = iterator;
      GetRecordsResponse page = streams.getRecords(b -> b.shardIterator(at).limit(7));
      assertThat(page.nextShardIterator()).isNotNull();
      iterator = page.nextShardIterator();
      if (page.records().isEmpty()) {
        break;
      }
      sizes.add(page.records().size());
      page.records().forEach(r -> values.add(r.dynamodb().newImage().get("v").s()));
    }
    assertThat(sizes).containsExactly(7, 7, 7, 4);
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      expected.add("v" + i);
    }
    assertThat(values).isEqualTo(expected);
    // the last iterator waits where the stream ends: the next write is its next record
    put(t, item("p", "99", "late"));
    String last = iterator;
    assertThat(streams.getRecords(b -> b.shardIterator(last)).records())
        .singleElement()
        .satisfies(r -> assertThat(r.eventName()).isEqualTo(OperationType.INSERT));
    assertThatThrownBy(() -> streams.getRecords(b -> b.shardIterator(last).limit(1001)))
        .isInstanceOf(DynamoDbException.class)
        .hasMessageContaining("Member must have value less than or equal to 1000");
  }

  @Test
  void positionsRetentionDroppedAnswerTrimmedDataAccess() {
    String t = table(StreamViewType.KEYS_ONLY);
    String arn = SdkTables.streamArn(client, t);
    put(t, item("a", "1", "x"));
    String first = SdkTables.all(streams, arn).get(0).dynamodb().sequenceNumber();
    String horizon = SdkTables.iterator(streams, arn, ShardIteratorType.TRIM_HORIZON, null);
    // keep three entries at most: every later write drops the oldest at once
    String viewbaseName = new DynamoDbTables(db).describe(t).viewbaseName();
    TableOptions options = db.tableOptions(viewbaseName);
    db.alterTable(
        viewbaseName,
        options.withChangeFeed(
            options.changeFeed().withRetention(options.changeFeed().retention(), 3)));
    for (int i = 2; i <= 6; i++) {
      put(t, item("a", Integer.toString(i), "x"));
    }
    assertThatThrownBy(() -> streams.getRecords(b -> b.shardIterator(horizon)))
        .isInstanceOf(TrimmedDataAccessException.class);
    assertThatThrownBy(
            () -> SdkTables.iterator(streams, arn, ShardIteratorType.AT_SEQUENCE_NUMBER, first))
        .isInstanceOf(TrimmedDataAccessException.class);
    // TRIM_HORIZON moves with retention: it reads the three entries held
    assertThat(SdkTables.all(streams, arn))
        .extracting(r -> r.dynamodb().keys().get("sk").n())
        .containsExactly("4", "5", "6");
  }

  @Test
  void anIteratorOlderThanFifteenMinutesIsExpiredAndATamperedOneInvalid() {
    String t = table(StreamViewType.KEYS_ONLY);
    String arn = SdkTables.streamArn(client, t);
    DynamoDbTable described = new DynamoDbTables(db).describe(t);
    ShardIterators sixteenMinutesAgo =
        new ShardIterators(
            db, Clock.fixed(Instant.now().minus(Duration.ofMinutes(16)), ZoneOffset.UTC));
    ShardIterators.Position position =
        new ShardIterators.Position(
            t, described.tableId(), described.stream().label(), 0, sixteenMinutesAgo.now());
    String old = sixteenMinutesAgo.issue(arn, position);
    assertThatThrownBy(() -> streams.getRecords(b -> b.shardIterator(old)))
        .isInstanceOf(ExpiredIteratorException.class)
        .hasMessageContaining("Iterator expired");
    ShardIterators fourteenMinutesAgo =
        new ShardIterators(
            db, Clock.fixed(Instant.now().minus(Duration.ofMinutes(14)), ZoneOffset.UTC));
    String young =
        fourteenMinutesAgo.issue(
            arn,
            new ShardIterators.Position(
                t, described.tableId(), described.stream().label(), 0, fourteenMinutesAgo.now()));
    assertThat(streams.getRecords(b -> b.shardIterator(young)).records()).isEmpty();

    String good = SdkTables.iterator(streams, arn, ShardIteratorType.LATEST, null);
    char last = good.charAt(good.length() - 1);
    String tampered = good.substring(0, good.length() - 1) + (last == 'A' ? 'B' : 'A');
    assertThatThrownBy(() -> streams.getRecords(b -> b.shardIterator(tampered)))
        .isInstanceOf(DynamoDbException.class)
        .hasMessageContaining("Invalid ShardIterator");
    String forged; // signed with another database's key
    try (Database other = Viewbase.open(OpenOptions.inMemory())) {
      forged =
          new ShardIterators(other, Clock.systemUTC())
              .issue(
                  arn,
                  new ShardIterators.Position(
                      t, described.tableId(), described.stream().label(), 0, Instant.now()));
    }
    assertThatThrownBy(() -> streams.getRecords(b -> b.shardIterator(forged)))
        .isInstanceOf(DynamoDbException.class)
        .hasMessageContaining("Invalid ShardIterator");
  }

  @Test
  void streamsAndShardsThatDoNotExistAreNotFound() {
    String t = table(StreamViewType.KEYS_ONLY);
    String arn = SdkTables.streamArn(client, t);
    String shard = SdkTables.shardId(streams, arn);
    assertThatThrownBy(
            () -> streams.describeStream(b -> b.streamArn(arn.replace("/stream/2", "/stream/1"))))
        .isInstanceOf(ResourceNotFoundException.class)
        .hasMessageContaining("Requested resource not found: Stream:");
    assertThatThrownBy(
            () ->
                streams.describeStream(
                    b ->
                        b.streamArn(
                            "arn:aws:dynamodb:us-east-1:000000000000:table/nothing/stream/x")))
        .isInstanceOf(ResourceNotFoundException.class);
    assertThatThrownBy(
            () ->
                streams.getShardIterator(
                    b ->
                        b.streamArn(arn)
                            .shardId("shardId-00000000000000000000-00000000")
                            .shardIteratorType(ShardIteratorType.TRIM_HORIZON)))
        .isInstanceOf(ResourceNotFoundException.class);
    assertThatThrownBy(
            () ->
                streams.getShardIterator(
                    b ->
                        b.streamArn(arn)
                            .shardId(shard)
                            .shardIteratorType(ShardIteratorType.AT_SEQUENCE_NUMBER)))
        .isInstanceOf(DynamoDbException.class)
        .hasMessageContaining("SequenceNumber");
    assertThatThrownBy(
            () ->
                SdkTables.iterator(
                    streams,
                    arn,
                    ShardIteratorType.AFTER_SEQUENCE_NUMBER,
                    StreamNames.sequenceNumber(1000)))
        .isInstanceOf(DynamoDbException.class)
        .hasMessageContaining("Invalid SequenceNumber");
    assertThatThrownBy(() -> streams.listStreams(b -> b.tableName("no-such-table")))
        .isInstanceOf(ResourceNotFoundException.class);
  }

  @Test
  void aStreamDisabledEndsAndOneEnabledAgainBeginsAfresh() {
    String t = table(null);
    put(t, item("a", "1", "before the stream"));
    assertThat(client.describeTable(b -> b.tableName(t)).table().latestStreamArn()).isNull();
    enable(t, StreamViewType.NEW_AND_OLD_IMAGES);
    String arn = SdkTables.streamArn(client, t);
    assertThat(SdkTables.all(streams, arn)).isEmpty();
    put(t, item("a", "1", "first"));
    put(t, item("a", "2", "second"));
    List<Record> records = SdkTables.all(streams, arn);
    // the item written before the stream was there: the stream knows it was an update
    assertThat(records).extracting(Record::eventNameAsString).containsExactly("MODIFY", "INSERT");
    assertThat(records.get(0).dynamodb().oldImage().get("v").s()).isEqualTo("before the stream");
    String iterator = SdkTables.iterator(streams, arn, ShardIteratorType.TRIM_HORIZON, null);

    client.updateTable(
        b ->
            b.tableName(t)
                .streamSpecification(StreamSpecification.builder().streamEnabled(false).build()));
    assertThat(client.describeTable(b -> b.tableName(t)).table().latestStreamArn()).isNull();
    assertThatThrownBy(() -> streams.describeStream(b -> b.streamArn(arn)))
        .isInstanceOf(ResourceNotFoundException.class);
    assertThatThrownBy(() -> streams.getRecords(b -> b.shardIterator(iterator)))
        .isInstanceOf(ResourceNotFoundException.class);
    String viewbaseName = new DynamoDbTables(db).describe(t).viewbaseName();
    assertThat(db.tableOptions(viewbaseName).changeFeed().enabled()).isFalse();
    put(t, item("a", "3", "while disabled"));

    enable(t, StreamViewType.KEYS_ONLY);
    String again = SdkTables.streamArn(client, t);
    assertThat(again).isNotEqualTo(arn);
    assertThat(SdkTables.all(streams, again)).isEmpty();
    put(t, item("a", "4", "after"));
    assertThat(SdkTables.all(streams, again))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.dynamodb().keys()).isEqualTo(key("a", "4"));
              assertThat(r.dynamodb().hasNewImage()).isFalse();
              assertThat(r.dynamodb().hasOldImage()).isFalse();
            });
  }

  private void enable(String t, StreamViewType viewType) {
    client.updateTable(
        b ->
            b.tableName(t)
                .streamSpecification(
                    StreamSpecification.builder()
                        .streamEnabled(true)
                        .streamViewType(viewType)
                        .build()));
  }
}
