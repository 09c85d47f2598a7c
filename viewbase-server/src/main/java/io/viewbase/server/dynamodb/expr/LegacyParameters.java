package io.viewbase.server.dynamodb.expr;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Stability;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.dynamodb.model.AttributeValue;
import io.viewbase.server.dynamodb.model.AttributeValues;
import io.viewbase.server.dynamodb.model.KeyOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * DynamoDB's legacy (pre-expression) parameters, read from {@link
 * io.viewbase.server.dynamodb.model.JsonTree} trees into the forms expressions parse to, and the
 * rule that a request uses one kind or the other.
 *
 * <pre>
 * parameter                   | becomes
 * ----------------------------+-------------------------------------------------------------
 * Expected, ConditionalOperator | a {@link Condition} ({@link #expected})
 * QueryFilter / ScanFilter    | a {@link Condition} ({@link #filter})
 * KeyConditions               | a {@link KeyCondition} ({@link #keyConditions})
 * AttributeUpdates            | an {@link Update} ({@link #attributeUpdates})
 * AttributesToGet             | a {@link Projection} ({@link #attributesToGet})
 * </pre>
 *
 * ComparisonOperator, as a condition on attribute a with values v1, v2...:
 *
 * <pre>
 * EQ NE LT LE GT GE   | a = v1, a &lt;&gt; v1, a &lt; v1, ...  NULL / NOT_NULL | attribute_not_exists(a) / _exists
 * CONTAINS            | contains(a, v1)                 NOT_CONTAINS    | a exists and not contains(a, v1)
 * BEGINS_WITH         | begins_with(a, v1)              IN              | a IN (v1, v2, ...)
 * BETWEEN             | a BETWEEN v1 AND v2
 * </pre>
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class LegacyParameters {
  private static final String INVALID = "One or more parameter values were invalid: ";
  private static final List<String> OPERATORS =
      List.of(
          "IN",
          "NULL",
          "BETWEEN",
          "LT",
          "NOT_CONTAINS",
          "EQ",
          "GT",
          "NOT_NULL",
          "NE",
          "LE",
          "BEGINS_WITH",
          "GE",
          "CONTAINS");
  private static final Set<String> SCALARS = Set.of("S", "N", "B");
  private static final Set<String> SCALARS_AND_SETS = Set.of("S", "N", "B", "SS", "NS", "BS");

  private LegacyParameters() {}

  /** The expression and legacy parameters of each operation, in DynamoDB's order. */
  public enum Operation {
    GET_ITEM(List.of("ProjectionExpression"), List.of("AttributesToGet")),
    BATCH_GET_TABLE(List.of("ProjectionExpression"), List.of("AttributesToGet")),
    PUT_ITEM(List.of("ConditionExpression"), List.of("Expected")),
    DELETE_ITEM(List.of("ConditionExpression"), List.of("Expected")),
    UPDATE_ITEM(
        List.of("UpdateExpression", "ConditionExpression"),
        List.of("AttributeUpdates", "Expected")),
    QUERY(
        List.of("ProjectionExpression", "FilterExpression", "KeyConditionExpression"),
        List.of("AttributesToGet", "QueryFilter", "ConditionalOperator", "KeyConditions")),
    SCAN(
        List.of("ProjectionExpression", "FilterExpression"),
        List.of("AttributesToGet", "ScanFilter", "ConditionalOperator"));

    private final List<String> expressions;
    private final List<String> legacy;

    Operation(List<String> expressions, List<String> legacy) {
      this.expressions = expressions;
      this.legacy = legacy;
    }
  }

  /**
   * Refuses a request that mixes expression and legacy parameters, or gives placeholders without an
   * expression to use them. KeyConditions may go with a FilterExpression or ProjectionExpression
   * (DynamoDB allows that one mix).
   *
   * @param request the request's members (a JSON tree object); absent and null members are alike
   * @throws ViewbaseException InvalidInput "Can not use both expression and non-expression
   *     parameters in the same request: Non-expression parameters: {AttributesToGet} Expression
   *     parameters: {ProjectionExpression}", "ExpressionAttributeNames can only be specified when
   *     using expressions", "ExpressionAttributeValues can only be specified when using
   *     expressions: UpdateExpression and ConditionExpression are null"
   */
  public static void checkParameters(Operation operation, Map<String, ?> request) {
    List<String> expressions = present(operation.expressions, request);
    if (!expressions.isEmpty()) {
      List<String> legacy = new ArrayList<>(operation.legacy);
      if (request.get("KeyConditions") != null && request.get("KeyConditionExpression") == null) {
        legacy.remove("KeyConditions");
      }
      List<String> mixed = present(legacy, request);
      if (!mixed.isEmpty()) {
        throw invalid(
            "Can not use both expression and non-expression parameters in the same request:"
                + " Non-expression parameters: {"
                + String.join(", ", mixed)
                + "} Expression parameters: {"
                + String.join(", ", expressions)
                + "}");
      }
    }
    if (request.get("ExpressionAttributeNames") != null && expressions.isEmpty()) {
      throw invalid("ExpressionAttributeNames can only be specified when using expressions");
    }
    List<String> valued = new ArrayList<>(operation.expressions);
    valued.remove("ProjectionExpression");
    if (!valued.isEmpty()
        && request.get("ExpressionAttributeValues") != null
        && present(valued, request).isEmpty()) {
      throw invalid(
          "ExpressionAttributeValues can only be specified when using expressions: "
              + String.join(" and ", valued)
              + (valued.size() > 1 ? " are" : " is")
              + " null");
    }
  }

  private static List<String> present(List<String> names, Map<String, ?> request) {
    return names.stream().filter(n -> request.get(n) != null).toList();
  }

  /**
   * Expected (with ConditionalOperator) as a condition; empty when Expected is absent or empty.
   *
   * @throws ViewbaseException InvalidInput with DynamoDB's messages ("One or more parameter values
   *     were invalid: Value must be provided when Exists is null for Attribute: a", ...)
   */
  public static Optional<Condition> expected(Object expected, Object conditionalOperator) {
    boolean or = or(conditionalOperator);
    if (expected == null) {
      return Optional.empty();
    }
    List<Condition> conditions = new ArrayList<>();
    for (Map.Entry<?, ?> e : object(expected).entrySet()) {
      String name = (String) e.getKey();
      Map<?, ?> entry = object(e.getValue());
      Object operator = entry.get("ComparisonOperator");
      Object list = entry.get("AttributeValueList");
      Object value = entry.get("Value");
      Object exists = entry.get("Exists");
      if (list != null && value != null) {
        throw invalid(
            INVALID
                + "Value and AttributeValueList cannot be used together for Attribute: "
                + name);
      }
      if (operator != null) {
        String op = operator("expected." + name + ".member.comparisonOperator", operator);
        if (exists != null) {
          throw invalid(
              INVALID
                  + "Exists and ComparisonOperator cannot be used together for Attribute: "
                  + name);
        }
        if (!op.equals("NULL") && !op.equals("NOT_NULL") && list == null && value == null) {
          throw invalid(
              INVALID
                  + "Value or AttributeValueList must be used with ComparisonOperator: "
                  + op
                  + " for Attribute: "
                  + name);
        }
        List<AttributeValue> values =
            value != null ? List.of(AttributeValues.read(value)) : values(list);
        checkCount(op, values);
        checkSameType(values);
        checkBetween(op, values);
        conditions.add(comparison(name, op, values));
      } else if (list != null) {
        throw invalid(
            INVALID
                + "AttributeValueList can only be used with a ComparisonOperator for Attribute: "
                + name);
      } else {
        Boolean flag = exists == null ? null : bool(exists);
        boolean mustExist = flag == null || flag;
        if (mustExist && value == null) {
          throw invalid(
              INVALID
                  + "Value must be provided when Exists is "
                  + flag
                  + " for Attribute: "
                  + name);
        }
        if (!mustExist && value != null) {
          throw invalid(
              INVALID + "Value cannot be used when Exists is false for Attribute: " + name);
        }
        conditions.add(
            mustExist
                ? new Condition.Compare(
                    Condition.Comparator.EQ,
                    new Operand.Attribute(Path.attribute(name)),
                    new Operand.Constant(AttributeValues.read(value)))
                : new Condition.AttributeNotExists(Path.attribute(name)));
      }
    }
    return join(conditions, or);
  }

  /**
   * A QueryFilter or ScanFilter (with ConditionalOperator) as a condition; empty when absent.
   *
   * @param parameter "QueryFilter" or "ScanFilter", for messages
   */
  public static Optional<Condition> filter(
      Object filter, Object conditionalOperator, String parameter) {
    boolean or = or(conditionalOperator);
    if (filter == null) {
      return Optional.empty();
    }
    List<Condition> conditions = new ArrayList<>();
    for (Map.Entry<?, ?> e : object(filter).entrySet()) {
      String name = (String) e.getKey();
      Checked c = checked(parameter, name, object(e.getValue()));
      conditions.add(comparison(name, c.operator, c.values));
    }
    return join(conditions, or);
  }

  /**
   * KeyConditions as a key condition.
   *
   * @throws ViewbaseException InvalidInput "Query condition missed key schema element: pk",
   *     "Attempted conditional constraint is not an indexable operation", "Query key condition not
   *     supported", and the ComparisonOperator refusals of {@link #filter}
   */
  public static KeyCondition keyConditions(Object keyConditions, String hashKey, String rangeKey) {
    return keyConditions(
        keyConditions, List.of(hashKey), rangeKey == null ? List.of() : List.of(rangeKey));
  }

  /**
   * KeyConditions on a key of several partition and sort key attributes ({@link KeyCondition#of}).
   */
  public static KeyCondition keyConditions(
      Object keyConditions, List<String> hashKeys, List<String> rangeKeys) {
    Map<String, Checked> byName = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : object(keyConditions).entrySet()) {
      String name = (String) e.getKey();
      byName.put(name, checked("KeyConditions", name, object(e.getValue())));
    }
    KeyCondition.checkNamed(byName.keySet(), hashKeys, rangeKeys);
    for (Checked c : byName.values()) {
      if (Set.of("NULL", "NOT_NULL", "CONTAINS", "NOT_CONTAINS", "IN", "NE").contains(c.operator)) {
        throw invalid("Attempted conditional constraint is not an indexable operation");
      }
    }
    List<KeyCondition.Atom> atoms = new ArrayList<>();
    for (Map.Entry<String, Checked> e : byName.entrySet()) {
      Checked c = e.getValue();
      atoms.add(
          new KeyCondition.Atom(
              e.getKey(),
              KeyCondition.SortOperator.valueOf(c.operator),
              c.values.get(0),
              c.operator.equals("BETWEEN") ? c.values.get(1) : null));
    }
    return KeyCondition.of(atoms, hashKeys, rangeKeys);
  }

  /**
   * AttributeUpdates as an update: PUT sets, DELETE without a value removes, DELETE with a set
   * takes its members away, ADD adds to a number or set (or appends to a list, which only the
   * legacy ADD does).
   *
   * @throws ViewbaseException InvalidInput "One or more parameter values were invalid: Only DELETE
   *     action is allowed when no attribute value is specified", "...: DELETE action with value is
   *     not supported for the type N", "...: ADD action is not supported for the type S"
   */
  public static Update attributeUpdates(Object attributeUpdates) {
    List<Update.Action> actions = new ArrayList<>();
    for (Map.Entry<?, ?> e : object(attributeUpdates).entrySet()) {
      String name = (String) e.getKey();
      Map<?, ?> entry = object(e.getValue());
      String action = entry.get("Action") == null ? "PUT" : string(entry.get("Action"));
      if (!List.of("ADD", "PUT", "DELETE").contains(action)) {
        throw enumError(
            "attributeUpdates." + name + ".member.action", action, "[ADD, PUT, DELETE]");
      }
      AttributeValue value =
          entry.get("Value") == null ? null : AttributeValues.read(entry.get("Value"));
      Path path = Path.attribute(name);
      if (value == null) {
        if (!action.equals("DELETE")) {
          throw invalid(
              INVALID + "Only DELETE action is allowed when no attribute value is specified");
        }
        actions.add(new Update.DeleteAction(path, null));
      } else if (action.equals("DELETE")) {
        if (!Set.of("SS", "NS", "BS").contains(value.type())) {
          throw invalid(
              INVALID + "DELETE action with value is not supported for the type " + value.type());
        }
        actions.add(new Update.DeleteAction(path, value));
      } else if (action.equals("ADD")) {
        if (!Set.of("L", "SS", "NS", "BS", "N").contains(value.type())) {
          throw invalid(INVALID + "ADD action is not supported for the type " + value.type());
        }
        actions.add(new Update.AddAction(path, value, true));
      } else {
        actions.add(new Update.SetAction(path, new Update.Constant(value)));
      }
    }
    return new Update(actions);
  }

  /**
   * AttributesToGet as a projection of top-level attributes.
   *
   * @throws ViewbaseException InvalidInput for an empty list or a name given twice ("One or more
   *     parameter values were invalid: Duplicate value in attribute name: a")
   */
  public static Projection attributesToGet(Object attributesToGet) {
    if (!(attributesToGet instanceof List<?> list)) {
      throw ViewbaseException.of(ErrorCode.InvalidJson, "Expected list or null");
    }
    if (list.isEmpty()) {
      throw invalid(
          "1 validation error detected: Value '[]' at 'attributesToGet' failed to satisfy"
              + " constraint: Member must have length greater than or equal to 1");
    }
    Set<String> names = new LinkedHashSet<>();
    for (Object element : list) {
      String name = string(element);
      if (!names.add(name)) {
        throw invalid(INVALID + "Duplicate value in attribute name: " + name);
      }
    }
    return new Projection(names.stream().map(Path::attribute).toList());
  }

  /** A condition entry of a filter or KeyConditions, checked. */
  private record Checked(String operator, List<AttributeValue> values) {}

  private static Checked checked(String parameter, String name, Map<?, ?> entry) {
    Object operator = entry.get("ComparisonOperator");
    String path = Character.toLowerCase(parameter.charAt(0)) + parameter.substring(1);
    if (operator == null) {
      throw invalid(
          "1 validation error detected: Value null at '"
              + path
              + "."
              + name
              + ".member.comparisonOperator' failed to satisfy constraint: Member must not be"
              + " null");
    }
    String op = operator(path + "." + name + ".member.comparisonOperator", operator);
    List<AttributeValue> values = values(entry.get("AttributeValueList"));
    checkCount(op, values);
    checkSameType(values);
    Set<String> types =
        switch (op) {
          case "EQ", "NE" -> SCALARS_AND_SETS;
          case "BEGINS_WITH" -> Set.of("S", "B");
          case "NULL", "NOT_NULL" -> Set.of();
          default -> SCALARS;
        };
    for (AttributeValue v : values) {
      if (!types.contains(v.type())) {
        throw invalid(
            INVALID
                + "ComparisonOperator "
                + op
                + " is not valid for "
                + v.type()
                + " AttributeValue type");
      }
    }
    checkBetween(op, values);
    return new Checked(op, values);
  }

  private static Condition comparison(String name, String op, List<AttributeValue> values) {
    Path path = Path.attribute(name);
    Operand attribute = new Operand.Attribute(path);
    List<Operand> constants = values.stream().map(v -> (Operand) new Operand.Constant(v)).toList();
    return switch (op) {
      case "EQ", "NE", "LT", "LE", "GT", "GE" ->
          new Condition.Compare(Condition.Comparator.valueOf(op), attribute, constants.get(0));
      case "NULL" -> new Condition.AttributeNotExists(path);
      case "NOT_NULL" -> new Condition.AttributeExists(path);
      case "CONTAINS" -> new Condition.Contains(attribute, constants.get(0));
      case "NOT_CONTAINS" ->
          new Condition.And(
              new Condition.AttributeExists(path),
              new Condition.Not(new Condition.Contains(attribute, constants.get(0))));
      case "BEGINS_WITH" -> new Condition.BeginsWith(attribute, constants.get(0));
      case "IN" -> new Condition.In(attribute, constants);
      default -> new Condition.Between(attribute, constants.get(0), constants.get(1));
    };
  }

  private static void checkCount(String op, List<AttributeValue> values) {
    int n = values.size();
    boolean ok =
        switch (op) {
          case "NULL", "NOT_NULL" -> n == 0;
          case "IN" -> n > 0;
          case "BETWEEN" -> n == 2;
          default -> n == 1;
        };
    if (!ok) {
      throw invalid(
          INVALID + "Invalid number of argument(s) for the " + op + " ComparisonOperator");
    }
  }

  private static void checkSameType(List<AttributeValue> values) {
    for (AttributeValue v : values) {
      if (!v.type().equals(values.get(0).type())) {
        throw invalid(INVALID + "AttributeValues inside AttributeValueList must be of same type");
      }
    }
  }

  private static void checkBetween(String op, List<AttributeValue> values) {
    if (op.equals("BETWEEN")
        && KeyOrder.comparable(values.get(0), values.get(1))
        && KeyOrder.compare(values.get(0), values.get(1)) > 0) {
      throw invalid(
          "The BETWEEN condition was provided a range where the lower bound is greater than the"
              + " upper bound");
    }
  }

  private static Optional<Condition> join(List<Condition> conditions, boolean or) {
    return conditions.stream()
        .reduce((a, b) -> or ? new Condition.Or(a, b) : new Condition.And(a, b));
  }

  private static boolean or(Object conditionalOperator) {
    if (conditionalOperator == null) {
      return false;
    }
    String op = string(conditionalOperator);
    if (!op.equals("AND") && !op.equals("OR")) {
      throw enumError("conditionalOperator", op, "[OR, AND]");
    }
    return op.equals("OR");
  }

  private static String operator(String at, Object operator) {
    String op = string(operator);
    if (!OPERATORS.contains(op)) {
      throw enumError(at, op, OPERATORS.toString());
    }
    return op;
  }

  private static ViewbaseException enumError(String at, String value, String values) {
    return invalid(
        "1 validation error detected: Value '"
            + value
            + "' at '"
            + at
            + "' failed to satisfy constraint: Member must satisfy enum value set: "
            + values);
  }

  private static List<AttributeValue> values(Object list) {
    if (list == null) {
      return List.of();
    }
    if (!(list instanceof List<?> elements)) {
      throw ViewbaseException.of(ErrorCode.InvalidJson, "Expected list or null");
    }
    List<AttributeValue> values = new ArrayList<>(elements.size());
    for (Object element : elements) {
      values.add(AttributeValues.read(element));
    }
    return values;
  }

  private static Map<?, ?> object(Object tree) {
    if (tree instanceof Map<?, ?> map) {
      return map;
    }
    throw ViewbaseException.of(ErrorCode.InvalidJson, "Expected map or null");
  }

  private static String string(Object tree) {
    if (tree instanceof String s) {
      return s;
    }
    throw ViewbaseException.of(ErrorCode.InvalidJson, "Expected a string");
  }

  private static Boolean bool(Object tree) {
    if (tree instanceof Boolean b) {
      return b;
    }
    throw ViewbaseException.of(ErrorCode.InvalidJson, "Expected a boolean");
  }

  private static ViewbaseException invalid(String message) {
    return ViewbaseException.of(ErrorCode.InvalidInput, message);
  }
}
