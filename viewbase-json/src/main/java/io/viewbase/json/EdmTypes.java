package io.viewbase.json;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Azure's {@code "name@odata.type"} annotations: the one decoder of annotated values, for the
 * native API's readers and the Azure dialect alike. {@link #decode} takes the value as JSON typed
 * it (a JSON string is a Str, an integer an Int32 or Int64, any other number a Double) and accepts
 * the spellings Azure's clients send:
 *
 * <pre>
 * annotation    | accepted JSON value                                               | result
 * --------------+-------------------------------------------------------------------+---------
 * Edm.String    | string                                                            | Str
 * Edm.Boolean   | true / false, or the string "true" / "false"                      | Bool
 * Edm.Int32     | integer in int32 range, or a decimal string (-?[0-9]+) in it      | Int32
 * Edm.Int64     | integer in int64 range, or a decimal string in it                 | Int64
 * Edm.Double    | any number; "NaN", "Infinity", "-Infinity"; a number as a string  | Double
 *               |   (JSON's number syntax, finite)                                  |
 * Edm.DateTime  | an ISO-8601 string as {@link IsoTimes} reads it, cut to 100 ns    | DateTime
 * Edm.Guid      | string of 8-4-4-4-12 ASCII hex digits, either case                | Guid
 * Edm.Binary    | base64 string (standard alphabet, padding optional)               | Binary
 * Edm.Decimal   | a number, exactly as written (never through a double), or a      | Decimal
 *               |   string holding one ({@link Value.Decimal#parse}); native API   |
 *               |   only: Azure Tables has no decimal, so {@link #isKnown} is false |
 * </pre>
 *
 * Azure's Python and JavaScript SDKs send annotated Int32, Int64, Double and Boolean values as
 * strings, and the Java SDK datetimes with 9 fractional digits, so those are accepted whichever API
 * reads them. What a null value or an unknown annotation means is the caller's: the native API
 * stores an annotated null as null, the Azure dialect refuses it; each answers an unknown type or a
 * value that does not fit with its own code. Azure's own limits (the 1601..9999 range of its
 * datetimes, 64 KiB binaries) are the dialect's, applied to what this returns.
 */
public final class EdmTypes {
  public static final String ANNOTATION = "@odata.type";

  /** The annotation of a decimal: OData's name. Azure Tables has no such type. */
  public static final String DECIMAL = "Edm.Decimal";

  private static final Pattern GUID =
      Pattern.compile(
          "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
  private static final Pattern INTEGER = Pattern.compile("-?[0-9]+");
  private static final Pattern NUMBER = Pattern.compile("-?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?");

  private EdmTypes() {}

  /**
   * Whether {@code edm} names one of the eight Edm types of Azure Tables (the table's rows but
   * {@link #DECIMAL}, which only the native API reads).
   */
  public static boolean isKnown(String edm) {
    return switch (edm) {
      case "Edm.String",
          "Edm.Boolean",
          "Edm.Int32",
          "Edm.Int64",
          "Edm.Double",
          "Edm.DateTime",
          "Edm.Guid",
          "Edm.Binary" ->
          true;
      default -> false;
    };
  }

  /**
   * The value an annotated property holds, or null when {@code natural} (the value as JSON typed
   * it, not null) is no spelling of {@code edm} the table accepts, or {@code edm} is not {@link
   * #isKnown}.
   */
  public static Value decode(String edm, Value natural) {
    return switch (edm) {
      case "Edm.String" -> natural instanceof Value.Str ? natural : null;
      case "Edm.Boolean" -> toBoolean(natural);
      case "Edm.Int32" -> toInt32(natural);
      case "Edm.Int64" -> toInt64(natural);
      case "Edm.Double" -> toDouble(natural);
      case "Edm.DateTime" -> natural instanceof Value.Str s ? dateTime(s.value()) : null;
      case "Edm.Guid" ->
          natural instanceof Value.Str s && GUID.matcher(s.value()).matches()
              ? new Value.Guid(UUID.fromString(s.value()))
              : null;
      case "Edm.Binary" -> toBinary(natural);
      case DECIMAL -> toDecimal(natural);
      default -> null;
    };
  }

  /**
   * A datetime value's text, cut to 100 ns ticks; null if it is not a time or lies beyond the
   * ticks' range.
   */
  public static Value.DateTime dateTime(String text) {
    Instant instant = IsoTimes.parse(text);
    if (instant == null) {
      return null;
    }
    try {
      return Value.DateTime.of(instant);
    } catch (ArithmeticException beyondTicks) {
      return null;
    }
  }

  /**
   * {@link #decode} for the native API's readers: an annotated null stays null, and an unknown type
   * or a value that does not fit is {@link ErrorCode#InvalidValue} naming the property.
   */
  static Value apply(String property, String edm, Value natural) {
    if (natural == Value.Null.INSTANCE) {
      return natural;
    }
    if (!isKnown(edm) && !edm.equals(DECIMAL)) {
      throw ViewbaseException.of(
          ErrorCode.InvalidValue,
          "Unknown type annotation; expected Edm.String, Edm.Boolean, Edm.Int32, Edm.Int64, Edm.Double, "
              + "Edm.Decimal, Edm.DateTime, Edm.Guid or Edm.Binary",
          "property",
          property,
          "type",
          edm);
    }
    if (edm.equals(DECIMAL) && natural instanceof Value.Str s) {
      try {
        return Value.Decimal.parse(s.value());
      } catch (ViewbaseException notADecimal) {
        // the decimal's own reason (not a number, too many digits, an exponent beyond its range)
        Map<String, Object> context = new LinkedHashMap<>(notADecimal.context());
        context.put("property", property);
        context.put("type", edm);
        throw new ViewbaseException(ErrorCode.InvalidValue, notADecimal.getMessage(), context);
      }
    }
    Value typed = decode(edm, natural);
    if (typed == null) {
      throw ViewbaseException.of(
          ErrorCode.InvalidValue,
          "The value does not fit its type annotation",
          "property",
          property,
          "type",
          edm);
    }
    return typed;
  }

  private static Value toBoolean(Value natural) {
    if (natural instanceof Value.Bool) {
      return natural;
    }
    if (natural instanceof Value.Str s) {
      return switch (s.value()) {
        case "true" -> new Value.Bool(true);
        case "false" -> new Value.Bool(false);
        default -> null;
      };
    }
    return null;
  }

  private static Value toInt32(Value natural) {
    if (natural instanceof Value.Int32) {
      return natural;
    }
    if (natural instanceof Value.Str s && INTEGER.matcher(s.value()).matches()) {
      try {
        return new Value.Int32(Integer.parseInt(s.value()));
      } catch (NumberFormatException beyondInt32) {
        return null;
      }
    }
    return null;
  }

  private static Value toInt64(Value natural) {
    if (natural instanceof Value.Int32 i) {
      return new Value.Int64(i.value());
    }
    if (natural instanceof Value.Int64) {
      return natural;
    }
    if (natural instanceof Value.Str s && INTEGER.matcher(s.value()).matches()) {
      try {
        return new Value.Int64(Long.parseLong(s.value()));
      } catch (NumberFormatException beyondInt64) {
        return null;
      }
    }
    return null;
  }

  private static Value toDouble(Value natural) {
    if (natural instanceof Value.Double) {
      return natural;
    }
    if (natural instanceof Value.Int32 i) {
      return new Value.Double(i.value());
    }
    if (natural instanceof Value.Int64 l) {
      return new Value.Double(l.value());
    }
    if (natural instanceof Value.Str s) {
      return switch (s.value()) {
        case "NaN" -> new Value.Double(Double.NaN);
        case "Infinity" -> new Value.Double(Double.POSITIVE_INFINITY);
        case "-Infinity" -> new Value.Double(Double.NEGATIVE_INFINITY);
        default -> {
          if (!NUMBER.matcher(s.value()).matches()) {
            yield null;
          }
          double d = Double.parseDouble(s.value());
          yield Double.isFinite(d) ? new Value.Double(d) : null; // "1e400" is no double
        }
      };
    }
    return null;
  }

  /**
   * A decimal from a string, or from an integer JSON typed as int32 or int64 (both exact); a number
   * JSON typed as a double is refused, since its digits may be gone: the readers hand a decimal's
   * number over as its text.
   */
  private static Value toDecimal(Value natural) {
    try {
      return switch (natural.type()) {
        case STRING -> Value.Decimal.parse(((Value.Str) natural).value());
        case INT32 -> Value.of(BigDecimal.valueOf(((Value.Int32) natural).value()));
        case INT64 -> Value.of(BigDecimal.valueOf(((Value.Int64) natural).value()));
        default -> null;
      };
    } catch (ViewbaseException beyondBounds) {
      return null;
    }
  }

  private static Value toBinary(Value natural) {
    if (!(natural instanceof Value.Str s)) {
      return null;
    }
    try {
      return new Value.Binary(Base64.getDecoder().decode(s.value()));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** Whether a value needs an annotation to read back as the same type. */
  static boolean needsAnnotation(Value value) {
    return switch (value.type()) {
      case INT64, DECIMAL, DATETIME, GUID, BINARY -> true;
      case DOUBLE -> !Double.isFinite(((Value.Double) value).value());
      default -> false;
    };
  }
}
