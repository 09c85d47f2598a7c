package io.viewbase.server.dynamodb;

import io.viewbase.api.Change;
import io.viewbase.api.ChangePage;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Table;
import io.viewbase.api.ViewbaseException;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * DynamoDB Streams ({@code X-Amz-Target: DynamoDBStreams_20120810.*}), served from each table's
 * change feed ({@link StreamFeeds}): a table with an enabled stream has one stream, its label the
 * one DescribeTable shows, with one shard that never closes, since the feed is one ordered
 * sequence.
 *
 * <pre>
 * operation         | answers
 * ------------------+-------------------------------------------------------------------------------
 * ListStreams       | the enabled stream of every table (or of TableName), by table name; Limit
 *                   |   1..100, ExclusiveStartStreamArn, LastEvaluatedStreamArn
 * DescribeStream    | ENABLED, the view type, the table's key schema, the one shard with its
 *                   |   StartingSequenceNumber and no EndingSequenceNumber
 * GetShardIterator  | an iterator ({@link ShardIterators}) after: the oldest entry held
 *                   |   (TRIM_HORIZON), the latest (LATEST), the entry before N
 *                   |   (AT_SEQUENCE_NUMBER N), N (AFTER_SEQUENCE_NUMBER N)
 * GetRecords        | up to Limit (1..1000, default 1000) records after the iterator's position, at
 *                   |   most 1 MB of them ({@link StreamRecords}), and NextShardIterator after the
 *                   |   last entry read (the same position when none)
 * </pre>
 *
 * <pre>
 * refusal                                                            | exception
 * -------------------------------------------------------------------+--------------------------------
 * an ARN naming no table, a table without an enabled stream, or     | ResourceNotFoundException
 *   another label (a stream disabled, or replaced by a new one)      |   "Stream: ARN not found"
 * a ShardId other than the stream's one                              | ResourceNotFoundException
 * a SequenceNumber that is no entry of this stream (not a number,    | ValidationException
 *   before the stream began, after its latest record)                |
 * an iterator, or a sequence number, the feed's retention has passed | TrimmedDataAccessException
 * an iterator issued over 15 minutes ago / not issued here           | ExpiredIteratorException /
 *                                                                    |   ValidationException
 * </pre>
 */
final class StreamOperations {
  private static final int MAX_RECORD_BYTES = 1024 * 1024;
  private static final DateTimeFormatter LABEL =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS", Locale.ROOT);

  private final Database db;
  private final DynamoDbTables tables;
  private final ShardIterators iterators;

  StreamOperations(Database db, DynamoDbTables tables, Clock clock) {
    this.db = db;
    this.tables = tables;
    this.iterators = new ShardIterators(db, clock);
  }

  /** The operations by name. */
  Map<String, DynamoDbOperation> operations() {
    Map<String, DynamoDbOperation> ops = new LinkedHashMap<>();
    ops.put("ListStreams", (body, call) -> listStreams(RequestTree.of(body), call));
    ops.put("DescribeStream", (body, call) -> describeStream(RequestTree.of(body), call));
    ops.put("GetShardIterator", (body, call) -> getShardIterator(RequestTree.of(body), call));
    ops.put("GetRecords", (body, call) -> getRecords(RequestTree.of(body), call));
    return ops;
  }

  // ---- ListStreams ----

  Object listStreams(RequestTree r, CallContext call) {
    String start = r.string("ExclusiveStartStreamArn");
    Long limit = r.number("Limit");
    String tableName = r.string("TableName");
    Violations v = new Violations();
    v.length(start, "exclusiveStartStreamArn", 37, 1024);
    v.range(limit, "limit", 1, 100);
    if (tableName != null) {
      v.pattern(tableName, "tableName", TableRequests.NAME, TableRequests.NAME_SHOWN);
      v.length(tableName, "tableName", 3, 255);
    }
    v.check();
    List<DynamoDbTable> candidates =
        tableName != null ? List.of(tables.describe(tableName)) : tables.list();
    String after = start == null ? null : StreamNames.parse(start).map(a -> a.table()).orElse("");
    int max = limit == null ? 100 : limit.intValue();
    List<Object> streams = new ArrayList<>();
    String last = null;
    boolean more = false;
    for (DynamoDbTable t : candidates) {
      if (!streaming(t) || after != null && t.name().compareTo(after) <= 0) {
        continue;
      }
      if (streams.size() == max) {
        more = true;
        break;
      }
      last = StreamNames.arn(call, t);
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("StreamArn", last);
      s.put("TableName", t.name());
      s.put("StreamLabel", t.stream().label());
      streams.add(s);
    }
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("Streams", streams);
    if (more) {
      answer.put("LastEvaluatedStreamArn", last);
    }
    return answer;
  }

