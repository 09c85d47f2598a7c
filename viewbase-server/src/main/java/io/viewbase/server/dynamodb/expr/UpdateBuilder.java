package io.viewbase.server.dynamodb.expr;

import io.viewbase.server.dynamodb.expr.Problems.Kind;
import io.viewbase.server.dynamodb.expr.Syntax.ActionNode;
import io.viewbase.server.dynamodb.expr.Syntax.ArithmeticNode;
import io.viewbase.server.dynamodb.expr.Syntax.CallNode;
import io.viewbase.server.dynamodb.expr.Syntax.Node;
import io.viewbase.server.dynamodb.expr.Syntax.ParenNode;
import io.viewbase.server.dynamodb.expr.Syntax.PathNode;
import io.viewbase.server.dynamodb.expr.Syntax.ValueNode;
import io.viewbase.server.dynamodb.model.AttributeValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns an update expression's actions into an {@link Update}, checking what the grammar cannot:
 * each clause once, paths that neither overlap nor conflict, functions that exist and take their
 * operands, ADD given a number or a set, DELETE a set.
 */
final class UpdateBuilder {
  /** DynamoDB's names for types in the messages about ADD and DELETE operands. */
  private static final Map<String, String> TYPE_WORDS =
      Map.of(
          "S", "STRING",
          "N", "NUMBER",
          "B", "BINARY",
          "NULL", "NULL",
          "BOOL", "BOOLEAN",
          "L", "LIST",
          "M", "MAP");

  private static final Set<String> SETS = Set.of("SS", "NS", "BS");

  private final Resolver resolver;
  private final Problems problems;

  UpdateBuilder(Resolver resolver) {
    this.resolver = resolver;
    this.problems = resolver.problems;
  }

  Update build(List<ActionNode> nodes, String repeatedClause) {
    if (repeatedClause != null) {
      problems.add(
          Kind.REPEATED_CLAUSE,
          "The \"" + repeatedClause + "\" section can only be used once in an update expression;");
    }
    List<Update.Action> actions = new ArrayList<>();
    List<Path> paths = new ArrayList<>();
    for (ActionNode node : nodes) {
      Path path = resolver.path(node.path());
      paths.add(path);
      switch (node.clause()) {
        case "SET":
          actions.add(new Update.SetAction(path, value(node.value())));
          break;
        case "REMOVE":
          actions.add(new Update.RemoveAction(path));
          break;
        case "ADD":
          {
            AttributeValue v = resolver.value((ValueNode) node.value());
            if (!v.type().equals("N") && !SETS.contains(v.type())) {
              actionOperand("ADD", v);
            }
            actions.add(new Update.AddAction(path, v, false));
            break;
          }
        default:
          {
            AttributeValue v = resolver.value((ValueNode) node.value());
            if (!SETS.contains(v.type())) {
              actionOperand("DELETE", v);
            }
            actions.add(new Update.DeleteAction(path, v));
            break;
          }
      }
    }
    resolver.checkDistinct(paths);
    return new Update(actions);
  }

  private void actionOperand(String action, AttributeValue v) {
    problems.add(
        Kind.ACTION_OPERAND,
        "Incorrect operand type for operator or function; operator: "
            + action
            + ", operand type: "
            + TYPE_WORDS.getOrDefault(v.type(), v.type()));
  }

  private Update.Value value(Node node) {
    if (node instanceof ParenNode p) {
      return value(p.inner());
    } else if (node instanceof PathNode path) {
      return new Update.Read(resolver.path(path));
    } else if (node instanceof ValueNode v) {
      return new Update.Constant(resolver.value(v));
    } else if (node instanceof ArithmeticNode a) {
      Update.Value left = value(a.left());
      Update.Value right = value(a.right());
      operandTypes(a.operator(), "N", left, right);
      return new Update.Arithmetic(a.operator().equals("+"), left, right);
    }
    CallNode call = (CallNode) node;
    String name = call.name().text();
    if (!name.equals("if_not_exists") && !name.equals("list_append")) {
      problems.add(Kind.UNKNOWN_FUNCTION, "Invalid function name; function: " + name);
      return new Update.Constant(AttributeValue.Null.INSTANCE);
    }
    List<Update.Value> args = new ArrayList<>();
    for (Node argument : call.arguments()) {
      Node bare = Syntax.unwrap(argument);
      if (name.equals("list_append")
          && bare instanceof CallNode inner
          && inner.name().text().equals("list_append")) {
        problems.add(
            Kind.MISUSED_FUNCTION,
            "The function is not allowed to be used this way in an expression; function:"
                + " list_append");
      }
      args.add(value(argument));
    }
    if (args.size() != 2) {
      problems.add(
          Kind.OPERAND_COUNT,
          "Incorrect number of operands for operator or function; operator or function: "
              + name
              + ", number of operands: "
              + args.size());
      return new Update.Constant(AttributeValue.Null.INSTANCE);
    }
    if (name.equals("if_not_exists")) {
      if (!(args.get(0) instanceof Update.Read read)) {
        problems.add(
            Kind.FUNCTION_OPERAND,
            "Operator or function requires a document path; operator or function: if_not_exists");
        return new Update.Constant(AttributeValue.Null.INSTANCE);
      }
      return new Update.IfNotExists(read.path(), args.get(1));
    }
    operandTypes("list_append", "L", args.get(0), args.get(1));
    return new Update.ListAppend(args.get(0), args.get(1));
  }

  /** Notes a constant operand of a type the operator or function does not take. */
  private void operandTypes(String function, String type, Update.Value... operands) {
    for (Update.Value operand : operands) {
      String actual = staticType(operand);
      if (actual != null && !actual.equals(type)) {
        problems.add(
            Kind.FUNCTION_OPERAND,
            "Incorrect operand type for operator or function; operator or function: "
                + function
                + ", operand type: "
                + actual);
        return;
      }
    }
  }

  private static String staticType(Update.Value value) {
    if (value instanceof Update.Constant c) {
      return c.value().type();
    }
    if (value instanceof Update.Arithmetic) {
      return "N";
    }
    return value instanceof Update.ListAppend ? "L" : null;
  }
}
