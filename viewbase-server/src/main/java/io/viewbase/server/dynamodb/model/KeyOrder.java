package io.viewbase.server.dynamodb.model;

import io.viewbase.api.Stability;
import java.util.Comparator;

/**
 * The order DynamoDB sorts key values in, and compares them in for {@code <}, {@code BETWEEN} and
 * their kin: strings by their UTF-8 bytes (unsigned), numbers by value, binaries by their bytes
 * (unsigned). Only two values of the same one of these three types compare.
 *
 * <p>Strings are compared by code point, which orders exactly as their UTF-8 bytes do, without
 * encoding them; Java's {@code String.compareTo} would not (it compares UTF-16 units, which put
 * U+E000..U+FFFF after the supplementary planes).
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class KeyOrder {
  /** The order of S, N or B values of one type; throws for other pairs, as {@link #compare}. */
  public static final Comparator<AttributeValue> COMPARATOR = KeyOrder::compare;

  private KeyOrder() {}

  /** Whether the value is of a type that orders: S, N or B. */
  public static boolean isOrdered(AttributeValue value) {
    return value instanceof AttributeValue.S
        || value instanceof AttributeValue.N
        || value instanceof AttributeValue.B;
  }

  /** Whether two values can be compared for order: both S, both N or both B. */
  public static boolean comparable(AttributeValue a, AttributeValue b) {
    return isOrdered(a) && a.type().equals(b.type());
  }

  /**
   * Compares two values of the same ordered type.
   *
   * @throws IllegalArgumentException when {@link #comparable} is false
   */
  public static int compare(AttributeValue a, AttributeValue b) {
    if (a instanceof AttributeValue.S x && b instanceof AttributeValue.S y) {
      return compareUtf8(x.value(), y.value());
    } else if (a instanceof AttributeValue.N x && b instanceof AttributeValue.N y) {
      return x.value().compareTo(y.value());
    } else if (a instanceof AttributeValue.B x && b instanceof AttributeValue.B y) {
      return x.compareTo(y);
    }
    throw new IllegalArgumentException(
        "Only two S, two N or two B values compare, not " + a.type() + " and " + b.type());
  }

  /** Compares strings as their UTF-8 bytes compare. */
  public static int compareUtf8(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int x = a.codePointAt(i);
      int y = b.codePointAt(j);
      if (x != y) {
        return Integer.compare(x, y);
      }
      i += Character.charCount(x);
      j += Character.charCount(y);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }
}
