package io.viewbase.server.dynamodb.expr;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Stability;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.dynamodb.model.AttributeValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A Query's key condition: the partition key's value, and optionally a condition on the sort key,
 * which a caller turns into a key range. Built from a KeyConditionExpression ({@link
 * Expressions#parseKeyCondition}) or legacy KeyConditions ({@link LegacyParameters#keyConditions}).
 *
 * <p>The values' types are not checked against the table's attribute definitions here; the caller
 * knows them (DynamoDB: "One or more parameter values were invalid: Condition parameter type does
 * not match schema type").
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record KeyCondition(
    String partitionKey, AttributeValue partitionValue, Optional<SortCondition> sortCondition) {

  public KeyCondition {
    Objects.requireNonNull(partitionKey, "partitionKey");
    Objects.requireNonNull(partitionValue, "partitionValue");
    Objects.requireNonNull(sortCondition, "sortCondition");
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
    if (!partitionValue.equals(item.get(partitionKey))) {
      return false;
    }
    return sortCondition.map(s -> s.test(item.get(s.name()))).orElse(true);
  }

  /** One attribute's condition before the key schema is applied. */
  record Atom(String name, SortOperator operator, AttributeValue value, AttributeValue upper) {}

  /**
   * Builds a key condition from a parsed KeyConditionExpression, with DynamoDB's refusals (which,
   * unlike the grammar's, carry no "Invalid KeyConditionExpression:" prefix).
   */
  static KeyCondition fromExpression(Condition condition, String hashKey, String rangeKey) {
    List<Atom> atoms = new ArrayList<>();
    collect(condition, atoms);
    return of(atoms, hashKey, rangeKey);
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
   * Applies the key schema to the attributes' conditions: the partition key by equality, at most
   * the sort key besides, each once.
   */
  static KeyCondition of(List<Atom> atoms, String hashKey, String rangeKey) {
    Map<String, Atom> byName = new LinkedHashMap<>();
    for (Atom atom : atoms) {
      if (byName.put(atom.name(), atom) != null) {
        throw invalid("KeyConditionExpressions must only contain one condition per key");
      }
    }
    Atom hash = byName.get(hashKey);
    if (hash == null) {
      throw invalid("Query condition missed key schema element: " + hashKey);
    }
    if (byName.size() > 1 && rangeKey != null && !byName.containsKey(rangeKey)) {
      throw invalid("Query condition missed key schema element: " + rangeKey);
    }
    if (byName.size() > (rangeKey == null ? 1 : 2) || hash.operator() != SortOperator.EQ) {
      throw invalid("Query key condition not supported");
    }
    Atom range = rangeKey == null ? null : byName.get(rangeKey);
    return new KeyCondition(
        hashKey,
        hash.value(),
        Optional.ofNullable(range)
            .map(r -> new SortCondition(r.name(), r.operator(), r.value(), r.upper())));
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
