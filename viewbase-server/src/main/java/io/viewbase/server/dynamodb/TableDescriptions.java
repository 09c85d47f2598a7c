package io.viewbase.server.dynamodb;

import io.viewbase.api.ViewStatus;
import io.viewbase.server.dynamodb.DynamoDbTable.Index;
import io.viewbase.server.dynamodb.DynamoDbTable.KeyAttribute;
import io.viewbase.server.dynamodb.DynamoDbTable.KeySchema;
import io.viewbase.server.dynamodb.DynamoDbTable.Throughput;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A table's TableDescription, as CreateTable, DescribeTable, UpdateTable and DeleteTable answer it:
 * the stored description ({@link DynamoDbTable}) with what is computed when asked.
 *
 * <pre>
 * member                     | from
 * ---------------------------+----------------------------------------------------------------
 * TableStatus                | ACTIVE (a table is usable once CreateTable answers); DELETING in
 *                            |   DeleteTable's answer
 * ItemCount, TableSizeBytes  | {@link TableStatistics}: counted for DescribeTable, a second old
 *                            |   at most; 0 in the other operations' answers
 * TableArn, IndexArn         | the request's region and the server's account
 * IndexStatus (global)       | the index view's state: building -&gt; CREATING with Backfilling
 *                            |   true, ready -&gt; ACTIVE, failed (or gone) -&gt; DELETING
 * ProvisionedThroughput      | as given, with NumberOfDecreasesToday 0; 0 and 0 for on-demand
 * BillingModeSummary         | for PAY_PER_REQUEST tables
 * StreamSpecification,       | as given; LatestStreamArn from the label
 *   LatestStreamLabel        |
 * SSEDescription             | ENABLED with the given type, for an SSESpecification enabling it
 * </pre>
 */
final class TableDescriptions {
  /** The state of an index, from its view. */
  interface IndexStates {
    Optional<ViewStatus> of(Index index);
  }

  private final TableStatistics statistics;
  private final IndexStates states;

  TableDescriptions(TableStatistics statistics, IndexStates states) {
    this.statistics = statistics;
    this.states = states;
  }

  /**
   * The description of a table in {@code status}; its counts are counted only for DescribeTable
   * ({@code count}), a new, changed or deleted table's answer carries 0.
   */
  Map<String, Object> describe(DynamoDbTable t, CallContext call, String status, boolean count) {
    Map<String, Object> d = new LinkedHashMap<>();
    List<Object> definitions = new ArrayList<>();
    t.attributes()
        .forEach(
            (name, type) ->
                definitions.add(pair("AttributeName", name, "AttributeType", type.name())));
    d.put("AttributeDefinitions", definitions);
    d.put("TableName", t.name());
    d.put("KeySchema", keySchema(t.key()));
    d.put("TableStatus", status);
    d.put("CreationDateTime", seconds(t.created()));
    d.put("ProvisionedThroughput", throughput(t.throughput()));
    TableStatistics.Figures figures =
        count ? statistics.of(t.viewbaseName()) : TableStatistics.Figures.NONE;
    d.put("TableSizeBytes", figures.sizeBytes());
    d.put("ItemCount", figures.itemCount());
    d.put("TableArn", call.tableArn(t.name()));
    d.put("TableId", t.tableId());
    if (DynamoDbTable.PAY_PER_REQUEST.equals(t.billingMode())) {
      d.put(
          "BillingModeSummary",
          pair(
              "BillingMode",
              t.billingMode(),
              "LastUpdateToPayPerRequestDateTime",
              seconds(t.created())));
    }
    if (!t.localIndexes().isEmpty()) {
      List<Object> locals = new ArrayList<>();
      for (Index i : t.localIndexes()) {
        locals.add(index(t, i, false, call, count));
      }
      d.put("LocalSecondaryIndexes", locals);
    }
    if (!t.globalIndexes().isEmpty()) {
      List<Object> globals = new ArrayList<>();
      for (Index i : t.globalIndexes()) {
        globals.add(index(t, i, true, call, count));
      }
      d.put("GlobalSecondaryIndexes", globals);
    }
    if (t.stream() != null && t.stream().enabled()) {
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("StreamEnabled", true);
      s.put("StreamViewType", t.stream().viewType());
      d.put("StreamSpecification", s);
      d.put("LatestStreamLabel", t.stream().label());
      d.put("LatestStreamArn", call.tableArn(t.name()) + "/stream/" + t.stream().label());
    }
    if (t.sse() != null && t.sse().enabled()) {
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("Status", "ENABLED");
      s.put("SSEType", t.sse().sseType() == null ? "KMS" : t.sse().sseType());
      if (t.sse().kmsMasterKeyId() != null) {
        s.put("KMSMasterKeyArn", t.sse().kmsMasterKeyId());
      }
      d.put("SSEDescription", s);
    }
    if (t.tableClass() != null) {
      d.put("TableClassSummary", Map.of("TableClass", t.tableClass()));
    }
    d.put("DeletionProtectionEnabled", t.deletionProtection());
    return d;
  }

  private Map<String, Object> index(
      DynamoDbTable t, Index i, boolean global, CallContext call, boolean count) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("IndexName", i.name());
    m.put("KeySchema", keySchema(i.key()));
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("ProjectionType", i.projection().type().name());
    if (!i.projection().nonKeyAttributes().isEmpty()) {
      p.put("NonKeyAttributes", i.projection().nonKeyAttributes());
    }
    m.put("Projection", p);
    Optional<ViewStatus> state = states.of(i);
    boolean ready = state.map(ViewStatus::isReady).orElse(false);
    if (global) {
      String status =
          state.isEmpty()
              ? "DELETING"
              : ready
                  ? "ACTIVE"
                  : ViewStatus.BUILDING.equals(state.get().state()) ? "CREATING" : "DELETING";
      m.put("IndexStatus", status);
      if (status.equals("CREATING")) {
        m.put("Backfilling", true);
      }
      m.put("ProvisionedThroughput", throughput(i.throughput()));
    }
    TableStatistics.Figures figures =
        ready && count ? statistics.of(i.viewName()) : TableStatistics.Figures.NONE;
    m.put("IndexSizeBytes", figures.sizeBytes());
    m.put("ItemCount", figures.itemCount());
    m.put("IndexArn", call.indexArn(t.name(), i.name()));
    return m;
  }

  static List<Object> keySchema(KeySchema key) {
    List<Object> l = new ArrayList<>();
    for (KeyAttribute a : key.hashKeys()) {
      l.add(pair("AttributeName", a.name(), "KeyType", "HASH"));
    }
    for (KeyAttribute a : key.rangeKeys()) {
      l.add(pair("AttributeName", a.name(), "KeyType", "RANGE"));
    }
    return l;
  }

  private static Map<String, Object> throughput(Throughput t) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("NumberOfDecreasesToday", 0);
    m.put("ReadCapacityUnits", t == null ? 0 : t.readCapacityUnits());
    m.put("WriteCapacityUnits", t == null ? 0 : t.writeCapacityUnits());
    return m;
  }

  /** An instant as DynamoDB's JSON carries one: epoch seconds, with milliseconds. */
  static BigDecimal seconds(Instant at) {
    return BigDecimal.valueOf(at.toEpochMilli(), 3);
  }

  static Map<String, Object> pair(String k1, Object v1, String k2, Object v2) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put(k1, v1);
    m.put(k2, v2);
    return m;
  }
}
