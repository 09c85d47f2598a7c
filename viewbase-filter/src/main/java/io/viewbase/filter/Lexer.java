package io.viewbase.filter;

import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.util.Locale;

/**
 * Splits filter text into tokens, one at a time. Whitespace separates tokens and is otherwise
 * ignored; it is needed only where two words would run together ({@code Age eq'x'} reads fine).
 *
 * <table>
 *   <caption>Tokens</caption>
 *   <tr><th>text</th><th>token</th></tr>
 *   <tr><td>{@code (} {@code )}</td><td>OPEN, CLOSE</td></tr>
 *   <tr><td>{@code 'it''s'}</td><td>a string; {@code ''} is one quote</td></tr>
 *   <tr><td>{@code 42}, {@code -7}</td><td>Int32; an error if out of range (Azure does the same)</td></tr>
 *   <tr><td>{@code 42L}, {@code 42l}</td><td>Int64</td></tr>
 *   <tr><td>{@code 1.5}, {@code -2.0}, {@code 1e-05}, {@code 1.5E10}, {@code NaN}, {@code INF}, {@code -INF}</td>
 *       <td>Double; an error if it overflows</td></tr>
 *   <tr><td>{@code 12.5M}, {@code 12m}, {@code -1.5E-3M} (native dialect only: Azure has no decimal)</td>
 *       <td>Decimal, exactly as written; an error beyond {@link Value.Decimal}'s bounds</td></tr>
 *   <tr><td>{@code datetime'…'}, {@code guid'…'}, {@code X'…'}, {@code binary'…'}</td>
 *       <td>a typed literal (the prefix touches the quote)</td></tr>
 *   <tr><td>a letter, {@code _} or (native dialect only) {@code $}, then letters, digits, {@code _}
 *       (or {@code $})</td><td>a word: keyword or property name</td></tr>
 * </table>
 */
final class Lexer {
  private final String text;
  private final boolean dollar;
  private final boolean decimals;
  private int pos;

  Lexer(String text, FilterDialect dialect) {
    this.text = text;
    this.dollar = dialect.allowsDollar();
    this.decimals = dialect == FilterDialect.NATIVE;
  }

  private boolean isIdentifierStart(int cp) {
    return Names.isIdentifierStart(cp) && (dollar || cp != '$');
  }

  private boolean isIdentifierPart(int cp) {
    return Names.isIdentifierPart(cp) && (dollar || cp != '$');
  }

  Token next() {
    skipWhitespace();
    int start = pos;
    if (pos >= text.length()) {
      return new Token(Token.Kind.END, "", null, start);
    }
    char c = text.charAt(pos);
    if (c == '(') {
      pos++;
      return new Token(Token.Kind.OPEN, "(", null, start);
    }
    if (c == ')') {
      pos++;
      return new Token(Token.Kind.CLOSE, ")", null, start);
    }
    if (c == '\'') {
      return literal(start, new Value.Str(readQuoted(start)));
    }
    if (c == '-' || isDigit(c)) {
      return number(start);
    }
    int cp = text.codePointAt(pos);
    if (isIdentifierStart(cp)) {
      return word(start);
    }
    if (c == '"') {
      throw SyntaxErrors.invalid(
          "unexpected '\"'", start, "strings are written in single quotes: 'text'");
    }
    throw SyntaxErrors.invalid("unexpected character " + describeChar(cp), start, null);
  }

  private Token word(int start) {
    while (pos < text.length() && isIdentifierPart(text.codePointAt(pos))) {
      pos += Character.charCount(text.codePointAt(pos));
    }
    String word = text.substring(start, pos);
    // A keyword touching a quote ("eq'x'") is the keyword then a string; any other word is a type
    // prefix.
    if (pos < text.length() && text.charAt(pos) == '\'' && !Names.RESERVED.contains(word)) {
      return typedLiteral(start, word);
    }
    return switch (word) {
      case "NaN" -> literal(start, new Value.Double(Double.NaN));
      case "INF" -> literal(start, new Value.Double(Double.POSITIVE_INFINITY));
      default -> new Token(Token.Kind.WORD, word, null, start);
    };
  }

  private Token typedLiteral(int start, String prefix) {
    int bodyStart = pos + 1;
    String body = readQuoted(pos);
    Value value =
        switch (prefix) {
          case "datetime" -> Literals.parseDateTime(body);
          case "guid" -> Literals.parseGuid(body);
          case "X", "binary" -> Literals.parseBinary(body);
          default ->
              throw SyntaxErrors.invalid(
                  "unknown literal type '" + prefix + "'",
                  start,
                  "typed literals are datetime'…', guid'…', X'…' and binary'…'");
        };
    if (value == null) {
      throw SyntaxErrors.invalid(
          "malformed " + prefix + " literal",
          bodyStart,
          switch (prefix) {
            case "datetime" -> "expected yyyy-MM-ddTHH:mm:ss[.fffffff][Z|±hh:mm], years 0001..9999";
            case "guid" -> "expected xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx in hex";
            default -> "expected an even number of hex digits";
          });
    }
    return literal(start, value);
  }

