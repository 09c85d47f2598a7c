package io.viewbase.api;

import java.math.BigDecimal;

/**
 * A property value as text in a view key: what a {@link ViewDefinition} template's placeholder
 * renders in the database, and what the entity layer renders on the client for the same key, so
 * that a key the client computes finds the entry the database wrote.
 *
 * <pre>
 * value type                           | text ({@link #of})
 * -------------------------------------+--------------------------------------------------------------
 * string                               | as is
 * int32, int64                         | decimal; padded to a width after the sign ("-42" at 6: "-00042")
 * double                               | Java's shortest round-trip decimal (1.5, 1.0E10)
 * decimal                              | plain decimal without trailing zeros (12.5, 100, -0.001), never
 *                                      |   an exponent (at most 503 characters: {@link Value.Decimal}'s
 *                                      |   bounds); padded after the sign, as integers
 * boolean                              | true / false
 * datetime                             | 2026-11-30T12:00:00.0000000Z ({@link Value.DateTime#toIsoString})
 * guid                                 | lower-case canonical form
 * missing, null, binary, object, array | none: the item has no such key (it is not in the view)
 * </pre>
 *
 * A width pads any other text on the left with zeros, after its case is changed ({@link #pad}).
 *
 * <p>{@link #sortable} is a second rendering, the template transform {@code {name|key}}: text whose
 * order is the order of the values (DynamoDB's: numbers numerically across int32, int64, double and
 * decimal, strings by code point, binaries by unsigned bytes), and which is self-delimiting, so
 * that a key joined from several renderings sorts as the tuple of values does.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class KeyText {
  /**
   * The character that ends the sortable rendering of every string, binary and positive number: the
   * lowest character a key may hold, so that a value sorts before every longer value it begins. It
   * appears nowhere else in those renderings. The character after it, {@code '!'}, bounds "every
   * key that begins with {@code sortablePrefix(v) + TERMINATOR}" from above: such keys are all
   * below {@code sortablePrefix(v) + '!'}, and every greater string or binary renders at or above
   * it.
   */
  public static final char TERMINATOR = ' ';

  /**
   * Leads the escape of a low character (U+0000..U+0021) in a sortable string, and the rendering of
   * every number and binary, which follow it with a character no escape uses.
   */
  private static final char LOW = '!';

  /** Leads the escape of {@code '~'} and of U+007F..U+009F in a sortable string. */
  private static final char HIGH = '~';

  /** The second character of a sortable binary's rendering: {@code "!#"}, then hex. */
  private static final char BINARY = '#';

  private static final char NEGATIVE = '<';
  private static final char ZERO = '=';
  private static final char POSITIVE = '>';

  /**
   * Ends a negative number's digits; above every digit, as a negative's shorter digits are nearer
   * 0.
   */
  private static final char NEGATIVE_END = '~';

  /**
   * Added to the exponent so that it is written in three digits: {@code 0.d1d2... × 10^E} with E in
   * -500..499 (doubles need -323..309, decimals -399..401).
   */
  private static final int EXPONENT_BIAS = 500;

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private KeyText() {}

  /**
   * The value's text in a key; integers and decimals zero-padded after their sign to {@code width}
   * characters (0: none); null when the value has no key text.
   */
  public static String of(Value value, int width) {
    if (value == null) {
      return null;
    }
    return switch (value.type()) {
      case STRING -> ((Value.Str) value).value();
      case INT32 -> afterSign(Integer.toString(((Value.Int32) value).value()), width);
      case INT64 -> afterSign(Long.toString(((Value.Int64) value).value()), width);
      case DOUBLE -> Double.toString(((Value.Double) value).value());
      case DECIMAL -> afterSign(((Value.Decimal) value).text(), width);
      case BOOLEAN -> Boolean.toString(((Value.Bool) value).value());
      case DATETIME -> ((Value.DateTime) value).toIsoString();
      case GUID -> ((Value.Guid) value).value().toString();
      case NULL, BINARY, OBJECT, ARRAY -> null;
    };
  }

  /** Appends {@code text}, left-padded with zeros to {@code width} characters when shorter. */
  public static StringBuilder pad(StringBuilder sb, String text, int width) {
    for (int i = text.length(); i < width; i++) {
      sb.append('0');
    }
    return sb.append(text);
  }

  /** Negative numbers pad after the sign, so that "-42" at width 6 is "-00042". */
  private static String afterSign(String text, int width) {
    if (width == 0 || text.charAt(0) != '-') {
      return text;
    }
    return "-" + "0".repeat(Math.max(0, width - text.length())) + text.substring(1);
  }

  /**
   * The value as sortable key text, or null when it has none (the item is then not in the view):
   * the order of renderings, compared by code point (which is the UTF-8 byte order keys are kept
   * in), is the order of the values, and no rendering begins another, so that {@code sortable(a1) +
   * sortable(b1)} sorts before {@code sortable(a2) + sortable(b2)} exactly when {@code (a1, b1)}
   * sorts before {@code (a2, b2)}. Every rendering holds only characters keys allow.
   *
   * <pre>
   * value                      | rendering                                           | examples
   * ---------------------------+-----------------------------------------------------+-------------------------
   * string                     | each character as itself, but: U+0000..U+0021 as    | "user#123" → "user#123 "
   *                            |   '!' + (char) (0x40 + c); '~' and U+007F..U+009F   | "a b" → "a!`b "
   *                            |   as '~' + (char) (0x40 + c - 0x7E); then ' '       | "" → " ", "~" → "~@ "
   * int32, int64, double,      | one encoding for all: equal values render alike     |
   *   decimal, positive        |   "!>", the exponent E + 500 in three digits, the   | 12.5 → "!>502125 "
   *                            |   digits, ' ' (value = 0.digits × 10^E, the digits  | 1 → "!>5011 ", 100 → "!>5031 "
   *                            |   without trailing zeros, exactly)                  | 0.001 → "!>4981 "
   *   zero (and -0.0)          | "!="                                                |
   *   negative                 | "!<", 499 - E in three digits, each digit d as 9-d, | -12.5 → "!<497874~"
   *                            |   '~'                                               | -1 → "!<4988~"
   * binary                     | "!#", lower-case hex, ' '                           | X'0aff' → "!#0aff "
   * NaN, ±Infinity, boolean,   | none (null)                                         |
   *   datetime, guid, null,    |                                                     |
   *   object, array, missing   |                                                     |
   * </pre>
   *
   * Doubles render their exact binary value: {@code 0.1} is {@code
   * 0.1000000000000000055511151231257827021181583404541015625}, above the decimal {@code 0.1}, as
   * filters compare them; the longest rendering of a double (a subnormal) has about 770 characters.
   * Types keep apart: no rendering of one type begins a rendering of another (after a {@code '!'} a
   * string has {@code '@'..'a'}, a number or binary {@code '#'}, {@code '<'}, {@code '='} or {@code
   * '>'}). In one key position of mixed types the empty string sorts first, then binaries, then
   * numbers (negatives, zero, positives), then every other string.
   */
  public static String sortable(Value value) {
    if (value == null) {
      return null;
    }
    return switch (value.type()) {
      case STRING ->
          appendString(new StringBuilder(), ((Value.Str) value).value())
              .append(TERMINATOR)
              .toString();
      case BINARY ->
          appendBinary(new StringBuilder(), (Value.Binary) value).append(TERMINATOR).toString();
      case INT32 -> integer(((Value.Int32) value).value());
      case INT64 -> integer(((Value.Int64) value).value());
      case DOUBLE -> {
        double d = ((Value.Double) value).value();
        yield Double.isFinite(d) ? decimal(new BigDecimal(d)) : null;
      }
      case DECIMAL -> decimal(((Value.Decimal) value).value());
      case BOOLEAN, DATETIME, GUID, NULL, OBJECT, ARRAY -> null;
    };
  }

  /**
   * The {@link #sortable} rendering of a string or binary without its {@link #TERMINATOR}, or null
   * for other values: a value begins with {@code prefix} exactly when its rendering begins with
   * {@code sortablePrefix(prefix)}, so "begins with" on values is "begins with" on keys (DynamoDB's
   * {@code begins_with}). The same holds for a key joined from renderings whose first is the
   * value's.
   */
  public static String sortablePrefix(Value value) {
    if (value instanceof Value.Str s) {
      return appendString(new StringBuilder(), s.value()).toString();
    }
    if (value instanceof Value.Binary b) {
      return appendBinary(new StringBuilder(), b).toString();
    }
    return null;
  }

  private static StringBuilder appendString(StringBuilder sb, String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c <= LOW) {
        sb.append(LOW).append((char) (0x40 + c));
      } else if (c >= HIGH && c <= 0x9F) {
        sb.append(HIGH).append((char) (0x40 + c - HIGH));
      } else {
        sb.append(c); // surrogates too: pairs stay pairs, in code point order from here up
      }
    }
    return sb;
  }

  private static StringBuilder appendBinary(StringBuilder sb, Value.Binary binary) {
    sb.append(LOW).append(BINARY);
    for (byte b : binary.value()) {
      sb.append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
    }
    return sb;
  }

  private static String integer(long n) {
    if (n == 0) {
      return "" + LOW + ZERO;
    }
    String text = Long.toString(n);
    int start = n < 0 ? 1 : 0;
    int end = text.length();
    while (text.charAt(end - 1) == '0') {
      end--;
    }
    return number(n < 0, text, start, end, text.length() - start);
  }

  private static String decimal(BigDecimal value) {
    if (value.signum() == 0) {
      return "" + LOW + ZERO;
    }
    BigDecimal stripped = value.stripTrailingZeros();
    String digits = stripped.unscaledValue().abs().toString();
    // value = 0.digits × 10^E with E = digits - scale
    return number(
        stripped.signum() < 0, digits, 0, digits.length(), digits.length() - stripped.scale());
  }

  /**
   * A nonzero number: {@code 0.d × 10^exponent}, its significant digits {@code d} being {@code
   * text[start, end)} (no leading or trailing zero).
   */
  private static String number(boolean negative, String text, int start, int end, long exponent) {
    long biased = exponent + EXPONENT_BIAS;
    if (biased < 0 || biased > 999) {
      // Decimal's bounds and a double's range keep every value within three digits.
      throw new IllegalStateException("exponent beyond the sortable encoding: " + exponent);
    }
    StringBuilder sb = new StringBuilder(end - start + 6).append(LOW);
    int e = (int) (negative ? 999 - biased : biased);
    sb.append(negative ? NEGATIVE : POSITIVE)
        .append((char) ('0' + e / 100))
        .append((char) ('0' + e / 10 % 10))
        .append((char) ('0' + e % 10));
    for (int i = start; i < end; i++) {
      char d = text.charAt(i);
      sb.append(negative ? (char) ('9' - d + '0') : d);
    }
    return sb.append(negative ? NEGATIVE_END : TERMINATOR).toString();
  }

  /**
   * The smallest string above every string that begins with {@code prefix} (in code point order,
   * the order of keys), or null when there is none: the exclusive end of a prefix's key range.
   */
  public static String prefixEnd(String prefix) {
    int[] cps = prefix.codePoints().toArray();
    for (int i = cps.length - 1; i >= 0; i--) {
      if (cps[i] < Character.MAX_CODE_POINT) {
        int next = cps[i] + 1;
        if (next >= Character.MIN_SURROGATE && next <= Character.MAX_SURROGATE) {
          next = Character.MAX_SURROGATE + 1;
        }
        cps[i] = next;
        return new String(cps, 0, i + 1);
      }
    }
    return null;
  }
}
