package io.viewbase.server.dynamodb.expr;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits expression text into DynamoDB's tokens. A name starts with a letter and goes on with
 * letters, digits and underscores; {@code #} and {@code :} followed by the same characters (a digit
 * or underscore may come first) are placeholders; digits are a number (list indexes). Any other
 * character is a token of its own, which the parser then refuses: {@code _a} is the tokens {@code
 * _} and {@code a}, as DynamoDB reads it.
 */
final class Lexer {
  enum Kind {
    NAME,
    NAME_REF,
    VALUE_REF,
    NUMBER,
    SYMBOL,
    OTHER,
    EOF
  }

  /** A token and where it is in the text, for DynamoDB's "near" in syntax errors. */
  record Token(Kind kind, String text, int start, int end) {
    boolean is(String symbol) {
      return kind == Kind.SYMBOL && text.equals(symbol);
    }

    boolean isKeyword(String keyword) {
      return kind == Kind.NAME && text.equalsIgnoreCase(keyword);
    }
  }

  private Lexer() {}

  static List<Token> tokens(String text) {
    List<Token> tokens = new ArrayList<>();
    int length = text.length();
    int i = 0;
    while (i < length) {
      char c = text.charAt(i);
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        i++;
        continue;
      }
      int start = i;
      Kind kind;
      if (isLetter(c)) {
        i = wordEnd(text, i + 1);
        kind = Kind.NAME;
      } else if ((c == '#' || c == ':') && i + 1 < length && isWordChar(text.charAt(i + 1))) {
        i = wordEnd(text, i + 1);
        kind = c == '#' ? Kind.NAME_REF : Kind.VALUE_REF;
      } else if (c >= '0' && c <= '9') {
        while (i < length && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
          i++;
        }
        kind = Kind.NUMBER;
      } else if ((c == '<' || c == '>')
          && i + 1 < length
          && (text.charAt(i + 1) == '=' || (c == '<' && text.charAt(i + 1) == '>'))) {
        i += 2;
        kind = Kind.SYMBOL;
      } else if ("()[].,=<>+-".indexOf(c) >= 0) {
        i++;
        kind = Kind.SYMBOL;
      } else {
        i += Character.charCount(text.codePointAt(i));
        kind = Kind.OTHER;
      }
      tokens.add(new Token(kind, text.substring(start, i), start, i));
    }
    tokens.add(new Token(Kind.EOF, "<EOF>", length, length));
    return tokens;
  }

  private static int wordEnd(String text, int i) {
    while (i < text.length() && isWordChar(text.charAt(i))) {
      i++;
    }
    return i;
  }

  private static boolean isLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  private static boolean isWordChar(char c) {
    return isLetter(c) || (c >= '0' && c <= '9') || c == '_';
  }
}