  /**
   * Reads a quoted text starting at the quote at {@code quote}; {@code ''} inside stands for one
   * quote.
   */
  private String readQuoted(int quote) {
    StringBuilder sb = new StringBuilder();
    pos = quote + 1;
    while (true) {
      int close = text.indexOf('\'', pos);
      if (close < 0) {
        pos = text.length();
        throw SyntaxErrors.invalid(
            "unterminated quoted text starting",
            quote,
            "close it with '; write '' for a quote inside");
      }
      sb.append(text, pos, close);
      pos = close + 1;
      if (pos < text.length() && text.charAt(pos) == '\'') {
        sb.append('\'');
        pos++;
      } else {
        return sb.toString();
      }
    }
  }

  private Token number(int start) {
    if (text.charAt(pos) == '-') {
      pos++;
      if (text.startsWith("INF", pos) && !continuesWord(pos + 3)) {
        pos += 3;
        return literal(start, new Value.Double(Double.NEGATIVE_INFINITY));
      }
      if (pos >= text.length() || !isDigit(text.charAt(pos))) {
        throw SyntaxErrors.expected("a digit after '-'", pos, describeAt(pos));
      }
    }
    skipDigits();
    boolean decimal = false;
    if (pos < text.length() && text.charAt(pos) == '.') {
      pos++;
      if (pos >= text.length() || !isDigit(text.charAt(pos))) {
        throw SyntaxErrors.expected("a digit after '.'", pos, describeAt(pos));
      }
      skipDigits();
      decimal = true;
    }
    if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
      pos++;
      if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) {
        pos++;
      }
      if (pos >= text.length() || !isDigit(text.charAt(pos))) {
        throw SyntaxErrors.expected("a digit in the exponent", pos, describeAt(pos));
      }
      skipDigits();
      decimal = true;
    }
    String digits = text.substring(start, pos);
    boolean int64 = pos < text.length() && (text.charAt(pos) == 'L' || text.charAt(pos) == 'l');
    boolean exact = pos < text.length() && (text.charAt(pos) == 'M' || text.charAt(pos) == 'm');
    if (int64 || exact) {
      pos++;
    }
    if (continuesWord(pos)) {
      throw SyntaxErrors.expected("a space or operator after the number", pos, describeAt(pos));
    }
    if (int64 && decimal) {
      throw SyntaxErrors.invalid("an Int64 literal has no decimal point or exponent", start, null);
    }
    if (exact) {
      return literal(start, parseDecimal(start, digits));
    }
    return literal(
        start,
        decimal
            ? parseDouble(start, digits)
            : int64 ? parseInt64(start, digits) : parseInt32(start, digits));
  }

  /** OData's decimal literal, {@code 12.5M}: digits as written, never through a double. */
  private Value parseDecimal(int start, String digits) {
    if (!decimals) {
      throw SyntaxErrors.invalid(
          "a decimal literal is not part of Azure's filter language",
          start,
          "Azure Tables has no decimal type; write " + digits + " for a Double");
    }
    try {
      return Value.Decimal.parse(digits);
    } catch (ViewbaseException beyondBounds) {
      throw SyntaxErrors.invalid(
          "decimal literal out of range",
          start,
          beyondBounds.getMessage().toLowerCase(Locale.ROOT));
    }
  }

  private static Value parseDouble(int start, String digits) {
    double d = Double.parseDouble(digits);
    if (Double.isInfinite(d)) {
      throw SyntaxErrors.invalid(
          "double literal out of range", start, "write INF or -INF for an infinity");
    }
    return new Value.Double(d);
  }

  private static Value parseInt64(int start, String digits) {
    try {
      return new Value.Int64(Long.parseLong(digits));
    } catch (NumberFormatException e) {
      throw SyntaxErrors.invalid(
          "Int64 literal out of range",
          start,
          "an Int64 lies in -9223372036854775808..9223372036854775807");
    }
  }

  /**
   * Like the real service, a bare integer is an Int32 and one that does not fit is an error, not an
   * Int64.
   */
  private static Value parseInt32(int start, String digits) {
    try {
      return new Value.Int32(Integer.parseInt(digits));
    } catch (NumberFormatException e) {
      throw SyntaxErrors.invalid(
          "integer literal out of Int32 range", start, "write " + digits + "L for an Int64");
    }
  }

  private Token literal(int start, Value value) {
    return new Token(Token.Kind.LITERAL, text.substring(start, pos), value, start);
  }

  private void skipWhitespace() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private void skipDigits() {
    while (pos < text.length() && isDigit(text.charAt(pos))) {
      pos++;
    }
  }

  private boolean continuesWord(int at) {
    return at < text.length()
        && (isIdentifierPart(text.codePointAt(at)) || text.charAt(at) == '\'');
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private String describeAt(int at) {
    return at >= text.length() ? "end of filter" : describeChar(text.codePointAt(at));
  }

  private static String describeChar(int cp) {
    return Character.isISOControl(cp) || Character.isWhitespace(cp)
        ? String.format(Locale.ROOT, "U+%04X", cp)
        : "'" + new String(Character.toChars(cp)) + "'";
  }
}
