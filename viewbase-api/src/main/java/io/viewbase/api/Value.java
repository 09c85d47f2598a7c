package io.viewbase.api;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A typed property value. The set of types is closed: the scalar types of Azure Tables (string,
 * boolean, int32, int64, double, datetime, guid, binary, null), an exact decimal (DynamoDB's
 * number; Azure has none), and nested objects and arrays. Values are immutable.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public sealed interface Value {

  /**
   * The type of a value, with the Edm name the Azure dialect uses for it (null where Edm has none).
   */
  enum Type {
    STRING("Edm.String"),
    BOOLEAN("Edm.Boolean"),
    INT32("Edm.Int32"),
    INT64("Edm.Int64"),
    DOUBLE("Edm.Double"),
    /** Not an Azure Tables type: Edm names it (OData's Edm.Decimal), Azure Tables does not. */
    DECIMAL("Edm.Decimal"),
    DATETIME("Edm.DateTime"),
    GUID("Edm.Guid"),
    BINARY("Edm.Binary"),
    NULL(null),
    OBJECT(null),
    ARRAY(null);

    private final String edmName;

    Type(String edmName) {
      this.edmName = edmName;
    }

    public String edmName() {
      return edmName;
    }
  }

  Type type();

  /** A UTF-16 string. */
  record Str(String value) implements Value {
    public Str {
      if (value == null) {
        throw new NullPointerException("string value");
      }
    }

    @Override
    public Type type() {
      return Type.STRING;
    }
  }

  record Bool(boolean value) implements Value {
    @Override
    public Type type() {
      return Type.BOOLEAN;
    }
  }

  record Int32(int value) implements Value {
    @Override
    public Type type() {
      return Type.INT32;
    }
  }

  record Int64(long value) implements Value {
    @Override
    public Type type() {
      return Type.INT64;
    }
  }

  record Double(double value) implements Value {
    @Override
    public Type type() {
      return Type.DOUBLE;
    }

    /** Doubles compare by bits so that NaN equals NaN and a value is equal to itself. */
    @Override
    public boolean equals(Object o) {
      return o instanceof Double d
          && java.lang.Double.doubleToLongBits(d.value) == java.lang.Double.doubleToLongBits(value);
    }

    @Override
    public int hashCode() {
      return java.lang.Double.hashCode(value);
    }
  }

  /**
   * An exact decimal number, such as DynamoDB's (38 significant digits, 1E-130 to 9.99E+125). It is
   * held in canonical form, without trailing zeros ({@link BigDecimal#stripTrailingZeros}), so that
   * equality and hashing go by numeric value: {@code 1.50} equals {@code 1.5}, and {@code 100} is
   * held as {@code 1E+2}. Compared with int32, int64 and double values it is compared exactly (by
   * filters, and in {@link KeyText#sortable} keys); it never becomes a double on the way.
   *
   * <pre>
   * bound                                          | value
   * -----------------------------------------------+--------------------------------------------
   * significant digits (trailing zeros stripped)   | at most {@link #MAX_PRECISION} (100)
   * exponent n of d.ddd × 10^n (scientific form)   | {@link #MIN_EXPONENT}..{@link #MAX_EXPONENT} (-400..400)
   * text given to {@link #parse}                   | at most {@link #MAX_TEXT_LENGTH} characters
   * </pre>
   *
   * The bounds hold DynamoDB's numbers and the range of doubles (4.9E-324 to 1.8E+308) with room to
   * spare, and keep every use bounded: the plain text of a decimal ({@link #text}) has at most 503
   * characters, and {@code 1E999999999} is refused when it is made rather than blowing up later in
   * a {@link BigDecimal#toPlainString}. A value beyond a bound is refused with {@link
   * ErrorCode#InvalidValue}.
   */
  record Decimal(BigDecimal value) implements Value {
    /** The most significant digits a decimal has, once trailing zeros are stripped. */
    public static final int MAX_PRECISION = 100;

    /** The least exponent of a decimal in scientific form: {@code 1E-400} is the smallest. */
    public static final int MIN_EXPONENT = -400;

    /** The greatest exponent of a decimal in scientific form: below {@code 1E+401}. */
    public static final int MAX_EXPONENT = 400;

    /** The longest text {@link #parse} reads. */
    public static final int MAX_TEXT_LENGTH = 1024;

    /**
     * The bits of an unscaled value worth stripping: past them (about {@link #MAX_TEXT_LENGTH}
     * digits) the value is refused before its trailing zeros are counted, which costs time
     * quadratic in the digits.
     */
    private static final int MAX_UNSCALED_BITS = 3402;

    public Decimal {
      value = canonical(value);
    }

    /**
     * The decimal a number's text spells: an optional sign, digits with an optional fraction, and
     * an optional exponent ({@code 12.5}, {@code -0.001}, {@code 1.5E+10}, {@code 2e-3}, {@code
     * 007}). Refused with {@link ErrorCode#InvalidValue}: text that is not a number, or longer than
     * {@link #MAX_TEXT_LENGTH}, and a number beyond the bounds.
     */
    public static Decimal parse(String text) {
      if (text.length() > MAX_TEXT_LENGTH) {
        throw ViewbaseException.of(
            ErrorCode.InvalidValue,
            "A decimal's text is longer than " + MAX_TEXT_LENGTH + " characters",
            "length",
            text.length());
      }
      if (!isNumber(text)) {
        throw ViewbaseException.of(
            ErrorCode.InvalidValue,
            "A decimal is digits with an optional sign, fraction and exponent, such as -12.5E3",
            "text",
            text);
      }
      BigDecimal parsed;
      try {
        parsed = new BigDecimal(text);
      } catch (NumberFormatException exponentBeyondInt) {
        throw beyond(text);
      }
      return new Decimal(parsed);
    }

    /**
     * The canonical text: plain decimal notation without trailing zeros, never an exponent ({@code
     * 12.5}, {@code 100}, {@code -0.001}, {@code 0}). {@link #parse} reads it back as an equal
     * value.
     */
    public String text() {
      return value.toPlainString();
    }

    @Override
    public Type type() {
      return Type.DECIMAL;
    }

    @Override
    public String toString() {
      return "Decimal[" + text() + "]";
    }

    private static BigDecimal canonical(BigDecimal value) {
      if (value == null) {
        throw new NullPointerException("decimal value");
      }
      if (value.signum() == 0) {
        return BigDecimal.ZERO;
      }
      int bits = value.unscaledValue().bitLength();
      if (bits > MAX_UNSCALED_BITS) {
        throw tooManyDigits((int) (bits * 0.30103) + 1); // about the digits: their count costs time
      }
      // The exponent of scientific form does not change when trailing zeros go.
      long exponent = (long) value.precision() - value.scale() - 1;
      if (exponent < MIN_EXPONENT || exponent > MAX_EXPONENT) {
        throw ViewbaseException.of(
            ErrorCode.InvalidValue,
            "A decimal's exponent lies in " + MIN_EXPONENT + ".." + MAX_EXPONENT,
            "exponent",
            exponent);
      }
      BigDecimal stripped = value.stripTrailingZeros();
      if (stripped.precision() > MAX_PRECISION) {
        throw tooManyDigits(stripped.precision());
      }
      return stripped;
    }

    private static ViewbaseException tooManyDigits(int digits) {
      return ViewbaseException.of(
          ErrorCode.InvalidValue,
          "A decimal has at most " + MAX_PRECISION + " significant digits",
          "digits",
          digits);
    }

    private static ViewbaseException beyond(String text) {
      return ViewbaseException.of(
          ErrorCode.InvalidValue,
          "A decimal's exponent lies in " + MIN_EXPONENT + ".." + MAX_EXPONENT,
          "text",
          text);
    }

    /** {@code [+-]? ( digits [. digits?] | . digits ) ( [eE] [+-]? digits )?}, in one pass. */
    private static boolean isNumber(String text) {
      int i = 0;
      int n = text.length();
      if (i < n && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
        i++;
      }
      int whole = digits(text, i);
      i += whole;
      int fraction = 0;
      if (i < n && text.charAt(i) == '.') {
        i++;
        fraction = digits(text, i);
        i += fraction;
      }
      if (whole == 0 && fraction == 0) {
        return false;
      }
      if (i < n && (text.charAt(i) == 'e' || text.charAt(i) == 'E')) {
        i++;
        if (i < n && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
          i++;
        }
        int exponent = digits(text, i);
        if (exponent == 0) {
          return false;
        }
        i += exponent;
      }
      return i == n;
    }

    private static int digits(String text, int from) {
      int i = from;
      while (i < text.length() && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
        i++;
      }
      return i - from;
    }
  }

  /**
   * A UTC instant with Azure's precision: 100 ns ticks, counted here from the Unix epoch (negative
   * before 1970).
   */
  record DateTime(long ticks) implements Value {
    public static final long TICKS_PER_SECOND = 10_000_000L;

    /** The most bytes {@link #writeIso} writes. */
    @Stability(Stability.Level.INTERNAL)
    public static final int MAX_ISO_BYTES = IsoFormat.MAX_LENGTH;

    public static DateTime of(Instant instant) {
      return new DateTime(
          Math.addExact(
              Math.multiplyExact(instant.getEpochSecond(), TICKS_PER_SECOND),
              instant.getNano() / 100));
    }

    public Instant toInstant() {
      return Instant.ofEpochSecond(
          Math.floorDiv(ticks, TICKS_PER_SECOND), Math.floorMod(ticks, TICKS_PER_SECOND) * 100);
    }

    /**
     * This time as Azure writes it, {@code 2026-11-30T12:09:16.1234567Z}: UTC, seven fractional
     * digits; years beyond 0000..9999 in ISO-8601's expanded form ({@code +10000-01-01T...}).
     */
    public String toIsoString() {
      return IsoFormat.format(
          Math.floorDiv(ticks, TICKS_PER_SECOND),
          (int) Math.floorMod(ticks, TICKS_PER_SECOND) * 100);
    }

    /**
     * An instant as {@link #toIsoString} writes a datetime: seven fractional digits, or eight or
     * nine when the instant is finer than a tick (a system timestamp read from elsewhere).
     */
    public static String isoString(Instant instant) {
      return IsoFormat.format(instant.getEpochSecond(), instant.getNano());
    }

    /**
     * Writes what {@link #isoString} makes of {@code epochSecond} and {@code nanos} as ASCII into
     * {@code out} from {@code at}, which must have {@link #MAX_ISO_BYTES} bytes free there, and
     * returns the index after it; {@code percentColons} writes each ':' as {@code %3A} (an ETag).
     * For writers that render items into bytes: nothing is allocated.
     */
    @Stability(Stability.Level.INTERNAL)
    public static int writeIso(
        long epochSecond, int nanos, boolean percentColons, byte[] out, int at) {
      return IsoFormat.write(epochSecond, nanos, percentColons, out, at);
    }

    /** {@link #writeIso} of this time: seven fractional digits. */
    @Stability(Stability.Level.INTERNAL)
    public int writeIso(boolean percentColons, byte[] out, int at) {
      return IsoFormat.write(
          Math.floorDiv(ticks, TICKS_PER_SECOND),
          (int) Math.floorMod(ticks, TICKS_PER_SECOND) * 100,
          percentColons,
          out,
          at);
    }

    @Override
    public Type type() {
      return Type.DATETIME;
    }

    @Override
    public String toString() {
      return "DateTime[" + toInstant() + "]";
    }
  }

  record Guid(UUID value) implements Value {
    public Guid {
      if (value == null) {
        throw new NullPointerException("guid value");
      }
    }

    @Override
    public Type type() {
      return Type.GUID;
    }
  }

  /** Bytes; the array is copied in and out so the value stays immutable. */
  record Binary(byte[] value) implements Value {
    public Binary {
      value = value.clone();
    }

    @Override
    public byte[] value() {
      return value.clone();
    }

    public int length() {
      return value.length;
    }

    @Override
    public Type type() {
      return Type.BINARY;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Binary b && Arrays.equals(b.value, value);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(value);
    }

    @Override
    public String toString() {
      return "Binary[" + Base64.getEncoder().encodeToString(value) + "]";
    }
  }

  /** The null value: a property that is present with no value. */
  enum Null implements Value {
    INSTANCE;

    @Override
    public Type type() {
      return Type.NULL;
    }
  }

  /** A nested object (native API only); its properties keep their order. */
  record Obj(Map<String, Value> properties) implements Value {
    public Obj {
      properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    }

    @Override
    public Type type() {
      return Type.OBJECT;
    }
  }

  /** A nested array (native API only). */
  record Arr(List<Value> elements) implements Value {
    public Arr {
      elements = List.copyOf(elements);
    }

    @Override
    public Type type() {
      return Type.ARRAY;
    }
  }

  static Value of(String value) {
    return new Str(value);
  }

  static Value of(boolean value) {
    return new Bool(value);
  }

  static Value of(int value) {
    return new Int32(value);
  }

  static Value of(long value) {
    return new Int64(value);
  }

  static Value of(double value) {
    return new Double(value);
  }

  /** A decimal, held without trailing zeros; refused beyond {@link Decimal}'s bounds. */
  static Value of(BigDecimal value) {
    return new Decimal(value);
  }

  static Value of(Instant value) {
    return DateTime.of(value);
  }

  static Value of(UUID value) {
    return new Guid(value);
  }

  static Value of(byte[] value) {
    return new Binary(value);
  }

  static Value nullValue() {
    return Null.INSTANCE;
  }
}
