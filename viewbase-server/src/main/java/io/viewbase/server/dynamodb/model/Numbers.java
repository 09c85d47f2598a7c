package io.viewbase.server.dynamodb.model;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * DynamoDB's Number: a decimal of at most 38 significant digits whose magnitude is zero or lies in
 * 1E-130 .. 9.9999999999999999999999999999999999999E+125.
 *
 * <p>Text is read by one scan of the characters, never by {@code new BigDecimal(text)} first: a
 * number of a million digits, or with an exponent of a billion, is refused by counting, before any
 * arithmetic could grow with it.
 *
 * <pre>
 * accepted text      | canonical            refused text   | message
 * -------------------+---------------      ----------------+--------------------------------
 * "1.50", "+1.5"     | "1.5"                "", " 1", "1 " | cannot be converted to a numeric
 * ".5", "0000.50"    | "0.5"                "NaN", "0x10"  |   value
 * "1E+2", "1e2"      | "100"                "1e126"        | Number overflow...
 * "-0", "0e1000"     | "0"                  "1e-131"       | Number underflow...
 * "1e125"            | "1" + 125 zeros      39 digits      | more than 38 significant digits
 * </pre>
 *
 * The canonical text is plain (never exponent notation), as DynamoDB returns numbers: it answers
 * {@code 1E+50} as fifty-one digits and {@code 1E-130} as {@code 0.} followed by 129 zeros and a 1.
 */
final class Numbers {
  static final int MAX_DIGITS = 38;
  static final int MAX_EXPONENT = 125;
  static final int MIN_EXPONENT = -130;

  static final String NOT_NUMERIC = "The parameter cannot be converted to a numeric value";
  static final String OVERFLOW =
      "Number overflow. Attempting to store a number with magnitude larger than supported range";
  static final String UNDERFLOW =
      "Number underflow. Attempting to store a number with magnitude smaller than supported range";
  static final String TOO_PRECISE =
      "Attempting to store more than 38 significant digits in a Number";

  /** Exponents beyond this are out of range however many digits precede them. */
  private static final long EXPONENT_CLAMP = 1_000_000_000_000L;

  private Numbers() {}

  /**
   * Reads DynamoDB number text: an optional sign, digits with an optional decimal point (at least
   * one digit in all), an optional exponent. Returns the canonical value.
   */
  static BigDecimal parse(String text) {
    if (text.isEmpty()) {
      throw invalid(NOT_NUMERIC);
    }
    int length = text.length();
    int i = 0;
    boolean negative = false;
    char first = text.charAt(0);
    if (first == '+' || first == '-') {
      negative = first == '-';
      i++;
    }
    StringBuilder digits = new StringBuilder();
    int fractionDigits = 0;
    boolean point = false;
    for (; i < length; i++) {
      char c = text.charAt(i);
      if (c >= '0' && c <= '9') {
        // Leading zeros carry nothing; keeping them out bounds the buffer by significant digits
        // plus the zeros that follow them.
        if (digits.length() > 0 || c != '0') {
          digits.append(c);
        }
        if (point) {
          fractionDigits++;
        }
      } else if (c == '.' && !point) {
        point = true;
      } else {
        break;
      }
    }
    int mantissaChars = i - ((first == '+' || first == '-') ? 1 : 0) - (point ? 1 : 0);
    if (mantissaChars == 0) {
      throw notNumeric(text);
    }
    long exponent = 0;
    if (i < length && (text.charAt(i) == 'e' || text.charAt(i) == 'E')) {
      i++;
      boolean negativeExponent = false;
      if (i < length && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
        negativeExponent = text.charAt(i) == '-';
        i++;
      }
      int start = i;
      for (; i < length && text.charAt(i) >= '0' && text.charAt(i) <= '9'; i++) {
        exponent = Math.min(EXPONENT_CLAMP, exponent * 10 + (text.charAt(i) - '0'));
      }
      if (i == start) {
        throw notNumeric(text);
      }
      exponent = negativeExponent ? -exponent : exponent;
    }
    if (i != length) {
      throw notNumeric(text);
    }
    int end = digits.length();
    while (end > 0 && digits.charAt(end - 1) == '0') {
      end--;
    }
    if (end == 0) {
      return BigDecimal.ZERO;
    }
    int trailingZeros = digits.length() - end;
    // digits holds the significant digits then trailingZeros zeros; its last character has weight
    // 10^(exponent - fractionDigits).
    long lowest = exponent - fractionDigits + trailingZeros;
    long adjusted = lowest + end - 1;
    check(adjusted, end);
    BigInteger unscaled = new BigInteger(digits.substring(0, end));
    return new BigDecimal(negative ? unscaled.negate() : unscaled, Math.toIntExact(-lowest));
  }

  /**
   * The canonical form of a number (trailing zeros stripped, zero as {@code 0}), or the
   * ValidationException DynamoDB answers when it is out of range.
   */
  static BigDecimal canonical(BigDecimal value) {
    if (value.signum() == 0) {
      return BigDecimal.ZERO;
    }
    long adjusted = (long) value.precision() - value.scale() - 1;
    if (adjusted > MAX_EXPONENT) {
      throw invalid(OVERFLOW);
    }
    if (adjusted < MIN_EXPONENT) {
      throw invalid(UNDERFLOW);
    }
    BigDecimal stripped = value.stripTrailingZeros();
    check(adjusted, stripped.precision());
    return stripped;
  }

  /** The plain text DynamoDB answers a canonical number with. */
  static String text(BigDecimal canonical) {
    return canonical.toPlainString();
  }

  private static void check(long adjustedExponent, int significantDigits) {
    if (adjustedExponent > MAX_EXPONENT) {
      throw invalid(OVERFLOW);
    }
    if (adjustedExponent < MIN_EXPONENT) {
      throw invalid(UNDERFLOW);
    }
    if (significantDigits > MAX_DIGITS) {
      throw invalid(TOO_PRECISE);
    }
  }

  private static ViewbaseException notNumeric(String text) {
    // DynamoDB names the offending text; it is the client's own value, answered to that client.
    return invalid(NOT_NUMERIC + ": " + text);
  }

  static ViewbaseException invalid(String message) {
    return ViewbaseException.of(ErrorCode.InvalidInput, message);
  }
}
