package io.viewbase.server.dynamodb.expr;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Stability;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.dynamodb.model.AttributeValue;
import io.viewbase.server.dynamodb.model.AttributeValues;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One request's ExpressionAttributeNames ({@code #n}) and ExpressionAttributeValues ({@code :v}),
 * and which of them its expressions used.
 *
 * <p>DynamoDB refuses a placeholder that no expression of the request uses, but a request may hold
 * several expressions (a Query's key condition, filter and projection), so the check spans them:
 * parse every expression of the request with the same instance, then call {@link #checkAllUsed}.
 *
 * <pre>
 * refusal                                        | message
 * -----------------------------------------------+------------------------------------------------
 * {} given for either map                        | ExpressionAttributeNames must not be empty
 * a key not #[0-9A-Za-z_]+ (or :[0-9A-Za-z_]+)   | ExpressionAttributeNames contains invalid key:
 *                                                |   Syntax error; key: "#a-b"
 * an invalid value                               | ExpressionAttributeValues contains invalid
 *                                                |   value: (the value's message) for key :v
 * a placeholder used but not given               | (at parse) An expression attribute name used in
 *                                                |   the document path is not defined; ...
 * a placeholder given but not used               | Value provided in ExpressionAttributeValues
 *                                                |   unused in expressions: keys: {:a, :b}
 * </pre>
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class Placeholders {
  private static final Pattern NAME_KEY = Pattern.compile("#[0-9A-Za-z_]+");
  private static final Pattern VALUE_KEY = Pattern.compile(":[0-9A-Za-z_]+");

  private final Map<String, String> names;
  private final Map<String, AttributeValue> values;
  private final Set<String> usedNames = new LinkedHashSet<>();
  private final Set<String> usedValues = new LinkedHashSet<>();

  /** Placeholders already read; keys are taken as given. */
  public Placeholders(Map<String, String> names, Map<String, AttributeValue> values) {
    this.names = Collections.unmodifiableMap(new LinkedHashMap<>(names));
    this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /** No placeholders: for a request that gives neither map. */
  public static Placeholders none() {
    return new Placeholders(Map.of(), Map.of());
  }

  /**
   * Reads the two request members as {@link io.viewbase.server.dynamodb.model.JsonTree} gives them;
   * either may be null (absent).
   *
   * @throws ViewbaseException InvalidInput as the table above; InvalidJson for a member of the
   *     wrong JSON shape
   */
  public static Placeholders read(
      Object expressionAttributeNames, Object expressionAttributeValues) {
    Map<String, String> names = new LinkedHashMap<>();
    if (expressionAttributeNames != null) {
      Map<?, ?> tree = object(expressionAttributeNames);
      if (tree.isEmpty()) {
        throw invalid("ExpressionAttributeNames must not be empty");
      }
      for (Map.Entry<?, ?> e : tree.entrySet()) {
        String key = (String) e.getKey();
        if (!NAME_KEY.matcher(key).matches()) {
          throw invalid(
              "ExpressionAttributeNames contains invalid key: Syntax error; key: \"" + key + "\"");
        }
        if (!(e.getValue() instanceof String name)) {
          throw ViewbaseException.of(
              ErrorCode.InvalidJson, "An ExpressionAttributeNames value is not a string");
        }
        names.put(key, name);
      }
    }
    Map<String, AttributeValue> values = new LinkedHashMap<>();
    if (expressionAttributeValues != null) {
      Map<?, ?> tree = object(expressionAttributeValues);
      if (tree.isEmpty()) {
        throw invalid("ExpressionAttributeValues must not be empty");
      }
      for (Object key : tree.keySet()) {
        if (!VALUE_KEY.matcher((String) key).matches()) {
          throw invalid(
              "ExpressionAttributeValues contains invalid key: Syntax error; key: \"" + key + "\"");
        }
      }
      for (Map.Entry<?, ?> e : tree.entrySet()) {
        try {
          values.put((String) e.getKey(), AttributeValues.read(e.getValue()));
        } catch (ViewbaseException bad) {
          if (bad.code() != ErrorCode.InvalidInput) {
            throw bad;
          }
          throw invalid(
              "ExpressionAttributeValues contains invalid value: "
                  + bad.getMessage()
                  + " for key "
                  + e.getKey());
        }
      }
    }
    return new Placeholders(names, values);
  }

  private static Map<?, ?> object(Object tree) {
    if (tree instanceof Map<?, ?> map) {
      return map;
    }
    throw ViewbaseException.of(ErrorCode.InvalidJson, "Expected a JSON object");
  }

  /** Whether any name or value was given: expressions must then be present to use them. */
  public boolean hasNames() {
    return !names.isEmpty();
  }

  public boolean hasValues() {
    return !values.isEmpty();
  }

  /** The name a {@code #placeholder} stands for, marking it used; null when not given. */
  String name(String placeholder) {
    String name = names.get(placeholder);
    if (name != null) {
      usedNames.add(placeholder);
    }
    return name;
  }

  /** The value a {@code :placeholder} stands for, marking it used; null when not given. */
  AttributeValue value(String placeholder) {
    AttributeValue value = values.get(placeholder);
    if (value != null) {
      usedValues.add(placeholder);
    }
    return value;
  }

  /** The names used so far by the expressions parsed with this instance. */
  public Set<String> usedNames() {
    return Collections.unmodifiableSet(usedNames);
  }

  /** The values used so far by the expressions parsed with this instance. */
  public Set<String> usedValues() {
    return Collections.unmodifiableSet(usedValues);
  }

  /**
   * Refuses placeholders that none of the request's expressions used: names first, then values, as
   * DynamoDB checks them. Call after parsing all of the request's expressions.
   *
   * @throws ViewbaseException InvalidInput "Value provided in ExpressionAttributeNames unused in
   *     expressions: keys: {#a}" (or ExpressionAttributeValues)
   */
  public void checkAllUsed() {
    List<String> unusedNames = new ArrayList<>(names.keySet());
    unusedNames.removeAll(usedNames);
    if (!unusedNames.isEmpty()) {
      throw invalid(
          "Value provided in ExpressionAttributeNames unused in expressions: keys: {"
              + String.join(", ", unusedNames)
              + "}");
    }
    List<String> unusedValues = new ArrayList<>(values.keySet());
    unusedValues.removeAll(usedValues);
    if (!unusedValues.isEmpty()) {
      throw invalid(
          "Value provided in ExpressionAttributeValues unused in expressions: keys: {"
              + String.join(", ", unusedValues)
              + "}");
    }
  }

  private static ViewbaseException invalid(String message) {
    return ViewbaseException.of(ErrorCode.InvalidInput, message);
  }
}
