package io.viewbase.core;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.util.Map;

/**
 * The {@code where} of a view: a predicate over an item's properties in the OData {@code $filter}
 * form, interim until the full filter module lands. Supported: comparisons {@code eq ne gt ge lt
 * le} between a property and a literal ({@code 'text'} with {@code ''} for a quote, integers,
 * {@code 123L}, decimals, {@code true}/{@code false}), combined with {@code and}, {@code or},
 * {@code not} and parentheses.
 *
 * <p>Semantics follow Azure Tables: a missing (or null) property never matches, not even with
 * {@code ne}; int32, int64 and double compare numerically; strings compare ordinally; values of
 * other, different types never match.
 */
final class WhereFilter {
  private sealed interface Node permits And, Or, Not, Compare {
  }

  private record And(Node left, Node right) implements Node {
  }

  private record Or(Node left, Node right) implements Node {
  }

  private record Not(Node inner) implements Node {
  }

  private record Compare(String property, String op, Value literal) implements Node {
  }

  private final String text;
  private final Node root;

  private WhereFilter(String text, Node root) {
    this.text = text;
    this.root = root;
  }

  static WhereFilter parse(String text) {
    Parser p = new Parser(text);
    Node node = p.or();
    p.skipSpace();
    if (p.pos < text.length()) {
      throw p.error("expected 'and', 'or' or the end");
    }
    return new WhereFilter(text, node);
  }

  boolean matches(String partitionKey, String id, Map<String, Value> properties) {
    return eval(root, partitionKey, id, properties);
  }

  private static boolean eval(Node node, String pk, String id, Map<String, Value> props) {
    if (node instanceof And a) {
      return eval(a.left(), pk, id, props) && eval(a.right(), pk, id, props);
    } else if (node instanceof Or o) {
      return eval(o.left(), pk, id, props) || eval(o.right(), pk, id, props);
    } else if (node instanceof Not n) {
      return !eval(n.inner(), pk, id, props);
    }
    Compare c = (Compare) node;
    Value actual = switch (c.property()) {
      case "partitionKey", "PartitionKey" -> Value.of(pk);
      case "id", "RowKey" -> Value.of(id);
      default -> props.get(c.property());
    };
    if (actual == null || actual == Value.Null.INSTANCE) {
      return false;
    }
    Integer cmp = compare(actual, c.literal());
    if (cmp == null) {
      return false;
    }
    return switch (c.op()) {
      case "eq" -> cmp == 0;
      case "ne" -> cmp != 0;
      case "gt" -> cmp > 0;
      case "ge" -> cmp >= 0;
      case "lt" -> cmp < 0;
      default -> cmp <= 0;
    };
  }

  /** Orders two values of comparable types; null when their types do not compare. */
  private static Integer compare(Value a, Value b) {
    if (isNumber(a) && isNumber(b)) {
      if (a instanceof Value.Double || b instanceof Value.Double) {
        return Double.compare(asDouble(a), asDouble(b));
      }
      return Long.compare(asLong(a), asLong(b));
    }
    if (a instanceof Value.Str x && b instanceof Value.Str y) {
      return Integer.signum(x.value().compareTo(y.value()));
    }
    if (a instanceof Value.Bool x && b instanceof Value.Bool y) {
      return Boolean.compare(x.value(), y.value());
    }
    return null;
  }

  private static boolean isNumber(Value v) {
    return v instanceof Value.Int32 || v instanceof Value.Int64 || v instanceof Value.Double;
  }

  private static double asDouble(Value v) {
    return v instanceof Value.Double d ? d.value() : asLong(v);
  }

  private static long asLong(Value v) {
    return v instanceof Value.Int32 i ? i.value() : ((Value.Int64) v).value();
  }

  @Override
  public String toString() {
    return text;
  }

  private static final class Parser {
    private final String text;
    private int pos;

    Parser(String text) {
      this.text = text;
    }

    Node or() {
      Node left = and();
      while (keyword("or")) {
        left = new Or(left, and());
      }
      return left;
    }

    Node and() {
      Node left = unary();
      while (keyword("and")) {
        left = new And(left, unary());
      }
      return left;
    }

    Node unary() {
      if (keyword("not")) {
        return new Not(unary());
      }
      skipSpace();
      if (pos < text.length() && text.charAt(pos) == '(') {
        pos++;
        Node inner = or();
        skipSpace();
        if (pos >= text.length() || text.charAt(pos) != ')') {
          throw error("expected ')'");
        }
        pos++;
        return inner;
      }
      String property = word();
      if (property.isEmpty()) {
        throw error("expected a property name");
      }
      String op = word();
      if (!op.matches("eq|ne|gt|ge|lt|le")) {
        throw error("expected a comparison (eq, ne, gt, ge, lt, le)");
      }
      return new Compare(property, op, literal());
    }

    private Value literal() {
      skipSpace();
      if (pos < text.length() && text.charAt(pos) == '\'') {
        StringBuilder sb = new StringBuilder();
        pos++;
        while (true) {
          if (pos >= text.length()) {
            throw error("expected the closing quote of a string");
          }
          char c = text.charAt(pos++);
          if (c == '\'') {
            if (pos < text.length() && text.charAt(pos) == '\'') {
              sb.append('\'');
              pos++;
            } else {
              return Value.of(sb.toString());
            }
          } else {
            sb.append(c);
          }
        }
      }
      String w = word();
      if (w.equals("true") || w.equals("false")) {
        return Value.of(Boolean.parseBoolean(w));
      }
      try {
        if (w.endsWith("L")) {
          return Value.of(Long.parseLong(w.substring(0, w.length() - 1)));
        }
        if (w.matches("-?[0-9]+")) {
          long n = Long.parseLong(w);
          return n == (int) n ? Value.of((int) n) : Value.of(n);
        }
        if (w.matches("-?[0-9]*\\.?[0-9]+([eE][-+]?[0-9]+)?")) {
          return Value.of(Double.parseDouble(w));
        }
      } catch (NumberFormatException e) {
        throw error("expected a number in range");
      }
      throw error("expected a literal ('text', a number, true or false)");
    }

    private boolean keyword(String k) {
      skipSpace();
      int end = pos + k.length();
      if (text.startsWith(k, pos) && (end == text.length() || !isWordChar(text.charAt(end)))) {
        pos = end;
        return true;
      }
      return false;
    }

    private String word() {
      skipSpace();
      int start = pos;
      while (pos < text.length() && isWordChar(text.charAt(pos))) {
        pos++;
      }
      return text.substring(start, pos);
    }

    private static boolean isWordChar(char c) {
      return Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '-';
    }

    void skipSpace() {
      while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
        pos++;
      }
    }

    ViewbaseException error(String expected) {
      return ViewbaseException.of(ErrorCode.InvalidView, "The where filter does not parse: " + expected + " at "
          + pos, "field", "where", "where", text, "position", pos);
    }
  }
}