  // ---- DescribeStream ----

  Object describeStream(RequestTree r, CallContext call) {
    String arn = r.string("StreamArn");
    Long limit = r.number("Limit");
    String startShard = r.string("ExclusiveStartShardId");
    Violations v = new Violations();
    checkArn(v, arn);
    v.range(limit, "limit", 1, 100);
    v.length(startShard, "exclusiveStartShardId", 28, 65);
    v.check();
    DynamoDbTable t = stream(arn);
    List<Object> shards = new ArrayList<>();
    String shardId = StreamNames.shardId(t);
    if (!shardId.equals(startShard)) {
      Map<String, Object> shard = new LinkedHashMap<>();
      shard.put("ShardId", shardId);
      shard.put(
          "SequenceNumberRange",
          Map.of(
              "StartingSequenceNumber", StreamNames.sequenceNumber(t.stream().startAfter() + 1)));
      shards.add(shard);
    }
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("StreamArn", arn);
    d.put("StreamLabel", t.stream().label());
    d.put("StreamStatus", "ENABLED");
    d.put("StreamViewType", t.stream().viewType());
    d.put("CreationRequestDateTime", labelSeconds(t.stream().label()));
    d.put("TableName", t.name());
    List<Object> keySchema = new ArrayList<>();
    keySchema.add(
        TableDescriptions.pair("AttributeName", t.key().hash().name(), "KeyType", "HASH"));
    if (t.key().range() != null) {
      keySchema.add(
          TableDescriptions.pair("AttributeName", t.key().range().name(), "KeyType", "RANGE"));
    }
    d.put("KeySchema", keySchema);
    d.put("Shards", shards);
    return Map.of("StreamDescription", d);
  }

  // ---- GetShardIterator ----

  Object getShardIterator(RequestTree r, CallContext call) {
    String arn = r.string("StreamArn");
    String shardId = r.string("ShardId");
    String type = r.string("ShardIteratorType");
    String sequence = r.string("SequenceNumber");
    Violations v = new Violations();
    checkArn(v, arn);
    v.notNull(shardId, "shardId");
    v.length(shardId, "shardId", 28, 65);
    v.notNull(type, "shardIteratorType");
    v.oneOf(
        type,
        "shardIteratorType",
        List.of("TRIM_HORIZON", "LATEST", "AT_SEQUENCE_NUMBER", "AFTER_SEQUENCE_NUMBER"));
    v.length(sequence, "sequenceNumber", 21, 40);
    v.check();
    DynamoDbTable t = stream(arn);
    if (!StreamNames.shardId(t).equals(shardId)) {
      throw ViewbaseException.of(ErrorCode.ResourceNotFound, "Shard does not exist");
    }
    long start = t.stream().startAfter();
    StreamFeeds.Bounds bounds = StreamFeeds.bounds(items(t), start);
    long after =
        switch (type) {
          case "TRIM_HORIZON" -> Math.max(start, bounds.oldest() - 1);
          case "LATEST" -> bounds.latest();
          default -> {
            long n = sequence(t, sequence, shardId, start, bounds);
            yield type.equals("AT_SEQUENCE_NUMBER") ? n - 1 : n;
          }
        };
    if (after + 1 < bounds.oldest()) {
      throw trimmed();
    }
    ShardIterators.Position p =
        new ShardIterators.Position(
            t.name(), t.tableId(), t.stream().label(), after, iterators.now());
    return Map.of("ShardIterator", iterators.issue(arn, p));
  }

