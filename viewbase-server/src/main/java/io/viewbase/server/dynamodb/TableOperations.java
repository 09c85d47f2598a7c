package io.viewbase.server.dynamodb;

import static io.viewbase.server.dynamodb.TableRequests.failure;
import static io.viewbase.server.dynamodb.TableRequests.invalid;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Stability;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.dynamodb.DynamoDbTable.AttributeType;
import io.viewbase.server.dynamodb.DynamoDbTable.Index;
import io.viewbase.server.dynamodb.DynamoDbTable.KeySchema;
import io.viewbase.server.dynamodb.DynamoDbTable.Sse;
import io.viewbase.server.dynamodb.DynamoDbTable.Stream;
import io.viewbase.server.dynamodb.DynamoDbTable.Throughput;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The table operations of the DynamoDB dialect, each validated as DynamoDB validates it:
 *
 * <pre>
 * operation          | does                                                   | answers
 * -------------------+--------------------------------------------------------+------------------
 * CreateTable        | a Viewbase table and a copy view per index, then the   | TableDescription,
 *                    |   description ({@link DynamoDbTables#create}); answers |   ACTIVE
 *                    |   once the views can be read ({@link                   |
 *                    |   DynamoDbTables#awaitIndexes})                        |
 * DescribeTable      | reads the description, the index views' states and the | Table
 *                    |   counts                                               |
 * ListTables         | every DynamoDB table, by name, in pages of Limit       | TableNames,
 *                    |   (1..100) after ExclusiveStartTableName               |   LastEvaluated…
 * DeleteTable        | drops the Viewbase table, its views and its settings   | TableDescription,
 *                    |                                                        |   DELETING
 * UpdateTable        | a GSI Create is a new view, backfilled online; a GSI   | TableDescription,
 *                    |   Delete drops its view; billing, throughput, stream,  |   UPDATING
 *                    |   SSE, class, deletion protection are stored           |
 * TagResource,       | the tags of the table an ARN names, stored with it     | {}, {}, Tags
 *   UntagResource,   |                                                        |
 *   ListTagsOfResource                                                        |
 * DescribeLimits,    | DynamoDB Local's answers: its default limits, the      | as DynamoDB
 *   DescribeEndpoints,   request's own host, continuous backups on and point- |
 *   DescribeContinuousBackups   in-time recovery off                          |
 * </pre>
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class TableOperations {
  private static final int MAX_LOCAL = 5;
  private static final int MAX_GLOBAL = 20;
  private static final int MAX_PROJECTED = 100;
  private static final int MAX_TAGS = 50;
  private static final DateTimeFormatter LABEL =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS");

  private final DynamoDbTables tables;
  private final TableDescriptions descriptions;
  private final StreamFeeds feeds;
  private final Clock clock;

  public TableOperations(DynamoDbTables tables, Clock clock) {
    this.tables = tables;
    this.clock = clock;
    this.feeds = new StreamFeeds(tables.database());
    this.descriptions =
        new TableDescriptions(new TableStatistics(tables.database()), tables::indexStatus);
  }

  /** The operations by name. */
  public Map<String, DynamoDbOperation> operations() {
    Map<String, DynamoDbOperation> ops = new LinkedHashMap<>();
    ops.put("CreateTable", this::createTable);
    ops.put("DescribeTable", this::describeTable);
    ops.put("ListTables", this::listTables);
    ops.put("DeleteTable", this::deleteTable);
    ops.put("UpdateTable", this::updateTable);
    ops.put("TagResource", this::tagResource);
    ops.put("UntagResource", this::untagResource);
    ops.put("ListTagsOfResource", this::listTagsOfResource);
    ops.put("DescribeLimits", (request, call) -> describeLimits());
    ops.put("DescribeEndpoints", (request, call) -> describeEndpoints(call));
    ops.put("DescribeContinuousBackups", this::describeContinuousBackups);
    return ops;
  }

  // ---- CreateTable ----

  Object createTable(Map<String, Object> body, CallContext call) {
    RequestTree r = RequestTree.of(body);
    List<RequestTree> definitions = r.structures("AttributeDefinitions");
    String name = r.string("TableName");
    List<RequestTree> keySchema = r.structures("KeySchema");
    List<RequestTree> locals = r.structures("LocalSecondaryIndexes");
    List<RequestTree> globals = r.structures("GlobalSecondaryIndexes");
    String billing = r.string("BillingMode");
    RequestTree throughput = r.structure("ProvisionedThroughput");
    RequestTree stream = r.structure("StreamSpecification");
    RequestTree sse = r.structure("SSESpecification");
    List<RequestTree> tags = r.structures("Tags");
    String tableClass = r.string("TableClass");
    Boolean protection = r.bool("DeletionProtectionEnabled");

    Violations v = new Violations();
    v.notNull(definitions, "attributeDefinitions");
    TableRequests.checkDefinitions(v, definitions, "attributeDefinitions");
    TableRequests.checkTableName(v, name, "tableName");
    TableRequests.checkKeySchema(v, keySchema, "keySchema");
    checkIndexes(v, locals, "localSecondaryIndexes", false);
    checkIndexes(v, globals, "globalSecondaryIndexes", true);
    v.oneOf(
        billing, "billingMode", List.of(DynamoDbTable.PROVISIONED, DynamoDbTable.PAY_PER_REQUEST));
    TableRequests.checkThroughput(v, throughput, "provisionedThroughput");
    checkStream(v, stream);
    checkTags(v, tags, "tags");
    v.oneOf(tableClass, "tableClass", List.of("STANDARD", "STANDARD_INFREQUENT_ACCESS"));
    v.check();

    String mode = billing == null ? DynamoDbTable.PROVISIONED : billing;
    Throughput provisioned = billingThroughput(mode, throughput);
    Map<String, AttributeType> defined = TableRequests.definitions(definitions);
    KeySchema key = TableRequests.keySchema(keySchema, defined, null);
    if (locals == null && globals == null && key.names().size() != defined.size()) {
      throw invalid(
          "Number of attributes in KeySchema does not exactly match number of attributes defined"
              + " in AttributeDefinitions");
    }
    Instant now = clock.instant();
    Set<String> indexNames = new HashSet<>();
    List<Index> localIndexes = localIndexes(locals, key, defined, indexNames, now);
    List<Index> globalIndexes = new ArrayList<>();
    if (globals != null) {
      if (globals.isEmpty()) {
        throw invalid("List of GlobalSecondaryIndexes is empty");
      }
      for (RequestTree g : globals) {
        Index index = TableRequests.globalIndex(g, defined, mode, now);
        if (!indexNames.add(index.name())) {
          throw invalid("Duplicate index name: " + index.name());
        }
        globalIndexes.add(index);
      }
      if (globalIndexes.size() > MAX_GLOBAL) {
        throw invalid("GlobalSecondaryIndex count exceeds the per-table limit of " + MAX_GLOBAL);
      }
    }
    checkDefinitionsUsed(key, localIndexes, globalIndexes, defined);
    checkProjected(localIndexes, globalIndexes);
    Map<String, String> tagMap = tags(tags);
    checkTagCount(tagMap.size());

    DynamoDbTable draft =
        new DynamoDbTable(
            name,
            null,
            key,
            defined,
            globalIndexes,
            localIndexes,
            mode,
            provisioned,
            now,
            stream(stream, null, now, 0),
            sse(sse),
            tableClass,
            Boolean.TRUE.equals(protection),
            tagMap,
            UUID.randomUUID().toString(),
            null);
    DynamoDbTable created = tables.create(draft);
    tables.awaitIndexes(created);
    return Map.of("TableDescription", descriptions.describe(created, call, "ACTIVE", false));
  }

  private static void checkIndexes(
      Violations v, List<RequestTree> indexes, String path, boolean global) {
    if (indexes == null) {
      return;
    }
    for (int i = 0; i < indexes.size(); i++) {
      RequestTree index = indexes.get(i);
      String at = path + "." + (i + 1) + ".member";
      if (index == null) {
        v.notNull(null, at);
        continue;
      }
      TableRequests.checkIndexName(v, index.string("IndexName"), at + ".indexName");
      if (global) {
        TableRequests.checkIndexKeySchema(v, index.structures("KeySchema"), at + ".keySchema");
      } else {
        TableRequests.checkKeySchema(v, index.structures("KeySchema"), at + ".keySchema");
      }
      TableRequests.checkProjection(v, index.structure("Projection"), at + ".projection");
      if (global) {
        TableRequests.checkThroughput(
            v, index.structure("ProvisionedThroughput"), at + ".provisionedThroughput");
      }
    }
  }

  private static Throughput billingThroughput(String mode, RequestTree throughput) {
    if (mode.equals(DynamoDbTable.PAY_PER_REQUEST)) {
      if (throughput != null) {
        throw invalid(
            "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is"
                + " PAY_PER_REQUEST");
      }
      return null;
    }
    if (throughput == null) {
      throw invalid(
          "ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is"
              + " PROVISIONED");
    }
    return TableRequests.throughput(throughput);
  }

  private static List<Index> localIndexes(
      List<RequestTree> locals,
      KeySchema key,
      Map<String, AttributeType> defined,
      Set<String> indexNames,
      Instant now) {
    List<Index> out = new ArrayList<>();
    if (locals == null) {
      return out;
    }
    if (locals.isEmpty()) {
      throw invalid("List of LocalSecondaryIndexes is empty");
    }
    if (key.range() == null) {
      throw invalid(
          "Table KeySchema does not have a range key, which is required when specifying a"
              + " LocalSecondaryIndex");
    }
    for (RequestTree l : locals) {
      String name = l.string("IndexName");
      KeySchema indexKey = TableRequests.keySchema(l.structures("KeySchema"), defined, name);
      if (indexKey.range() == null) {
        throw invalid("Index KeySchema does not have a range key for index: " + name);
      }
      if (!indexKey.hash().name().equals(key.hash().name())) {
        throw invalid(
            "Index KeySchema does not have the same leading hash key as table KeySchema for"
                + " index: "
                + name
                + ". index hash key: "
                + indexKey.hash().name()
                + ", table hash key: "
                + key.hash().name());
      }
      DynamoDbTable.Projection projection = TableRequests.projection(l.structure("Projection"));
      if (!indexNames.add(name)) {
        throw invalid("Duplicate index name: " + name);
      }
      out.add(new Index(name, indexKey, projection, null, null, now));
    }
    if (out.size() > MAX_LOCAL) {
      throw invalid("Number of LocalSecondaryIndexes exceeds per-table limit of " + MAX_LOCAL);
    }
    return out;
  }

  /** With indexes, every definition must be a key of the table or of an index. */
  private static void checkDefinitionsUsed(
      KeySchema key, List<Index> locals, List<Index> globals, Map<String, AttributeType> defined) {
    Set<String> used = usedKeys(key, locals, globals);
    if (!used.containsAll(defined.keySet())) {
      throw invalid(
          "Some AttributeDefinitions are not used. AttributeDefinitions: ["
              + String.join(", ", defined.keySet())
              + "], keys used: ["
              + String.join(", ", used)
              + "]");
    }
  }

  private static Set<String> usedKeys(KeySchema key, List<Index> locals, List<Index> globals) {
    Set<String> used = new LinkedHashSet<>(key.names());
    for (Index i : locals) {
      used.addAll(i.key().names());
    }
    for (Index i : globals) {
      used.addAll(i.key().names());
    }
    return used;
  }

  private static void checkProjected(List<Index> locals, List<Index> globals) {
    int projected = 0;
    for (Index i : locals) {
      projected += i.projection().nonKeyAttributes().size();
    }
    for (Index i : globals) {
      projected += i.projection().nonKeyAttributes().size();
    }
    if (projected > MAX_PROJECTED) {
      throw invalid(
          "The number of attributes in key schemas and projections of all indexes exceeds the"
              + " limit of "
              + MAX_PROJECTED);
    }
  }

  private static void checkStream(Violations v, RequestTree stream) {
    if (stream == null) {
      return;
    }
    v.notNull(stream.bool("StreamEnabled"), "streamSpecification.streamEnabled");
    v.oneOf(
        stream.string("StreamViewType"),
        "streamSpecification.streamViewType",
        List.of("NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY"));
  }

  /**
   * A stream specification as stored: enabled with a view type, a new label and where it begins in
   * the table's change feed ({@link StreamFeeds#start}), or off.
   */
  private Stream stream(RequestTree spec, Stream before, Instant now, long startAfter) {
    if (spec == null) {
      return before;
    }
    boolean enabled = Boolean.TRUE.equals(spec.bool("StreamEnabled"));
    String viewType = spec.string("StreamViewType");
    if (enabled && viewType == null) {
      throw invalid("You must specify a StreamViewType when enabling a stream");
    }
    if (!enabled) {
      return new Stream(false, null, null, 0);
    }
    return new Stream(
        true, viewType, LABEL.format(LocalDateTime.ofInstant(now, ZoneOffset.UTC)), startAfter);
  }

  private static Sse sse(RequestTree spec) {
    if (spec == null) {
      return null;
    }
    return new Sse(
        !Boolean.FALSE.equals(spec.bool("Enabled")),
        spec.string("SSEType"),
        spec.string("KMSMasterKeyId"));
  }

  private static void checkTags(Violations v, List<RequestTree> tags, String path) {
    if (tags == null) {
      return;
    }
    for (int i = 0; i < tags.size(); i++) {
      RequestTree t = tags.get(i);
      String at = path + "." + (i + 1) + ".member";
      if (t == null) {
        v.notNull(null, at);
        continue;
      }
      v.notNull(t.string("Key"), at + ".key");
      v.length(t.string("Key"), at + ".key", 1, 128);
      v.notNull(t.string("Value"), at + ".value");
      v.length(t.string("Value"), at + ".value", 0, 256);
    }
  }

  private static Map<String, String> tags(List<RequestTree> tags) {
    Map<String, String> out = new LinkedHashMap<>();
    if (tags != null) {
      for (RequestTree t : tags) {
        out.put(t.string("Key"), t.string("Value"));
      }
    }
    return out;
  }

  private static void checkTagCount(int count) {
    if (count > MAX_TAGS) {
      throw failure(
          "One or more parameter values were invalid: The number of tags exceeds the limit of "
              + MAX_TAGS
              + " per resource");
    }
  }

  // ---- DescribeTable, ListTables, DeleteTable ----

  Object describeTable(Map<String, Object> body, CallContext call) {
    String name = tableName(body);
    return Map.of("Table", descriptions.describe(tables.describe(name), call, "ACTIVE", true));
  }

  Object listTables(Map<String, Object> body, CallContext call) {
    RequestTree r = RequestTree.of(body);
    String start = r.string("ExclusiveStartTableName");
    Long limit = r.number("Limit");
    Violations v = new Violations();
    v.pattern(start, "exclusiveStartTableName", TableRequests.NAME, TableRequests.NAME_SHOWN);
    v.length(start, "exclusiveStartTableName", 3, 255);
    v.range(limit, "limit", 1, 100);
    v.check();
    int max = limit == null ? 100 : limit.intValue();
    List<String> names = new ArrayList<>();
    boolean more = false;
    for (DynamoDbTable t : tables.list()) {
      if (start != null && t.name().compareTo(start) <= 0) {
        continue;
      }
      if (names.size() == max) {
        more = true;
        break;
      }
      names.add(t.name());
    }
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("TableNames", names);
    if (more) {
      answer.put("LastEvaluatedTableName", names.get(names.size() - 1));
    }
    return answer;
  }

  Object deleteTable(Map<String, Object> body, CallContext call) {
    String name = tableName(body);
    DynamoDbTable table = tables.describe(name);
    if (table.deletionProtection()) {
      throw failure(
          "Resource cannot be deleted as it is currently protected against deletion. Disable"
              + " deletion protection first.");
    }
    Map<String, Object> description = descriptions.describe(table, call, "DELETING", false);
    tables.delete(name);
    return Map.of("TableDescription", description);
  }

  // ---- UpdateTable ----

  Object updateTable(Map<String, Object> body, CallContext call) {
    RequestTree r = RequestTree.of(body);
    String name = r.string("TableName");
    List<RequestTree> definitions = r.structures("AttributeDefinitions");
    String billing = r.string("BillingMode");
    RequestTree throughput = r.structure("ProvisionedThroughput");
    List<RequestTree> updates = r.structures("GlobalSecondaryIndexUpdates");
    RequestTree stream = r.structure("StreamSpecification");
    RequestTree sse = r.structure("SSESpecification");
    String tableClass = r.string("TableClass");
    Boolean protection = r.bool("DeletionProtectionEnabled");

    Violations v = new Violations();
    TableRequests.checkTableName(v, name, "tableName");
    TableRequests.checkDefinitions(v, definitions, "attributeDefinitions");
    v.oneOf(
        billing, "billingMode", List.of(DynamoDbTable.PROVISIONED, DynamoDbTable.PAY_PER_REQUEST));
    TableRequests.checkThroughput(v, throughput, "provisionedThroughput");
    checkIndexUpdates(v, updates);
    checkStream(v, stream);
    v.oneOf(tableClass, "tableClass", List.of("STANDARD", "STANDARD_INFREQUENT_ACCESS"));
    v.check();
    if (billing == null
        && throughput == null
        && (updates == null || updates.isEmpty())
        && stream == null
        && sse == null
        && tableClass == null
        && protection == null
        && r.list("ReplicaUpdates") == null) {
      throw failure(
          "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled,"
              + " GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required");
    }
    if (r.list("ReplicaUpdates") != null) {
      throw ViewbaseException.of(
          ErrorCode.ValidationFailure,
          "Viewbase does not keep replicas of tables in other regions (ReplicaUpdates): every"
              + " region sees the same tables");
    }
    RequestTree create = null;
    String delete = null;
    List<RequestTree> throughputUpdates = new ArrayList<>();
    if (updates != null) {
      Set<String> named = new HashSet<>();
      int changes = 0;
      for (RequestTree u : updates) {
        RequestTree c = u.structure("Create");
        RequestTree d = u.structure("Delete");
        RequestTree up = u.structure("Update");
        if (c == null && d == null && up == null) {
          throw invalid(
              "One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create,"
                  + " GlobalSecondaryIndexUpdate.Delete must not be null");
        }
        String indexName =
            c != null
                ? c.string("IndexName")
                : d != null ? d.string("IndexName") : up.string("IndexName");
        if (!named.add(indexName)) {
          throw invalid(
              "Only one global secondary index update per index is allowed simultaneously. Index: "
                  + indexName);
        }
        if (c != null) {
          create = c;
          changes++;
        } else if (d != null) {
          delete = indexName;
          changes++;
        } else {
          throughputUpdates.add(up);
        }
      }
      if (changes > 1) {
        throw ViewbaseException.of(
            ErrorCode.LimitExceeded,
            "Subscriber limit exceeded: Only 1 online index can be created or deleted"
                + " simultaneously per table");
      }
    }
    Instant now = clock.instant();
    DynamoDbTable current = tables.describe(name);
    // Every other change is checked before an index is created or dropped, so that a refused
    // request changes nothing.
    settings(
        billing(current, billing, throughput, throughputUpdates),
        stream,
        sse,
        tableClass,
        protection,
        now,
        0);
    // A stream enabled is the table's change feed turned on first, so that the stream begins
    // where the feed stands then; one disabled turns it off once the description says so.
    boolean enabling = stream != null && Boolean.TRUE.equals(stream.bool("StreamEnabled"));
    boolean disabling =
        stream != null && !enabling && current.stream() != null && current.stream().enabled();
    long startAfter = enabling ? feeds.start(current) : 0;
    DynamoDbTable changed;
    if (create != null) {
      changed = createIndex(current, create, definitions, now);
    } else if (delete != null) {
      changed = dropIndex(current, delete);
    } else {
      changed = current;
    }
    RequestTree streamSpec = stream;
    changed =
        tables.update(
            name,
            t ->
                settings(
                    billing(t, billing, throughput, throughputUpdates),
                    streamSpec,
                    sse,
                    tableClass,
                    protection,
                    now,
                    startAfter));
    if (disabling) {
      feeds.stop(changed);
    }
    return Map.of("TableDescription", descriptions.describe(changed, call, "UPDATING", false));
  }

  private static void checkIndexUpdates(Violations v, List<RequestTree> updates) {
    if (updates == null) {
      return;
    }
    for (int i = 0; i < updates.size(); i++) {
      RequestTree u = updates.get(i);
      String at = "globalSecondaryIndexUpdates." + (i + 1) + ".member";
      if (u == null) {
        v.notNull(null, at);
        continue;
      }
      RequestTree c = u.structure("Create");
      if (c != null) {
        TableRequests.checkIndexName(v, c.string("IndexName"), at + ".create.indexName");
        TableRequests.checkIndexKeySchema(v, c.structures("KeySchema"), at + ".create.keySchema");
        TableRequests.checkProjection(v, c.structure("Projection"), at + ".create.projection");
        TableRequests.checkThroughput(
            v, c.structure("ProvisionedThroughput"), at + ".create.provisionedThroughput");
      }
      RequestTree d = u.structure("Delete");
      if (d != null) {
        TableRequests.checkIndexName(v, d.string("IndexName"), at + ".delete.indexName");
      }
      RequestTree up = u.structure("Update");
      if (up != null) {
        TableRequests.checkIndexName(v, up.string("IndexName"), at + ".update.indexName");
        v.notNull(up.structure("ProvisionedThroughput"), at + ".update.provisionedThroughput");
        TableRequests.checkThroughput(
            v, up.structure("ProvisionedThroughput"), at + ".update.provisionedThroughput");
      }
    }
  }

  private DynamoDbTable createIndex(
      DynamoDbTable table, RequestTree create, List<RequestTree> definitions, Instant now) {
    String indexName = create.string("IndexName");
    if (table.index(indexName).isPresent()) {
      throw failure("Attempting to create an index which already exists");
    }
    if (table.globalIndexes().size() >= MAX_GLOBAL) {
      throw ViewbaseException.of(
          ErrorCode.LimitExceeded,
          "GlobalSecondaryIndex count exceeds the per-table limit of " + MAX_GLOBAL);
    }
    Map<String, AttributeType> defined = new LinkedHashMap<>(table.attributes());
    Map<String, AttributeType> given =
        definitions == null ? Map.of() : TableRequests.definitions(definitions);
    for (Map.Entry<String, AttributeType> d : given.entrySet()) {
      AttributeType before = defined.get(d.getKey());
      if (before != null && before != d.getValue()) {
        throw invalid(
            "Cannot change the type of the key attribute "
                + d.getKey()
                + " from "
                + before
                + " to "
                + d.getValue());
      }
      defined.putIfAbsent(d.getKey(), d.getValue());
    }
    Index index = TableRequests.globalIndex(create, defined, table.billingMode(), now);
    Set<String> used = usedKeys(table.key(), table.localIndexes(), table.globalIndexes());
    used.addAll(index.key().names());
    defined.keySet().retainAll(used);
    List<Index> all = new ArrayList<>(table.globalIndexes());
    all.add(index);
    checkProjected(table.localIndexes(), all);
    return tables.addGlobalIndex(table.name(), index, defined);
  }

  private DynamoDbTable dropIndex(DynamoDbTable table, String indexName) {
    if (!table.isGlobal(indexName)) {
      throw ViewbaseException.of(
          ErrorCode.ResourceNotFound,
          "Table: " + table.name() + ", index: " + indexName + " not found");
    }
    List<Index> rest = new ArrayList<>();
    for (Index i : table.globalIndexes()) {
      if (!i.name().equals(indexName)) {
        rest.add(i);
      }
    }
    Set<String> used = usedKeys(table.key(), table.localIndexes(), rest);
    Map<String, AttributeType> defined = new LinkedHashMap<>(table.attributes());
    defined.keySet().retainAll(used);
    return tables.dropGlobalIndex(table.name(), indexName, defined);
  }

  /** The billing mode and throughput after an UpdateTable, with its GSI throughput updates. */
  private static DynamoDbTable billing(
      DynamoDbTable t, String billing, RequestTree throughput, List<RequestTree> indexUpdates) {
    String mode = billing == null ? t.billingMode() : billing;
    Throughput tableThroughput = t.throughput();
    if (mode.equals(DynamoDbTable.PAY_PER_REQUEST)) {
      if (throughput != null) {
        throw invalid(
            "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is"
                + " PAY_PER_REQUEST");
      }
      tableThroughput = null;
    } else if (throughput != null) {
      Throughput next = TableRequests.throughput(throughput);
      if (next.equals(tableThroughput) && billing == null && indexUpdates.isEmpty()) {
        throw failure(
            "The provisioned throughput for the table will not change. The requested value equals"
                + " the current value. Current ReadCapacityUnits provisioned for the table: "
                + next.readCapacityUnits()
                + ". Requested ReadCapacityUnits: "
                + next.readCapacityUnits()
                + ". Current WriteCapacityUnits provisioned for the table: "
                + next.writeCapacityUnits()
                + ". Requested WriteCapacityUnits: "
                + next.writeCapacityUnits()
                + ". Refer to the Amazon DynamoDB Developer Guide for current limits and how to"
                + " request higher limits.");
      }
      tableThroughput = next;
    } else if (tableThroughput == null) {
      throw invalid(
          "ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is"
              + " PROVISIONED");
    }
    Map<String, Throughput> indexThroughput = new LinkedHashMap<>();
    for (RequestTree u : indexUpdates) {
      String indexName = u.string("IndexName");
      if (!t.isGlobal(indexName)) {
        throw ViewbaseException.of(
            ErrorCode.ResourceNotFound,
            "Table: " + t.name() + ", index: " + indexName + " not found");
      }
      if (mode.equals(DynamoDbTable.PAY_PER_REQUEST)) {
        throw invalid(
            "ProvisionedThroughput should not be specified for index: "
                + indexName
                + " when BillingMode is PAY_PER_REQUEST");
      }
      indexThroughput.put(
          indexName, TableRequests.throughput(u.structure("ProvisionedThroughput")));
    }
    List<Index> globals = new ArrayList<>();
    for (Index i : t.globalIndexes()) {
      Throughput it =
          mode.equals(DynamoDbTable.PAY_PER_REQUEST)
              ? null
              : indexThroughput.getOrDefault(
                  i.name(), i.throughput() == null ? tableThroughput : i.throughput());
      globals.add(new Index(i.name(), i.key(), i.projection(), it, i.viewName(), i.created()));
    }
    return t.withBilling(mode, tableThroughput, globals);
  }

  private DynamoDbTable settings(
      DynamoDbTable t,
      RequestTree stream,
      RequestTree sse,
      String tableClass,
      Boolean protection,
      Instant now,
      long startAfter) {
    Stream next = t.stream();
    if (stream != null) {
      boolean enable = Boolean.TRUE.equals(stream.bool("StreamEnabled"));
      if (enable && t.stream() != null && t.stream().enabled()) {
        throw ViewbaseException.of(
            ErrorCode.ResourceInUse, "Table already has an enabled stream: " + t.name());
      }
      next = stream(stream, t.stream(), now, startAfter);
    }
    DynamoDbTable withStream = t.withStream(next);
    return withStream.withSettings(
        sse == null ? t.sse() : sse(sse),
        tableClass == null ? t.tableClass() : tableClass,
        protection == null ? t.deletionProtection() : protection);
  }

  // ---- Tags ----

  Object tagResource(Map<String, Object> body, CallContext call) {
    RequestTree r = RequestTree.of(body);
    String arn = r.string("ResourceArn");
    List<RequestTree> tags = r.structures("Tags");
    Violations v = new Violations();
    v.notNull(arn, "resourceArn");
    v.length(arn, "resourceArn", 1, 1283);
    v.notNull(tags, "tags");
    checkTags(v, tags, "tags");
    v.check();
    String name = tableOfArn(arn);
    Map<String, String> added = tags(tags);
    tables.update(
        name,
        t -> {
          Map<String, String> next = new LinkedHashMap<>(t.tags());
          next.putAll(added);
          checkTagCount(next.size());
          return t.withTags(next);
        });
    return null;
  }

  Object untagResource(Map<String, Object> body, CallContext call) {
    RequestTree r = RequestTree.of(body);
    String arn = r.string("ResourceArn");
    List<String> keys = r.strings("TagKeys");
    Violations v = new Violations();
    v.notNull(arn, "resourceArn");
    v.length(arn, "resourceArn", 1, 1283);
    v.notNull(keys, "tagKeys");
    v.check();
    String name = tableOfArn(arn);
    tables.update(
        name,
        t -> {
          Map<String, String> next = new LinkedHashMap<>(t.tags());
          next.keySet().removeAll(keys);
          return t.withTags(next);
        });
    return null;
  }

  Object listTagsOfResource(Map<String, Object> body, CallContext call) {
    RequestTree r = RequestTree.of(body);
    String arn = r.string("ResourceArn");
    Violations v = new Violations();
    v.notNull(arn, "resourceArn");
    v.length(arn, "resourceArn", 1, 1283);
    v.check();
    DynamoDbTable table = tables.describe(tableOfArn(arn));
    List<Object> tags = new ArrayList<>();
    table.tags().forEach((k, value) -> tags.add(TableDescriptions.pair("Key", k, "Value", value)));
    return Map.of("Tags", tags);
  }

  /** The table an ARN names: {@code arn:aws:dynamodb:REGION:ACCOUNT:table/NAME}. */
  private String tableOfArn(String arn) {
    String[] parts = arn.split(":", 6);
    if (parts.length != 6
        || !parts[0].equals("arn")
        || !parts[2].equals("dynamodb")
        || !parts[5].startsWith("table/")) {
      throw failure("Invalid TableArn: Invalid ResourceArn provided as input " + arn);
    }
    String name = parts[5].substring("table/".length());
    if (!TableNames.DYNAMODB.matcher(name).matches()) {
      throw failure("Invalid TableArn: Invalid ResourceArn provided as input " + arn);
    }
    return name;
  }

  // ---- DynamoDB Local's answers ----

  private static Object describeLimits() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("AccountMaxReadCapacityUnits", 80000);
    m.put("AccountMaxWriteCapacityUnits", 80000);
    m.put("TableMaxReadCapacityUnits", 40000);
    m.put("TableMaxWriteCapacityUnits", 40000);
    return m;
  }

  private static Object describeEndpoints(CallContext call) {
    String address =
        call.host() == null ? "localhost:" + DynamoDbOptions.DEFAULT_PORT : call.host();
    return Map.of(
        "Endpoints",
        List.of(TableDescriptions.pair("Address", address, "CachePeriodInMinutes", 1440)));
  }

  Object describeContinuousBackups(Map<String, Object> body, CallContext call) {
    tables.describe(tableName(body));
    return Map.of(
        "ContinuousBackupsDescription",
        TableDescriptions.pair(
            "ContinuousBackupsStatus",
            "ENABLED",
            "PointInTimeRecoveryDescription",
            Map.of("PointInTimeRecoveryStatus", "DISABLED")));
  }

  /** The TableName member of a request that names only a table, its constraints checked. */
  private static String tableName(Map<String, Object> body) {
    String name = RequestTree.of(body).string("TableName");
    Violations v = new Violations();
    TableRequests.checkTableName(v, name, "tableName");
    v.check();
    return name;
  }
}
