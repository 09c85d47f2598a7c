package io.viewbase.server.dynamodb;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.dynamodb.DynamoDbTable.AttributeType;
import io.viewbase.server.dynamodb.DynamoDbTable.Index;
import io.viewbase.server.dynamodb.DynamoDbTable.KeyAttribute;
import io.viewbase.server.dynamodb.DynamoDbTable.KeySchema;
import io.viewbase.server.dynamodb.DynamoDbTable.Projection;
import io.viewbase.server.dynamodb.DynamoDbTable.ProjectionType;
import io.viewbase.server.dynamodb.DynamoDbTable.Throughput;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The structures table operations share (key schemas, attribute definitions, projections,
 * throughput, table names), read from a request with DynamoDB's constraint checks ({@link
 * Violations}) and its rules on their meaning, in the order DynamoDB applies them: constraints
 * first, all of them at once; then one rule at a time, the first broken one refused with its
 * message ("One or more parameter values were invalid: …").
 */
final class TableRequests {
  static final Pattern NAME = Pattern.compile("[a-zA-Z0-9_.-]+");
  static final String NAME_SHOWN = "[a-zA-Z0-9_.-]+";
  static final long MAX_CAPACITY = 1_000_000_000_000L;
  static final String INVALID = "One or more parameter values were invalid: ";

  private TableRequests() {}

  /** A table name's constraints, at {@code path} ({@code tableName}). */
  static void checkTableName(Violations v, String name, String path) {
    v.notNull(name, path);
    v.pattern(name, path, NAME, NAME_SHOWN);
    v.length(name, path, 3, 255);
  }

  /** Checks an index name's constraints. */
  static void checkIndexName(Violations v, String name, String path) {
    v.notNull(name, path);
    v.pattern(name, path, NAME, NAME_SHOWN);
    v.length(name, path, 3, 255);
  }

  /**
   * The most HASH, and the most RANGE, elements of a global index's key schema (DynamoDB's
   * multi-attribute keys); a table's and a local index's have one HASH and at most one RANGE.
   */
  static final int MAX_INDEX_KEY_ELEMENTS = 4;

  /** A table's or local index's key schema's constraints (1 or 2 elements, each typed). */
  static void checkKeySchema(Violations v, List<RequestTree> elements, String path) {
    checkKeySchema(v, elements, path, 2);
  }

  /** A global index's key schema's constraints: 1 to 8 elements, each named and typed. */
  static void checkIndexKeySchema(Violations v, List<RequestTree> elements, String path) {
    checkKeySchema(v, elements, path, 2 * MAX_INDEX_KEY_ELEMENTS);
  }

  private static void checkKeySchema(
      Violations v, List<RequestTree> elements, String path, int most) {
    v.notNull(elements, path);
    if (elements == null) {
      return;
    }
    v.length(elements, path, 1, most);
    for (int i = 0; i < elements.size(); i++) {
      RequestTree e = elements.get(i);
      String at = path + "." + (i + 1) + ".member";
      if (e == null) {
        v.notNull(null, at);
        continue;
      }
      v.notNull(e.string("AttributeName"), at + ".attributeName");
      v.length(e.string("AttributeName"), at + ".attributeName", 1, 255);
      v.notNull(e.string("KeyType"), at + ".keyType");
      v.oneOf(e.string("KeyType"), at + ".keyType", List.of("HASH", "RANGE"));
    }
  }

  /** Attribute definitions' constraints. */
  static void checkDefinitions(Violations v, List<RequestTree> definitions, String path) {
    if (definitions == null) {
      return;
    }
    for (int i = 0; i < definitions.size(); i++) {
      RequestTree d = definitions.get(i);
      String at = path + "." + (i + 1) + ".member";
      if (d == null) {
        v.notNull(null, at);
        continue;
      }
      v.notNull(d.string("AttributeName"), at + ".attributeName");
      v.length(d.string("AttributeName"), at + ".attributeName", 1, 255);
      v.notNull(d.string("AttributeType"), at + ".attributeType");
      v.oneOf(d.string("AttributeType"), at + ".attributeType", List.of("B", "N", "S"));
    }
  }

