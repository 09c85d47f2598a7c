package io.viewbase.filter;

import io.viewbase.api.Value;
import java.util.Locale;

/**
 * Recursive descent over the {@code $filter} grammar, with one token of lookahead.
 *
 * <pre>
 * filter     := or END
 * or         := and ( "or" and )*                  left-associative
 * and        := unary ( "and" unary )*             left-associative
 * unary      := "not" unary | primary
 * primary    := "(" or ")" | operand [ op operand ]
 * operand    := property | literal
 * op         := "eq" | "ne" | "gt" | "ge" | "lt" | "le"
 * </pre>
 *
 * A lone operand must be a property (a {@link Filter.BoolProperty}) or {@code true}/{@code false}
 * (a {@link Filter.Constant}); a comparison needs exactly one property. The limits in {@link
 * Filters} bound the text, the nesting (so recursion can never overflow the stack) and the number
 * of conditions.
 */
final class Parser {
  private final Lexer lexer;
  private final FilterDialect dialect;
  private Token token;
  private int depth;
  private int conditions;

  Parser(String text, FilterDialect dialect) {
    this.lexer = new Lexer(text, dialect);
    this.dialect = dialect;
    this.token = lexer.next();
  }

  Filter parseFilter() {
    Filter filter = or();
    if (token.kind() != Token.Kind.END) {
      throw expected(
          token.kind() == Token.Kind.CLOSE
              ? "'and', 'or' or end of filter (unbalanced ')')"
              : "'and', 'or' or end of filter");
    }
    return filter;
  }

  private Filter or() {
    Filter left = and();
    while (token.isWord("or")) {
      advance();
      left = new Filter.Or(left, and());
    }
    return left;
  }

  private Filter and() {
    Filter left = unary();
    while (token.isWord("and")) {
      advance();
      left = new Filter.And(left, unary());
    }
    return left;
  }

  private Filter unary() {
    if (token.isWord("not")) {
      enter();
      advance();
      Filter inner = unary();
      depth--;
      return new Filter.Not(inner);
    }
    return primary();
  }

  private Filter primary() {
    if (token.kind() == Token.Kind.OPEN) {
      enter();
      advance();
      Filter inner = or();
      if (token.kind() != Token.Kind.CLOSE) {
        throw expected("')'");
      }
      advance();
      depth--;
      return inner;
    }
    Token first = operand();
    countCondition(first);
    Filter.Op op = token.kind() == Token.Kind.WORD ? Filter.Op.ofKeyword(token.text()) : null;
    if (op == null) {
      return alone(first);
    }
    advance();
    Token second = operand();
    boolean firstIsProperty = first.kind() == Token.Kind.WORD;
    boolean secondIsProperty = second.kind() == Token.Kind.WORD;
    if (firstIsProperty && secondIsProperty) {
      throw SyntaxErrors.invalid(
          "comparing two properties is not supported",
          second.position(),
          "one side of a comparison must be a literal");
    }
    if (!firstIsProperty && !secondIsProperty) {
      throw SyntaxErrors.invalid(
          "comparing two literals is not supported",
          first.position(),
          "one side of a comparison must be a property");
    }
    return firstIsProperty
        ? new Filter.Compare(dialect.storedName(first.text()), op, second.value())
        : new Filter.Compare(dialect.storedName(second.text()), op.flipped(), first.value());
  }

  /**
   * An operand with no operator after it: a boolean property or constant, else the operator is
   * missing.
   */
  private Filter alone(Token operand) {
    if (operand.kind() == Token.Kind.WORD) {
      return new Filter.BoolProperty(dialect.storedName(operand.text()));
    }
    if (operand.value() instanceof Value.Bool b) {
      return new Filter.Constant(b.value());
    }
    throw expected("a comparison operator (eq, ne, gt, ge, lt, le)");
  }

  /** A property name or a literal; keywords and {@code null} are not operands. */
  private Token operand() {
    Token t = token;
    if (t.kind() == Token.Kind.LITERAL) {
      advance();
      return t;
    }
    if (t.kind() == Token.Kind.WORD) {
      switch (dialect.booleanWord(t.text())) {
        case "true", "false" -> {
          advance();
          boolean value = dialect.booleanWord(t.text()).equals("true");
          return new Token(Token.Kind.LITERAL, t.text(), new Value.Bool(value), t.position());
        }
        case "null" ->
            throw SyntaxErrors.invalid(
                "null is not a filter literal",
                t.position(),
                "a missing property never matches, so 'X eq null' has no meaning; test for a value instead");
        default -> {
          if (!Names.RESERVED.contains(t.text())) {
            advance();
            return t;
          }
        }
      }
    }
    throw expected("a property, a literal, '(' or 'not'");
  }

  private void countCondition(Token at) {
    if (++conditions > Filters.MAX_CONDITIONS) {
      throw SyntaxErrors.invalid(
          "more than " + Filters.MAX_CONDITIONS + " conditions",
          at.position(),
          "split the query, or use a view for this access pattern");
    }
  }

  private void enter() {
    if (++depth > Filters.MAX_DEPTH) {
      throw SyntaxErrors.invalid(
          "parentheses and 'not' nested deeper than " + Filters.MAX_DEPTH, token.position(), null);
    }
  }

  private void advance() {
    token = lexer.next();
  }

  /** An error at the current token; a keyword written in another case gets a hint. */
  private RuntimeException expected(String what) {
    String hint = null;
    if (token.kind() == Token.Kind.WORD) {
      String lower = token.text().toLowerCase(Locale.ROOT);
      if (!lower.equals(token.text()) && Names.RESERVED.contains(lower)) {
        hint = "keywords are lowercase: '" + lower + "'";
      }
    }
    return SyntaxErrors.expected(what, token.position(), token.describe(), hint);
  }
}
