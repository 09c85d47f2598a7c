package io.viewbase.server.azure;

import java.util.function.Predicate;

/**
 * The {@code $filter} of Query Tables: comparisons of {@code TableName} with string literals
 * ({@code eq ne gt ge lt le}), joined by {@code and}, {@code or}, {@code not} and parentheses.
 * That is all a table has to filter on, so this small parser serves instead of the entity filter
 * engine. Names compare ordinally, as on Azure; anything else is {@code InvalidInput}.
 */
final class TableNameFilter {
  private final String text;
  private int pos;

  private TableNameFilter(String text) {
    this.text = text;
  }

  /** The filter as a test on table names; null or blank matches every name. */
  static Predicate<String> parse(String filter) {
    if (filter == null || filter.isBlank()) {
      return name -> true;
    }
    TableNameFilter p = new TableNameFilter(filter);
    Predicate<String> result = p.or();
    p.spaces();
    if (p.pos != p.text.length()) {
      throw p.error("expected 'and', 'or' or the end");
    }
    return result;
  }

  private Predicate<String> or() {
    Predicate<String> left = and();
    while (keyword("or")) {
      Predicate<String> right = and();
      Predicate<String> l = left;
      left = name -> l.test(name) || right.test(name);
    }
    return left;
  }

  private Predicate<String> and() {
    Predicate<String> left = unary();
    while (keyword("and")) {
      Predicate<String> right = unary();
      Predicate<String> l = left;
      left = name -> l.test(name) && right.test(name);
    }
    return left;
  }

  private Predicate<String> unary() {
    if (keyword("not")) {
      return unary().negate();
    }
    spaces();
    if (pos < text.length() && text.charAt(pos) == '(') {
      pos++;
      Predicate<String> inner = or();
      spaces();
      if (pos >= text.length() || text.charAt(pos) != ')') {
        throw error("expected ')'");
      }
      pos++;
      return inner;
    }
    return comparison();
  }

  private Predicate<String> comparison() {
    spaces();
    boolean literalFirst = pos < text.length() && text.charAt(pos) == '\'';
    String literal = literalFirst ? literal() : null;
    if (!literalFirst && !keyword("TableName")) {
      throw error("expected TableName");
    }
    String op = word();
    if (literalFirst) {
      if (!keyword("TableName")) {
        throw error("expected TableName");
      }
      op = flip(op);
    } else {
      spaces();
      if (pos >= text.length() || text.charAt(pos) != '\'') {
        throw error("expected a quoted table name");
      }
      literal = literal();
    }
    String value = literal;
    return switch (op) {
      case "eq" -> name -> name.equals(value);
      case "ne" -> name -> !name.equals(value);
      case "gt" -> name -> name.compareTo(value) > 0;
      case "ge" -> name -> name.compareTo(value) >= 0;
      case "lt" -> name -> name.compareTo(value) < 0;
      case "le" -> name -> name.compareTo(value) <= 0;
      default -> throw error("expected eq, ne, gt, ge, lt or le");
    };
  }

  private static String flip(String op) {
    return switch (op) {
      case "gt" -> "lt";
      case "ge" -> "le";
      case "lt" -> "gt";
      case "le" -> "ge";
      default -> op;
    };
  }

  private String literal() {
    pos++;
    StringBuilder sb = new StringBuilder();
    while (pos < text.length()) {
      char c = text.charAt(pos++);
      if (c == '\'') {
        if (pos < text.length() && text.charAt(pos) == '\'') {
          sb.append('\'');
          pos++;
        } else {
          return sb.toString();
        }
      } else {
        sb.append(c);
      }
    }
    throw error("unterminated string");
  }

  private String word() {
    spaces();
    int start = pos;
    while (pos < text.length() && Character.isLetter(text.charAt(pos))) {
      pos++;
    }
    return text.substring(start, pos);
  }

  private boolean keyword(String k) {
    spaces();
    int end = pos + k.length();
    if (text.startsWith(k, pos) && (end == text.length() || !Character.isLetterOrDigit(text.charAt(end)))) {
      pos = end;
      return true;
    }
    return false;
  }

  private void spaces() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private AzureFailure error(String what) {
    return AzureFailure.invalidInput("The query condition specified in the request is invalid: " + what
        + " at " + pos + " in: " + text);
  }
}