  /** A provisioned throughput's constraints; nothing for an absent one. */
  static void checkThroughput(Violations v, RequestTree t, String path) {
    if (t == null) {
      return;
    }
    v.notNull(t.number("WriteCapacityUnits"), path + ".writeCapacityUnits");
    v.range(t.number("WriteCapacityUnits"), path + ".writeCapacityUnits", 1, Long.MAX_VALUE);
    v.notNull(t.number("ReadCapacityUnits"), path + ".readCapacityUnits");
    v.range(t.number("ReadCapacityUnits"), path + ".readCapacityUnits", 1, Long.MAX_VALUE);
  }

  /** A projection's constraints. */
  static void checkProjection(Violations v, RequestTree p, String path) {
    v.notNull(p, path);
    if (p == null) {
      return;
    }
    v.oneOf(
        p.string("ProjectionType"),
        path + ".projectionType",
        List.of("ALL", "INCLUDE", "KEYS_ONLY"));
    List<String> nonKey = p.strings("NonKeyAttributes");
    v.length(nonKey, path + ".nonKeyAttributes", 1, 20);
  }

  /** The attribute definitions, by name in request order; refuses a name defined twice. */
  static Map<String, AttributeType> definitions(List<RequestTree> definitions) {
    Map<String, AttributeType> out = new LinkedHashMap<>();
    for (RequestTree d : definitions) {
      String name = d.string("AttributeName");
      if (out.put(name, AttributeType.valueOf(d.string("AttributeType"))) != null) {
        throw invalid("Cannot have two attributes with the same name");
      }
    }
    return out;
  }