  /** The feed entry a request's SequenceNumber names, checked to be one of this stream's. */
  private static long sequence(
      DynamoDbTable t, String sequence, String shardId, long start, StreamFeeds.Bounds bounds) {
    if (sequence == null) {
      throw ViewbaseException.of(
          ErrorCode.ValidationFailure,
          "Must specify a SequenceNumber with the shard iterator types AT_SEQUENCE_NUMBER and"
              + " AFTER_SEQUENCE_NUMBER");
    }
    OptionalLong n = StreamNames.feedSequence(sequence);
    if (n.isEmpty() || n.getAsLong() <= start || n.getAsLong() > bounds.latest()) {
      throw ViewbaseException.of(
          ErrorCode.ValidationFailure,
          "Invalid SequenceNumber "
              + sequence
              + " for shard "
              + shardId
              + " of the stream of table "
              + t.name());
    }
    return n.getAsLong();
  }

  // ---- GetRecords ----

  Object getRecords(RequestTree r, CallContext call) {
    String iterator = r.string("ShardIterator");
    Long limit = r.number("Limit");
    Violations v = new Violations();
    v.notNull(iterator, "shardIterator");
    v.length(iterator, "shardIterator", 1, 2048);
    v.range(limit, "limit", 1, ChangePage.MAX_LIMIT);
    v.check();
    ShardIterators.Position p = iterators.read(iterator);
    DynamoDbTable t =
        tables
            .find(p.table())
            .filter(
                found ->
                    streaming(found)
                        && found.tableId().equals(p.tableId())
                        && found.stream().label().equals(p.label()))
            .orElseThrow(() -> streamNotFound(call.tableArn(p.table()) + "/stream/" + p.label()));
    ChangePage page;
    try {
      page = items(t).changes(p.after(), limit == null ? ChangePage.MAX_LIMIT : limit.intValue());
    } catch (ViewbaseException e) {
      throw e.code() == ErrorCode.ChangesExpired ? trimmed() : e;
    }
    List<Object> records = new ArrayList<>();
    long next = p.after();
    long bytes = 0;
    for (Change c : page.changes()) {
      Map<String, Object> record = StreamRecords.record(t, c, call.region());
      if (record != null) {
        long size = StreamRecords.size(record);
        if (!records.isEmpty() && bytes + size > MAX_RECORD_BYTES) {
          break;
        }
        bytes += size;
        records.add(record);
      }
      next = c.sequence();
    }
    String arn = iterator.substring(0, Math.max(0, iterator.indexOf('|')));
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("Records", records);
    answer.put(
        "NextShardIterator",
        iterators.issue(
            arn.isEmpty() ? StreamNames.arn(call, t) : arn, p.at(next, iterators.now())));
    return answer;
  }

  // ---- shared ----

  private Table items(DynamoDbTable t) {
    return db.table(t.viewbaseName());
  }

  private static boolean streaming(DynamoDbTable t) {
    return t.stream() != null && t.stream().enabled();
  }

  /** The table whose enabled stream an ARN names, or ResourceNotFoundException. */
  private DynamoDbTable stream(String arn) {
    Optional<StreamNames.Arn> named = StreamNames.parse(arn);
    return named
        .flatMap(a -> tables.find(a.table()))
        .filter(t -> streaming(t) && t.stream().label().equals(named.get().label()))
        .orElseThrow(() -> streamNotFound(arn));
  }

  private static void checkArn(Violations v, String arn) {
    v.notNull(arn, "streamArn");
    v.length(arn, "streamArn", 37, 1024);
  }

  private static BigDecimal labelSeconds(String label) {
    try {
      long millis = LocalDateTime.parse(label, LABEL).toInstant(ZoneOffset.UTC).toEpochMilli();
      return BigDecimal.valueOf(millis, 3);
    } catch (DateTimeParseException e) {
      return BigDecimal.ZERO;
    }
  }

  private static ViewbaseException streamNotFound(String arn) {
    return ViewbaseException.of(ErrorCode.ResourceNotFound, "Stream: " + arn + " not found");
  }

  private static ViewbaseException trimmed() {
    return ViewbaseException.of(
        ErrorCode.TrimmedDataAccess, "The data you are trying to access has been trimmed");
  }
}
