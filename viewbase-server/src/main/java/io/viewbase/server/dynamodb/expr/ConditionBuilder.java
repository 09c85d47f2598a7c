package io.viewbase.server.dynamodb.expr;

import io.viewbase.server.dynamodb.expr.Problems.Kind;
import io.viewbase.server.dynamodb.expr.Syntax.AndNode;
import io.viewbase.server.dynamodb.expr.Syntax.BetweenNode;
import io.viewbase.server.dynamodb.expr.Syntax.CallNode;
import io.viewbase.server.dynamodb.expr.Syntax.CompareNode;
import io.viewbase.server.dynamodb.expr.Syntax.InNode;
import io.viewbase.server.dynamodb.expr.Syntax.Node;
import io.viewbase.server.dynamodb.expr.Syntax.NotNode;
import io.viewbase.server.dynamodb.expr.Syntax.OrNode;
import io.viewbase.server.dynamodb.expr.Syntax.ParenNode;
import io.viewbase.server.dynamodb.expr.Syntax.PathNode;
import io.viewbase.server.dynamodb.expr.Syntax.ValueNode;
import io.viewbase.server.dynamodb.model.AttributeValue;
import io.viewbase.server.dynamodb.model.KeyOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a condition's syntax tree into a {@link Condition}, checking what the grammar cannot: that
 * functions exist, take their number and kind of operands, and are used as conditions or as
 * operands as each must be.
 *
 * <pre>
 * function             | operands                   | used as
 * ---------------------+----------------------------+-----------------------------
 * attribute_exists     | a path                     | a condition
 * attribute_not_exists | a path                     | a condition
 * attribute_type       | a path, an S naming a type | a condition
 * begins_with          | two operands, S or B       | a condition
 * contains             | two operands               | a condition
 * size                 | one operand, not N/BOOL/NULL | an operand
 * </pre>
 */
final class ConditionBuilder {
  private static final Map<String, Integer> ARITY =
      Map.of(
          "attribute_exists", 1,
          "attribute_not_exists", 1,
          "attribute_type", 2,
          "begins_with", 2,
          "contains", 2,
          "size", 1);
  private static final Set<String> TYPES =
      Set.of("S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS");
  private static final Condition PLACEHOLDER = new Condition.AttributeExists(Path.attribute(""));

  private final Resolver resolver;
  private final Problems problems;

  ConditionBuilder(Resolver resolver) {
    this.resolver = resolver;
    this.problems = resolver.problems;
  }

  Condition condition(Node node) {
    if (node instanceof ParenNode p) {
      if (p.inner() instanceof ParenNode) {
        problems.add(Kind.REDUNDANT_PARENTHESES, "The expression has redundant parentheses;");
      }
      return condition(p.inner());
    } else if (node instanceof AndNode and) {
      return new Condition.And(condition(and.left()), condition(and.right()));
    } else if (node instanceof OrNode or) {
      return new Condition.Or(condition(or.left()), condition(or.right()));
    } else if (node instanceof NotNode not) {
      return new Condition.Not(condition(not.inner()));
    } else if (node instanceof CompareNode c) {
      Operand left = operand(c.left());
      Operand right = operand(c.right());
      distinct(c.operator(), left, List.of(right));
      return new Condition.Compare(Condition.Comparator.of(c.operator()), left, right);
    } else if (node instanceof BetweenNode b) {
      Operand value = operand(b.value());
      Operand low = operand(b.low());
      Operand high = operand(b.high());
      checkBounds(low, high);
      return new Condition.Between(value, low, high);
    } else if (node instanceof InNode in) {
      Operand value = operand(in.value());
      List<Operand> candidates = new ArrayList<>();
      for (Node candidate : in.candidates()) {
        candidates.add(operand(candidate));
      }
      return new Condition.In(value, candidates);
    } else if (node instanceof CallNode call) {
      return function(call);
    }
    // The parser lets no bare path or value stand as a condition.
    throw new IllegalStateException("Not a condition: " + node);
  }

  private Condition function(CallNode call) {
    String name = call.name().text();
    Integer arity = ARITY.get(name);
    if (arity == null) {
      problems.add(Kind.UNKNOWN_FUNCTION, "Invalid function name; function: " + name);
      return PLACEHOLDER;
    }
    if (name.equals("size")) {
      misused(name);
      return PLACEHOLDER;
    }
    List<Operand> args = new ArrayList<>();
    for (Node argument : call.arguments()) {
      args.add(operand(argument));
    }
    if (args.size() != arity) {
      problems.add(
          Kind.OPERAND_COUNT,
          "Incorrect number of operands for operator or function; operator or function: "
              + name
              + ", number of operands: "
              + args.size());
      return PLACEHOLDER;
    }
    if (args.size() == 2) {
      distinct(name, args.get(0), List.of(args.get(1)));
    }
    switch (name) {
      case "attribute_exists":
      case "attribute_not_exists":
      case "attribute_type":
        {
          if (!(args.get(0) instanceof Operand.Attribute attribute)) {
            problems.add(
                Kind.FUNCTION_OPERAND,
                "Operator or function requires a document path; operator or function: " + name);
            return PLACEHOLDER;
          }
          if (name.equals("attribute_exists")) {
            return new Condition.AttributeExists(attribute.path());
          }
          if (name.equals("attribute_not_exists")) {
            return new Condition.AttributeNotExists(attribute.path());
          }
          String type = typeName(args.get(1));
          return type == null ? PLACEHOLDER : new Condition.AttributeType(attribute.path(), type);
        }
      case "begins_with":
        for (Operand arg : args) {
          String type = staticType(arg);
          if (type != null && !type.equals("S") && !type.equals("B")) {
            operandType(name, type);
          }
        }
        return new Condition.BeginsWith(args.get(0), args.get(1));
      default:
        return new Condition.Contains(args.get(0), args.get(1));
    }
  }

