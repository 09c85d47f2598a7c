package io.viewbase.filter;

import io.viewbase.api.Value;
import java.math.BigDecimal;
import java.util.Arrays;

/**
 * How a filter compares a property's value with a literal: Azure's typed comparison.
 *
 * <table>
 *   <caption>Comparison by type (property type × literal type)</caption>
 *   <tr><th>types</th><th>order</th></tr>
 *   <tr><td>Int32, Int64, Double, Decimal in any mix</td><td>numerically, exactly (no rounding through
 *       double; a double is its exact binary value, so 0.1 is a little above 0.1M); -0.0 equals 0.0;
 *       NaN equals NaN and is below every number; -INF and INF are below and above every
 *       decimal</td></tr>
 *   <tr><td>String, String</td><td>by Unicode code point (the order of the UTF-8 bytes, so the same as
 *       key order); case-sensitive</td></tr>
 *   <tr><td>Boolean, Boolean</td><td>false &lt; true</td></tr>
 *   <tr><td>DateTime, DateTime</td><td>by instant</td></tr>
 *   <tr><td>Guid, Guid</td><td>as unsigned 128-bit numbers: the order of the canonical text, as .NET's
 *       Guid.CompareTo</td></tr>
 *   <tr><td>Binary, Binary</td><td>bytewise unsigned, a prefix first</td></tr>
 *   <tr><td>any other pair</td><td>a type mismatch: see {@link #test}</td></tr>
 * </table>
 */
final class ValueOrder {
  /** The result of {@link #compare} for values of incomparable types. */
  static final int MISMATCH = Integer.MIN_VALUE;

  private ValueOrder() {}

  /**
   * Whether {@code actual op literal} holds.
   *
   * <table>
   *   <caption>Outcome by case</caption>
   *   <tr><th>actual</th><th>eq</th><th>ne</th><th>gt, ge</th><th>lt, le</th></tr>
   *   <tr><td>missing (Java null) or Null</td><td>false</td><td>false</td><td>false</td><td>false</td></tr>
   *   <tr><td>a type mismatch</td><td>false</td><td>true</td><td>false</td><td>true</td></tr>
   *   <tr><td>comparable</td><td colspan="4">the order in the class table</td></tr>
   * </table>
   *
   * The mismatch row is the real service's: a value of another type counts as less than the
   * literal.
   */
  static boolean test(Value actual, Filter.Op op, Value literal) {
    if (actual == null || actual == Value.Null.INSTANCE) {
      return false;
    }
    return holds(op, compare(actual, literal));
  }

  /**
   * Whether {@code op} holds for a comparison's outcome: the sign of {@code actual - literal}, or
   * {@link #MISMATCH} (see {@link #test}).
   */
  static boolean holds(Filter.Op op, int c) {
    if (c == MISMATCH) {
      return op == Filter.Op.NE || op == Filter.Op.LT || op == Filter.Op.LE;
    }
    return switch (op) {
      case EQ -> c == 0;
      case NE -> c != 0;
      case GT -> c > 0;
      case GE -> c >= 0;
      case LT -> c < 0;
      case LE -> c <= 0;
    };
  }

  /** The sign of {@code a - b} (-1, 0, 1), or {@link #MISMATCH} when the types do not compare. */
  static int compare(Value a, Value b) {
    if (isNumber(a) && isNumber(b)) {
      return compareNumbers(a, b);
    }
    if (a.type() != b.type()) {
      return MISMATCH;
    }
    return switch (a.type()) {
      case STRING -> compareStrings(((Value.Str) a).value(), ((Value.Str) b).value());
      case BOOLEAN -> Boolean.compare(((Value.Bool) a).value(), ((Value.Bool) b).value());
      case DATETIME -> Long.compare(((Value.DateTime) a).ticks(), ((Value.DateTime) b).ticks());
      case GUID -> compareGuids((Value.Guid) a, (Value.Guid) b);
      case BINARY ->
          Integer.signum(
              Arrays.compareUnsigned(((Value.Binary) a).value(), ((Value.Binary) b).value()));
      default -> MISMATCH;
    };
  }

