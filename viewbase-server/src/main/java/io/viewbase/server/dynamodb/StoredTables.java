package io.viewbase.server.dynamodb;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.dynamodb.DynamoDbTable.AttributeType;
import io.viewbase.server.dynamodb.DynamoDbTable.Index;
import io.viewbase.server.dynamodb.DynamoDbTable.KeyAttribute;
import io.viewbase.server.dynamodb.DynamoDbTable.KeySchema;
import io.viewbase.server.dynamodb.DynamoDbTable.Projection;
import io.viewbase.server.dynamodb.DynamoDbTable.ProjectionType;
import io.viewbase.server.dynamodb.DynamoDbTable.Sse;
import io.viewbase.server.dynamodb.DynamoDbTable.Stream;
import io.viewbase.server.dynamodb.DynamoDbTable.Throughput;
import io.viewbase.server.dynamodb.DynamoDbTable.TimeToLive;
import io.viewbase.server.dynamodb.DynamoDbTable.TtlStatus;
import io.viewbase.server.dynamodb.model.JsonTree;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link DynamoDbTable} as its catalog setting ({@value #SETTING}) holds it: JSON in DynamoDB's
 * own member names, so that it reads like a DescribeTable answer, plus what only Viewbase needs.
 *
 * <pre>
 * {"Version": 1, "TableName": "my-table", "ViewbaseTable": "mytablek3j9a2bq", "TableId": "…",
 *  "CreationDateTime": 1767225600123,                      (epoch milliseconds)
 *  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
 *                                                          (a global index's: up to 4 HASH, then up to 4 RANGE)
 *  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, …],
 *  "GlobalSecondaryIndexes": [{"IndexName", "KeySchema", "Projection": {"ProjectionType",
 *      "NonKeyAttributes"}, "ProvisionedThroughput", "ViewName", "CreationDateTime"}],
 *  "LocalSecondaryIndexes": [ …the same… ],
 *  "BillingMode": "PAY_PER_REQUEST", "ProvisionedThroughput": {"ReadCapacityUnits", "WriteCapacityUnits"},
 *  "StreamSpecification": {"StreamEnabled", "StreamViewType"}, "LatestStreamLabel": "…",
 *  "LatestStreamFeedStart": 0,                             (Stream.startAfter; absent: 0)
 *  "TimeToLiveDescription": {"AttributeName", "TimeToLiveStatus"},   (absent: DISABLED)
 *  "SSESpecification": {"Enabled", "SSEType", "KMSMasterKeyId"}, "TableClass": "STANDARD",
 *  "DeletionProtectionEnabled": false, "Tags": [{"Key", "Value"}]}
 * </pre>
 *
 * Members absent from a stored record read as absent (null, none, false), so a later version may
 * add members without changing {@code Version}; a record of a later {@code Version} than this one
 * reads is refused (an older server must not rewrite what it does not understand).
 */
final class StoredTables {
  /** The name of the table setting that makes a Viewbase table a DynamoDB table. */
  static final String SETTING = "dynamodb.table";

  static final int VERSION = 1;

  private StoredTables() {}

  static String encode(DynamoDbTable t) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("Version", VERSION);
    m.put("TableName", t.name());
    m.put("ViewbaseTable", t.viewbaseName());
    m.put("TableId", t.tableId());
    m.put("CreationDateTime", t.created().toEpochMilli());
    m.put("KeySchema", keySchema(t.key()));
    List<Object> definitions = new ArrayList<>();
    t.attributes()
        .forEach(
            (name, type) ->
                definitions.add(map("AttributeName", name, "AttributeType", type.name())));
    m.put("AttributeDefinitions", definitions);
    m.put("GlobalSecondaryIndexes", indexes(t.globalIndexes()));
    m.put("LocalSecondaryIndexes", indexes(t.localIndexes()));
    m.put("BillingMode", t.billingMode());
    if (t.throughput() != null) {
      m.put("ProvisionedThroughput", throughput(t.throughput()));
    }
    if (t.stream() != null) {
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("StreamEnabled", t.stream().enabled());
      if (t.stream().viewType() != null) {
        s.put("StreamViewType", t.stream().viewType());
      }
      m.put("StreamSpecification", s);
      if (t.stream().label() != null) {
        m.put("LatestStreamLabel", t.stream().label());
      }
      if (t.stream().startAfter() != 0) {
        m.put("LatestStreamFeedStart", t.stream().startAfter());
      }
    }
    if (t.ttl() != null) {
      m.put(
          "TimeToLiveDescription",
          map("AttributeName", t.ttl().attribute(), "TimeToLiveStatus", t.ttl().status().name()));
    }
    if (t.sse() != null) {
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("Enabled", t.sse().enabled());
      if (t.sse().sseType() != null) {
        s.put("SSEType", t.sse().sseType());
      }
      if (t.sse().kmsMasterKeyId() != null) {
        s.put("KMSMasterKeyId", t.sse().kmsMasterKeyId());
      }
      m.put("SSESpecification", s);
    }
    if (t.tableClass() != null) {
      m.put("TableClass", t.tableClass());
    }
    m.put("DeletionProtectionEnabled", t.deletionProtection());
    List<Object> tags = new ArrayList<>();
    t.tags().forEach((k, v) -> tags.add(map("Key", k, "Value", v)));
    m.put("Tags", tags);
    return new String(JsonTree.write(m), StandardCharsets.UTF_8);
  }

  static DynamoDbTable decode(String json) {
    Map<?, ?> m;
    try {
      m = (Map<?, ?>) JsonTree.read(json.getBytes(StandardCharsets.UTF_8), Integer.MAX_VALUE);
      int version = ((BigDecimal) m.get("Version")).intValue();
      if (version > VERSION) {
        throw ViewbaseException.of(
            ErrorCode.InternalError,
            "A DynamoDB table's description was written by a later Viewbase version",
            "version",
            version);
      }
      Map<String, AttributeType> attributes = new LinkedHashMap<>();
      for (Object o : list(m, "AttributeDefinitions")) {
        Map<?, ?> d = (Map<?, ?>) o;
        attributes.put(
            (String) d.get("AttributeName"),
            AttributeType.valueOf((String) d.get("AttributeType")));
      }
      KeySchema key = keySchema(list(m, "KeySchema"), attributes);
      Stream stream = null;
      if (m.get("StreamSpecification") instanceof Map<?, ?> s) {
        stream =
            new Stream(
                Boolean.TRUE.equals(s.get("StreamEnabled")),
                (String) s.get("StreamViewType"),
                (String) m.get("LatestStreamLabel"),
                m.get("LatestStreamFeedStart") instanceof BigDecimal start
                    ? start.longValueExact()
                    : 0);
      }
      TimeToLive ttl = null;
      if (m.get("TimeToLiveDescription") instanceof Map<?, ?> d) {
        ttl =
            new TimeToLive(
                (String) d.get("AttributeName"),
                TtlStatus.valueOf((String) d.get("TimeToLiveStatus")));
      }
      Sse sse = null;
      if (m.get("SSESpecification") instanceof Map<?, ?> s) {
        sse =
            new Sse(
                Boolean.TRUE.equals(s.get("Enabled")),
                (String) s.get("SSEType"),
                (String) s.get("KMSMasterKeyId"));
      }
      Map<String, String> tags = new LinkedHashMap<>();
      for (Object o : list(m, "Tags")) {
        Map<?, ?> tag = (Map<?, ?>) o;
        tags.put((String) tag.get("Key"), (String) tag.get("Value"));
      }
      Instant created = instant(m.get("CreationDateTime"));
      return new DynamoDbTable(
          (String) m.get("TableName"),
          (String) m.get("ViewbaseTable"),
          key,
          attributes,
          indexes(list(m, "GlobalSecondaryIndexes"), attributes, created),
          indexes(list(m, "LocalSecondaryIndexes"), attributes, created),
          (String) m.get("BillingMode"),
          throughput(m.get("ProvisionedThroughput")),
          created,
          stream,
          sse,
          (String) m.get("TableClass"),
          Boolean.TRUE.equals(m.get("DeletionProtectionEnabled")),
          tags,
          (String) m.get("TableId"),
          ttl);
    } catch (ClassCastException
        | NullPointerException
        | IllegalArgumentException
        | ArithmeticException e) {
      throw new ViewbaseException(
          ErrorCode.InternalError,
          "A DynamoDB table's description in the catalog does not read",
          Map.of(),
          e);
    }
  }

  private static List<Object> keySchema(KeySchema key) {
    List<Object> l = new ArrayList<>();
    for (KeyAttribute a : key.hashKeys()) {
      l.add(map("AttributeName", a.name(), "KeyType", "HASH"));
    }
    for (KeyAttribute a : key.rangeKeys()) {
      l.add(map("AttributeName", a.name(), "KeyType", "RANGE"));
    }
    return l;
  }

  private static KeySchema keySchema(List<?> elements, Map<String, AttributeType> types) {
    List<KeyAttribute> hash = new ArrayList<>();
    List<KeyAttribute> range = new ArrayList<>();
    for (Object o : elements) {
      Map<?, ?> e = (Map<?, ?>) o;
      String name = (String) e.get("AttributeName");
      KeyAttribute a = new KeyAttribute(name, types.get(name));
      ("HASH".equals(e.get("KeyType")) ? hash : range).add(a);
    }
    return new KeySchema(hash, range);
  }

  private static List<Object> indexes(List<Index> indexes) {
    List<Object> l = new ArrayList<>();
    for (Index i : indexes) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("IndexName", i.name());
      m.put("KeySchema", keySchema(i.key()));
      Map<String, Object> p = new LinkedHashMap<>();
      p.put("ProjectionType", i.projection().type().name());
      if (!i.projection().nonKeyAttributes().isEmpty()) {
        p.put("NonKeyAttributes", i.projection().nonKeyAttributes());
      }
      m.put("Projection", p);
      if (i.throughput() != null) {
        m.put("ProvisionedThroughput", throughput(i.throughput()));
      }
      m.put("ViewName", i.viewName());
      m.put("CreationDateTime", i.created().toEpochMilli());
      l.add(m);
    }
    return l;
  }

  private static List<Index> indexes(
      List<?> stored, Map<String, AttributeType> types, Instant tableCreated) {
    List<Index> out = new ArrayList<>();
    for (Object o : stored) {
      Map<?, ?> m = (Map<?, ?>) o;
      Map<?, ?> p = (Map<?, ?>) m.get("Projection");
      List<String> nonKey = new ArrayList<>();
      for (Object a : list(p, "NonKeyAttributes")) {
        nonKey.add((String) a);
      }
      Object created = m.get("CreationDateTime");
      out.add(
          new Index(
              (String) m.get("IndexName"),
              keySchema(list(m, "KeySchema"), types),
              new Projection(ProjectionType.valueOf((String) p.get("ProjectionType")), nonKey),
              throughput(m.get("ProvisionedThroughput")),
              (String) m.get("ViewName"),
              created == null ? tableCreated : instant(created)));
    }
    return out;
  }

  private static Map<String, Object> throughput(Throughput t) {
    return map(
        "ReadCapacityUnits", t.readCapacityUnits(), "WriteCapacityUnits", t.writeCapacityUnits());
  }

  private static Throughput throughput(Object stored) {
    if (!(stored instanceof Map<?, ?> m)) {
      return null;
    }
    return new Throughput(
        ((BigDecimal) m.get("ReadCapacityUnits")).longValueExact(),
        ((BigDecimal) m.get("WriteCapacityUnits")).longValueExact());
  }

  private static Instant instant(Object epochMillis) {
    return Instant.ofEpochMilli(((BigDecimal) epochMillis).longValueExact());
  }

  private static List<?> list(Map<?, ?> m, String name) {
    Object v = m.get(name);
    return v == null ? List.of() : (List<?>) v;
  }

  private static Map<String, Object> map(String k1, Object v1, String k2, Object v2) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put(k1, v1);
    m.put(k2, v2);
    return m;
  }
}
