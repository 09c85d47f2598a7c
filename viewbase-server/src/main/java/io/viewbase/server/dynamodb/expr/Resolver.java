package io.viewbase.server.dynamodb.expr;

import io.viewbase.server.dynamodb.expr.Lexer.Kind;
import io.viewbase.server.dynamodb.expr.Lexer.Token;
import io.viewbase.server.dynamodb.expr.Syntax.IndexStep;
import io.viewbase.server.dynamodb.expr.Syntax.NameStep;
import io.viewbase.server.dynamodb.expr.Syntax.PathNode;
import io.viewbase.server.dynamodb.expr.Syntax.Step;
import io.viewbase.server.dynamodb.expr.Syntax.ValueNode;
import io.viewbase.server.dynamodb.model.AttributeValue;
import java.util.ArrayList;
import java.util.List;

/**
 * Resolves a parsed expression's names and values: placeholders looked up (and marked used),
 * reserved words refused, and paths compared for the overlaps DynamoDB refuses. Problems are
 * collected, not thrown, so the expression's most important one is reported.
 */
final class Resolver {
  final Placeholders placeholders;
  final Problems problems;

  Resolver(Placeholders placeholders, Problems problems) {
    this.placeholders = placeholders;
    this.problems = problems;
  }

  Path path(PathNode node) {
    List<Path.Element> elements = new ArrayList<>(node.steps().size());
    for (Step step : node.steps()) {
      if (step instanceof IndexStep index) {
        elements.add(new Path.Index(index.index()));
        continue;
      }
      Token t = ((NameStep) step).token();
      if (t.kind() == Kind.NAME_REF) {
        String name = placeholders.name(t.text());
        if (name == null) {
          problems.add(
              Problems.Kind.UNDEFINED_NAME,
              "An expression attribute name used in the document path is not defined;"
                  + " attribute name: "
                  + t.text());
          name = t.text();
        }
        elements.add(new Path.Name(name));
      } else {
        if (ReservedWords.isReserved(t.text())) {
          problems.add(
              Problems.Kind.RESERVED_WORD,
              "Attribute name is a reserved keyword; reserved keyword: " + t.text());
        }
        elements.add(new Path.Name(t.text()));
      }
    }
    return new Path(elements);
  }

  /** The value of a {@code :placeholder}, or NULL (with a problem noted) when it is not given. */
  AttributeValue value(ValueNode node) {
    AttributeValue value = placeholders.value(node.token().text());
    if (value == null) {
      problems.add(
          Problems.Kind.UNDEFINED_VALUE,
          "An expression attribute value used in expression is not defined; attribute value: "
              + node.token().text());
      return AttributeValue.Null.INSTANCE;
    }
    return value;
  }

  /**
   * Notes overlapping or conflicting paths among those an update writes, or a projection reads: one
   * is a prefix of the other (overlap), or they part where one has a name and the other an index
   * (conflict).
   */
  void checkDistinct(List<Path> paths) {
    for (int i = 0; i < paths.size(); i++) {
      for (int j = 0; j < i; j++) {
        compare(paths.get(j), paths.get(i));
      }
    }
  }

  private void compare(Path one, Path two) {
    List<Path.Element> a = one.elements();
    List<Path.Element> b = two.elements();
    int common = Math.min(a.size(), b.size());
    for (int k = 0; k < common; k++) {
      Path.Element x = a.get(k);
      Path.Element y = b.get(k);
      if (x.getClass() != y.getClass()) {
        problems.add(
            Problems.Kind.CONFLICTING_PATHS,
            "Two document paths conflict with each other; must remove or rewrite one of these"
                + " paths; path one: "
                + one
                + ", path two: "
                + two);
        return;
      }
      if (!x.equals(y)) {
        return;
      }
    }
    problems.add(
        Problems.Kind.OVERLAPPING_PATHS,
        "Two document paths overlap with each other; must remove or rewrite one of these paths;"
            + " path one: "
            + one
            + ", path two: "
            + two);
  }
}
