package io.viewbase.api;

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
 * boolean, int32, int64, double, datetime, guid, binary, null) plus, in the native API, nested
 * objects and arrays. Values are immutable.
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