  /**
   * A table's or local index's key schema's meaning: each key defined, HASH first, RANGE second,
   * two different names.
   *
   * @param index the index it is the key of, or null for the table's
   */
  static KeySchema keySchema(
      List<RequestTree> elements, Map<String, AttributeType> definitions, String index) {
    List<String> names = checkNames(elements, definitions, index);
    if (!"HASH".equals(elements.get(0).string("KeyType"))) {
      throw failure("Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
    }
    if (elements.size() == 2 && !"RANGE".equals(elements.get(1).string("KeyType"))) {
      throw failure("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
    }
    KeyAttribute hash = key(names.get(0), definitions);
    KeyAttribute range = names.size() == 2 ? key(names.get(1), definitions) : null;
    return new KeySchema(hash, range);
  }

  /**
   * A global index's key schema's meaning, which may be a multi-attribute key: each key defined and
   * named once, HASH first, 1 to 4 HASH elements, then 0 to 4 RANGE elements.
   *
   * <pre>
   * KeySchema                          | refused with
   * -----------------------------------+------------------------------------------------------
   * an attribute not defined           | Some index key attributes are not defined in …
   * an attribute twice                 | Invalid KeySchema: The KeySchema has the attribute a
   *                                    |   more than once (two elements: DynamoDB's "Both the
   *                                    |   Hash Key and the Range Key element … same name")
   * first element RANGE                | Invalid KeySchema: The first KeySchemaElement is not a
   *                                    |   HASH key type
   * a HASH element after a RANGE one   | Invalid KeySchema: A HASH KeySchemaElement follows a
   *                                    |   RANGE KeySchemaElement
   * 5 or more HASH (or RANGE) elements | Invalid KeySchema: A KeySchema may have at most 4 HASH
   *                                    |   (RANGE) key attributes
   * </pre>
   */
  static KeySchema indexKeySchema(
      List<RequestTree> elements, Map<String, AttributeType> definitions, String index) {
    List<String> names = checkNames(elements, definitions, index);
    for (int i = 0; i < names.size(); i++) {
      if (names.indexOf(names.get(i)) != i) {
        throw failure(
            "Invalid KeySchema: The KeySchema has the attribute "
                + names.get(i)
                + " more than once");
      }
    }
    if (!"HASH".equals(elements.get(0).string("KeyType"))) {
      throw failure("Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
    }
    List<KeyAttribute> hash = new ArrayList<>();
    List<KeyAttribute> range = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      boolean isHash = "HASH".equals(elements.get(i).string("KeyType"));
      if (isHash && !range.isEmpty()) {
        throw failure(
            "Invalid KeySchema: A HASH KeySchemaElement follows a RANGE KeySchemaElement");
      }
      (isHash ? hash : range).add(key(names.get(i), definitions));
    }
    if (hash.size() > MAX_INDEX_KEY_ELEMENTS) {
      throw failure(
          "Invalid KeySchema: A KeySchema may have at most "
              + MAX_INDEX_KEY_ELEMENTS
              + " HASH key attributes");
    }
    if (range.size() > MAX_INDEX_KEY_ELEMENTS) {
      throw failure(
          "Invalid KeySchema: A KeySchema may have at most "
              + MAX_INDEX_KEY_ELEMENTS
              + " RANGE key attributes");
    }
    return new KeySchema(hash, range);
  }

  /**
   * The elements' names, each refused unless defined, and two elements refused if they name the
   * same attribute (DynamoDB's message for a table's, a local index's and a global index's alike).
   */
  private static List<String> checkNames(
      List<RequestTree> elements, Map<String, AttributeType> definitions, String index) {
    List<String> names = new ArrayList<>();
    for (RequestTree e : elements) {
      names.add(e.string("AttributeName"));
    }
    if (index == null && names.size() > definitions.size()) {
      throw failure("Invalid KeySchema: Some index key attribute have no definition");
    }
    for (String n : names) {
      if (!definitions.containsKey(n)) {
        throw invalid(
            "Some index key attributes are not defined in AttributeDefinitions. Keys: ["
                + String.join(", ", names)
                + "], AttributeDefinitions: ["
                + String.join(", ", definitions.keySet())
                + "]");
      }
    }
    if (names.size() == 2 && names.get(0).equals(names.get(1))) {
      throw failure(
          "Both the Hash Key and the Range Key element in the KeySchema have the same name");
    }
    return names;
  }

  private static KeyAttribute key(String name, Map<String, AttributeType> definitions) {
    AttributeNames.property(name);
    return new KeyAttribute(name, definitions.get(name));
  }

  /** A projection's meaning: a type, and NonKeyAttributes only with INCLUDE. */
  static Projection projection(RequestTree p) {
    String type = p.string("ProjectionType");
    if (type == null) {
      throw invalid("Unknown ProjectionType: null");
    }
    List<String> nonKey = p.strings("NonKeyAttributes");
    if (nonKey != null && !type.equals("INCLUDE")) {
      throw invalid("ProjectionType is " + type + ", but NonKeyAttributes is specified");
    }
    for (String attribute : nonKey == null ? List.<String>of() : nonKey) {
      AttributeNames.property(attribute);
    }
    return new Projection(ProjectionType.valueOf(type), nonKey == null ? List.of() : nonKey);
  }

  /** A throughput's meaning: each figure at most 10^12. */
  static Throughput throughput(RequestTree t) {
    if (t == null) {
      return null;
    }
    long read = t.number("ReadCapacityUnits");
    long write = t.number("WriteCapacityUnits");
    if (read > MAX_CAPACITY) {
      throw failure("Given value " + read + " for ReadCapacityUnits is out of bounds");
    }
    if (write > MAX_CAPACITY) {
      throw failure("Given value " + write + " for WriteCapacityUnits is out of bounds");
    }
    return new Throughput(read, write);
  }

  /**
   * A global secondary index of a request (CreateTable's, or an UpdateTable Create), its
   * constraints checked.
   */
  static Index globalIndex(
      RequestTree i, Map<String, AttributeType> definitions, String billingMode, Instant created) {
    String name = i.string("IndexName");
    KeySchema key = indexKeySchema(i.structures("KeySchema"), definitions, name);
    Projection projection = projection(i.structure("Projection"));
    RequestTree t = i.structure("ProvisionedThroughput");
    if (DynamoDbTable.PAY_PER_REQUEST.equals(billingMode) && t != null) {
      throw invalid(
          "ProvisionedThroughput should not be specified for index: "
              + name
              + " when BillingMode is PAY_PER_REQUEST");
    }
    if (DynamoDbTable.PROVISIONED.equals(billingMode) && t == null) {
      throw invalid("ProvisionedThroughput must be specified for index: " + name);
    }
    return new Index(name, key, projection, throughput(t), null, created);
  }

  static ViewbaseException invalid(String message) {
    return new ViewbaseException(ErrorCode.ValidationFailure, INVALID + message);
  }

  static ViewbaseException failure(String message) {
    return new ViewbaseException(ErrorCode.ValidationFailure, message);
  }
}
