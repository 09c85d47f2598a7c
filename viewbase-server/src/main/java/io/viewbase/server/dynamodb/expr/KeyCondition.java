package io.viewbase.server.dynamodb.expr;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Stability;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.dynamodb.model.AttributeValue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A Query's key condition: the partition key's value, and optionally a condition on the sort key,
 * which a caller turns into a key range. Built from a KeyConditionExpression ({@link
 * Expressions#parseKeyCondition}) or legacy KeyConditions ({@link LegacyParameters#keyConditions}).
 *
 * <p>A global index's multi-attribute key has several partition key attributes, each with its
 * value, and several sort key attributes, of which the condition names a left-to-right prefix: an
 * equality on each but the last, which may use any sort key operator.
 *
 * <p>The values' types are not checked against the table's attribute definitions here; the caller
 * knows them (DynamoDB: "One or more parameter values were invalid: Condition parameter type does
 * not match schema type").
 *
 * @param partitionValues each partition key attribute's value, in the key's order
 * @param sortConditions the conditions on a prefix of the sort key attributes, in the key's order:
 *     equalities but the last; empty for none
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record KeyCondition(
    Map<String, AttributeValue> partitionValues, List<SortCondition> sortConditions) {

  public KeyCondition {
    Objects.requireNonNull(partitionValues, "partitionValues");
    if (partitionValues.isEmpty()) {
      throw new IllegalArgumentException("A key condition has a partition key value");
    }
    partitionValues = Collections.unmodifiableMap(new LinkedHashMap<>(partitionValues));
    sortConditions = List.copyOf(sortConditions);
    for (int i = 0; i < sortConditions.size() - 1; i++) {
      if (sortConditions.get(i).operator() != SortOperator.EQ) {
        throw new IllegalArgumentException("Only the last sort key condition is not an equality");
      }
    }
  }

  /** The condition of a key of one partition key and at most one sort key. */
  public KeyCondition(
      String partitionKey, AttributeValue partitionValue, Optional<SortCondition> sortCondition) {
    this(Map.of(partitionKey, partitionValue), sortCondition.stream().toList());
  }

  /** The (first) partition key attribute's name. */
  public String partitionKey() {
    return partitionValues.keySet().iterator().next();
  }

  /** The (first) partition key attribute's value. */
  public AttributeValue partitionValue() {
    return partitionValues.values().iterator().next();
  }

  /** The condition on the sort key, or on the last sort key attribute named; empty for none. */
  public Optional<SortCondition> sortCondition() {
    return sortConditions.isEmpty()
        ? Optional.empty()
        : Optional.of(sortConditions.get(sortConditions.size() - 1));
  }

  /** The operators a sort key condition may use. */
  public enum SortOperator {
    EQ,
    LT,
    LE,
    GT,
    GE,
    BETWEEN,
    BEGINS_WITH
  }

  /**
   * A condition on the sort key: {@code value} is the operand, or the lower bound of BETWEEN, whose
   * upper bound is {@code upper} (null for the other operators).
   */
  public record SortCondition(
      String name, SortOperator operator, AttributeValue value, AttributeValue upper) {
    public SortCondition {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(operator, "operator");
      Objects.requireNonNull(value, "value");
      if ((operator == SortOperator.BETWEEN) != (upper != null)) {
        throw new IllegalArgumentException("BETWEEN, and only BETWEEN, has an upper bound");
      }
    }

    /** Whether a sort key value satisfies the condition (false for a value of another type). */
    public boolean test(AttributeValue key) {
      if (key == null) {
        return false;
      }
      return switch (operator) {
        case EQ -> key.equals(value);
        case LT -> Condition.Comparator.LT.holds(key, value);
        case LE -> Condition.Comparator.LE.holds(key, value);
        case GT -> Condition.Comparator.GT.holds(key, value);
        case GE -> Condition.Comparator.GE.holds(key, value);
        case BETWEEN ->
            Condition.Comparator.GE.holds(key, value) && Condition.Comparator.LE.holds(key, upper);
        case BEGINS_WITH ->
            new Condition.BeginsWith(new Operand.Constant(key), new Operand.Constant(value))
                .test(Map.of());
      };
    }
  }

  /** Whether an item's keys satisfy the condition. */
  public boolean test(Map<String, AttributeValue> item) {
    for (Map.Entry<String, AttributeValue> p : partitionValues.entrySet()) {
      if (!p.getValue().equals(item.get(p.getKey()))) {
        return false;
      }
    }
    for (SortCondition s : sortConditions) {
      if (!s.test(item.get(s.name()))) {
        return false;
      }
    }
    return true;
  }

  /** One attribute's condition before the key schema is applied. */
  record Atom(String name, SortOperator operator, AttributeValue value, AttributeValue upper) {}

  /**
   * Builds a key condition from a parsed KeyConditionExpression, with DynamoDB's refusals (which,
   * unlike the grammar's, carry no "Invalid KeyConditionExpression:" prefix).
   */
  static KeyCondition fromExpression(
      Condition condition, List<String> hashKeys, List<String> rangeKeys) {
    List<Atom> atoms = new ArrayList<>();
    collect(condition, atoms);
    return of(atoms, hashKeys, rangeKeys);
  }

  private static void collect(Condition c, List<Atom> atoms) {
    if (c instanceof Condition.And and) {
      collect(and.left(), atoms);
      collect(and.right(), atoms);
      return;
    }
    String refused =
        c instanceof Condition.Or
            ? "OR"
            : c instanceof Condition.Not
                ? "NOT"
                : c instanceof Condition.In
                    ? "IN"
                    : c instanceof Condition.Compare cmp
                            && cmp.comparator() == Condition.Comparator.NE
                        ? "<>"
                        : c instanceof Condition.AttributeExists
                            ? "attribute_exists"
                            : c instanceof Condition.AttributeNotExists
                                ? "attribute_not_exists"
                                : c instanceof Condition.AttributeType
                                    ? "attribute_type"
                                    : c instanceof Condition.Contains ? "contains" : null;
    if (refused != null) {
      throw invalid("Invalid operator used in KeyConditionExpression: " + refused);
    }
    if (c instanceof Condition.Compare cmp) {
      Operand left = cmp.left();
      Operand right = cmp.right();
      noSize(left, right);
      if (left instanceof Operand.Attribute a && right instanceof Operand.Constant v) {
        atoms.add(new Atom(keyName(a), sortOperator(cmp.comparator()), v.value(), null));
      } else if (right instanceof Operand.Attribute a && left instanceof Operand.Constant v) {
        atoms.add(new Atom(keyName(a), sortOperator(cmp.comparator().swapped()), v.value(), null));
      } else if (left instanceof Operand.Attribute && right instanceof Operand.Attribute) {
        throw multipleNames();
      } else {
        throw invalid("Invalid condition in KeyConditionExpression: No key attribute specified");
      }
    } else if (c instanceof Condition.Between b) {
      noSize(b.value(), b.low(), b.high());
      Operand.Attribute a = firstAttribute("BETWEEN", b.value(), b.low(), b.high());
      atoms.add(
          new Atom(
              keyName(a),
              SortOperator.BETWEEN,
              ((Operand.Constant) b.low()).value(),
              ((Operand.Constant) b.high()).value()));
    } else {
      Condition.BeginsWith bw = (Condition.BeginsWith) c;
      noSize(bw.value(), bw.prefix());
      Operand.Attribute a = firstAttribute("begins_with", bw.value(), bw.prefix());
      atoms.add(
          new Atom(
              keyName(a),
              SortOperator.BEGINS_WITH,
              ((Operand.Constant) bw.prefix()).value(),
              null));
    }
  }

  private static Operand.Attribute firstAttribute(String operator, Operand... operands) {
    int attributes = 0;
    for (Operand o : operands) {
      attributes += o instanceof Operand.Attribute ? 1 : 0;
    }
    if (attributes > 1) {
      throw multipleNames();
    }
    if (!(operands[0] instanceof Operand.Attribute a)) {
      throw invalid(
          "Invalid condition in KeyConditionExpression: "
              + operator
              + " operator must have the key attribute as its first operand");
    }
    return a;
  }

  private static void noSize(Operand... operands) {
    for (Operand o : operands) {
      if (o instanceof Operand.Size) {
        throw invalid("KeyConditionExpressions cannot contain nested operations");
      }
    }
  }

  private static String keyName(Operand.Attribute a) {
    if (!a.path().isTopLevel()) {
      throw invalid("KeyConditionExpressions cannot have conditions on nested attributes");
    }
    return a.path().attribute();
  }

  private static SortOperator sortOperator(Condition.Comparator c) {
    return switch (c) {
      case EQ -> SortOperator.EQ;
      case LT -> SortOperator.LT;
      case LE -> SortOperator.LE;
      case GT -> SortOperator.GT;
      default -> SortOperator.GE;
    };
  }

  /**
   * Applies the key schema to the attributes' conditions: every partition key attribute by
   * equality, besides them conditions on a left-to-right prefix of the sort key attributes,
   * equalities but the last, each attribute once.
   *
   * <pre>
   * condition                                    | refused with
   * ---------------------------------------------+---------------------------------------------------
   * an attribute twice                           | KeyConditionExpressions must only contain one
   *                                              |   condition per key
   * a partition key attribute not named          | Query condition missed key schema element: h
   * a non-key attribute, the first sort key      | Query condition missed key schema element: r1
   *   attribute not named                        |
   * a non-key attribute; a partition key         | Query key condition not supported
   *   attribute not by equality                  |
   * a sort key attribute skipped, or not by      | RANGE key attributes r1 must have equality
   *   equality before a later one                |   conditions specified in the query because a
   *                                              |   condition is present on key attribute r2
   * </pre>
   */
  static KeyCondition of(List<Atom> atoms, List<String> hashKeys, List<String> rangeKeys) {
    Map<String, Atom> byName = new LinkedHashMap<>();
    for (Atom atom : atoms) {
      if (byName.put(atom.name(), atom) != null) {
        throw invalid("KeyConditionExpressions must only contain one condition per key");
      }
    }
    checkNamed(byName.keySet(), hashKeys, rangeKeys);
    Map<String, AttributeValue> partition = new LinkedHashMap<>();
    for (String h : hashKeys) {
      Atom hash = byName.get(h);
      if (hash.operator() != SortOperator.EQ) {
        throw invalid("Query key condition not supported");
      }
      partition.put(h, hash.value());
    }
    int last = -1;
    for (int i = 0; i < rangeKeys.size(); i++) {
      if (byName.containsKey(rangeKeys.get(i))) {
        last = i;
      }
    }
    List<SortCondition> sort = new ArrayList<>();
    for (int i = 0; i <= last; i++) {
      Atom r = byName.get(rangeKeys.get(i));
      if (i < last) {
        checkEquality(r, rangeKeys.get(i), rangeKeys.get(last));
      }
      sort.add(new SortCondition(r.name(), r.operator(), r.value(), r.upper()));
    }
    if (byName.size() > partition.size() + sort.size()) { // a non-key attribute besides
      throw invalid("Query key condition not supported");
    }
    return new KeyCondition(partition, sort);
  }

  /**
   * Refuses conditions that miss a partition key attribute, or that name a non-key attribute
   * without naming the first sort key attribute.
   */
  static void checkNamed(Set<String> named, List<String> hashKeys, List<String> rangeKeys) {
    for (String h : hashKeys) {
      if (!named.contains(h)) {
        throw invalid("Query condition missed key schema element: " + h);
      }
    }
    boolean nonKey = named.stream().anyMatch(n -> !hashKeys.contains(n) && !rangeKeys.contains(n));
    if (nonKey && !rangeKeys.isEmpty() && !named.contains(rangeKeys.get(0))) {
      throw invalid("Query condition missed key schema element: " + rangeKeys.get(0));
    }
  }

  /** Refuses a sort key attribute before the last one named that is not named by equality. */
  private static void checkEquality(Atom atom, String name, String lastNamed) {
    if (atom == null || atom.operator() != SortOperator.EQ) {
      throw invalid(
          "RANGE key attributes "
              + name
              + " must have equality conditions specified in the query because a condition is"
              + " present on key attribute "
              + lastNamed);
    }
  }

  private static ViewbaseException multipleNames() {
    return invalid(
        "Invalid condition in KeyConditionExpression: Multiple attribute names used in one"
            + " condition");
  }

  static ViewbaseException invalid(String message) {
    return ViewbaseException.of(ErrorCode.InvalidInput, message);
  }
}