  /** The type attribute_type's second operand names, or null (with a problem noted). */
  private String typeName(Operand operand) {
    String type = staticType(operand);
    if (!"S".equals(type)) {
      operandType("attribute_type", type == null ? "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}" : type);
      return null;
    }
    String name = ((AttributeValue.S) ((Operand.Constant) operand).value()).value();
    if (!TYPES.contains(name)) {
      problems.add(
          Kind.FUNCTION_OPERAND,
          "Invalid attribute type name found; type: "
              + name
              + ", valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}");
      return null;
    }
    return name;
  }

  Operand operand(Node node) {
    if (node instanceof ParenNode p) {
      if (p.inner() instanceof ParenNode) {
        problems.add(Kind.REDUNDANT_PARENTHESES, "The expression has redundant parentheses;");
      }
      return operand(p.inner());
    } else if (node instanceof PathNode path) {
      return new Operand.Attribute(resolver.path(path));
    } else if (node instanceof ValueNode value) {
      return new Operand.Constant(resolver.value(value));
    }
    CallNode call = (CallNode) node;
    String name = call.name().text();
    if (!ARITY.containsKey(name)) {
      problems.add(Kind.UNKNOWN_FUNCTION, "Invalid function name; function: " + name);
      return new Operand.Constant(AttributeValue.Null.INSTANCE);
    }
    if (!name.equals("size")) {
      misused(name);
      return new Operand.Constant(AttributeValue.Null.INSTANCE);
    }
    List<Operand> args = new ArrayList<>();
    for (Node argument : call.arguments()) {
      args.add(operand(argument));
    }
    if (args.size() != 1) {
      problems.add(
          Kind.OPERAND_COUNT,
          "Incorrect number of operands for operator or function; operator or function: size,"
              + " number of operands: "
              + args.size());
      return new Operand.Constant(AttributeValue.Null.INSTANCE);
    }
    String type = staticType(args.get(0));
    if (type != null && (type.equals("N") || type.equals("BOOL") || type.equals("NULL"))) {
      operandType("size", type);
    }
    return new Operand.Size(args.get(0));
  }

  private void misused(String function) {
    problems.add(
        Kind.MISUSED_FUNCTION,
        "The function is not allowed to be used this way in an expression; function: " + function);
  }

  private void operandType(String function, String type) {
    problems.add(
        Kind.FUNCTION_OPERAND,
        "Incorrect operand type for operator or function; operator or function: "
            + function
            + ", operand type: "
            + type);
  }

  /**
   * DynamoDB refuses {@code a = a}: an operator whose first operand is the same path as another.
   */
  private void distinct(String operator, Operand first, List<Operand> others) {
    if (first instanceof Operand.Attribute a) {
      for (Operand other : others) {
        if (other instanceof Operand.Attribute b && a.path().equals(b.path())) {
          problems.add(
              Kind.NOT_DISTINCT,
              "The first operand must be distinct from the remaining operands for this operator or"
                  + " function; operator: "
                  + operator
                  + ", first operand: "
                  + a.path());
        }
      }
    }
  }

  private void checkBounds(Operand low, Operand high) {
    if (!(low instanceof Operand.Constant l) || !(high instanceof Operand.Constant h)) {
      return;
    }
    AttributeValue x = l.value();
    AttributeValue y = h.value();
    String bounds =
        "lower bound operand: AttributeValue: "
            + display(x)
            + ", upper bound operand: AttributeValue: "
            + display(y);
    if (!x.type().equals(y.type())) {
      problems.add(
          Kind.FUNCTION_OPERAND,
          "The BETWEEN operator requires same data type for lower and upper bounds; " + bounds);
    } else if (KeyOrder.comparable(x, y) && KeyOrder.compare(x, y) > 0) {
      problems.add(
          Kind.FUNCTION_OPERAND,
          "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; "
              + bounds);
    }
  }

  /** A value as DynamoDB shows it in messages: {@code {N:1}}, {@code {S:a}}. */
  static String display(AttributeValue v) {
    Object content =
        v instanceof AttributeValue.S s
            ? s.value()
            : v instanceof AttributeValue.N n
                ? n.text()
                : v instanceof AttributeValue.B b ? b.base64() : v.toString();
    return "{" + v.type() + ":" + content + "}";
  }

  /** The type an operand has whatever the item: a constant's, or N for size(). */
  static String staticType(Operand operand) {
    if (operand instanceof Operand.Constant c) {
      return c.value().type();
    }
    return operand instanceof Operand.Size ? "N" : null;
  }
}
