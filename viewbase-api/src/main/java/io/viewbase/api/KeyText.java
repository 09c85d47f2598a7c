package io.viewbase.api;

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
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class KeyText {
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
}