  private static boolean isNumber(Value v) {
    return v instanceof Value.Int32
        || v instanceof Value.Int64
        || v instanceof Value.Double
        || v instanceof Value.Decimal;
  }

  private static int compareNumbers(Value a, Value b) {
    if (a instanceof Value.Decimal x) {
      return compareDecimal(x.value(), b);
    }
    if (b instanceof Value.Decimal y) {
      return -compareDecimal(y.value(), a);
    }
    if (a instanceof Value.Double x) {
      return b instanceof Value.Double y
          ? compareDoubles(x.value(), y.value())
          : -compareLongDouble(asLong(b), x.value());
    }
    return b instanceof Value.Double y
        ? compareLongDouble(asLong(a), y.value())
        : Long.compare(asLong(a), asLong(b));
  }

  private static long asLong(Value v) {
    return v instanceof Value.Int32 i ? i.value() : ((Value.Int64) v).value();
  }

  /** Numeric order where -0.0 equals 0.0 and NaN equals NaN and is below every number. */
  static int compareDoubles(double a, double b) {
    if (a < b) {
      return -1;
    }
    if (a > b) {
      return 1;
    }
    boolean aNaN = Double.isNaN(a);
    boolean bNaN = Double.isNaN(b);
    return aNaN == bNaN ? 0 : aNaN ? -1 : 1;
  }

  /**
   * Compares a decimal with any number exactly: an integer or a finite double becomes the decimal
   * it is ({@code new BigDecimal(double)} is exact); NaN is below every number, the infinities
   * beyond every decimal.
   */
  static int compareDecimal(BigDecimal a, Value b) {
    BigDecimal other;
    if (b instanceof Value.Decimal d) {
      other = d.value();
    } else if (b instanceof Value.Double d) {
      double v = d.value();
      if (Double.isNaN(v)) {
        return 1;
      }
      if (Double.isInfinite(v)) {
        return v > 0 ? -1 : 1;
      }
      other = new BigDecimal(v);
    } else {
      other = BigDecimal.valueOf(asLong(b));
    }
    return Integer.signum(a.compareTo(other));
  }

  /** Compares a long with a double exactly: converting the long to double could round it. */
  static int compareLongDouble(long a, double b) {
    if (Double.isNaN(b)) {
      return 1;
    }
    if (b >= 0x1p63) {
      return -1;
    }
    if (b < -0x1p63) {
      return 1;
    }
    double floor = Math.floor(b);
    long whole = (long) floor; // exact: floor is an integer within the long range
    if (a != whole) {
      return Long.compare(a, whole);
    }
    return floor == b ? 0 : -1;
  }

  /**
   * Strings by Unicode code point. UTF-16 order differs only where a supplementary character (a
   * surrogate pair, 0xD800..0xDFFF) meets a character in 0xE000..0xFFFF; moving the surrogates
   * above that block makes the code-unit comparison agree with code points and with UTF-8 bytes.
   */
  static int compareStrings(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        return Integer.compare(codePointRank(x), codePointRank(y)) < 0 ? -1 : 1;
      }
    }
    return Integer.signum(a.length() - b.length());
  }

  /**
   * {@link #compareStrings} of two strings given as their UTF-8 bytes, {@code a[offset, offset +
   * length)} and all of {@code b}: unsigned bytewise, which is code point order for well-formed
   * UTF-8 (a lead byte's value grows with the code point, a prefix sorts first).
   */
  static int compareUtf8(byte[] a, int offset, int length, byte[] b) {
    return Integer.signum(Arrays.compareUnsigned(a, offset, offset + length, b, 0, b.length));
  }

  private static int codePointRank(char c) {
    if (c < 0xD800) {
      return c;
    }
    return c >= 0xE000 ? c - 0x800 : c + 0x2000;
  }

  private static int compareGuids(Value.Guid a, Value.Guid b) {
    int high =
        Long.compareUnsigned(
            a.value().getMostSignificantBits(), b.value().getMostSignificantBits());
    if (high != 0) {
      return Integer.signum(high);
    }
    return Integer.signum(
        Long.compareUnsigned(
            a.value().getLeastSignificantBits(), b.value().getLeastSignificantBits()));
  }
}
