package io.viewbase.json;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Applies an Azure {@code "name@odata.type"} annotation to the value JSON gave a property.
 *
 * <pre>
 * annotation    | accepted JSON value                                    | result
 * --------------+--------------------------------------------------------+--------------
 * Edm.String    | string                                                 | Str
 * Edm.Boolean   | true / false                                           | Bool
 * Edm.Int32     | integer in int32 range                                 | Int32
 * Edm.Int64     | integer in int64 range, or a decimal string            | Int64
 * Edm.Double    | any number, or "NaN" / "Infinity" / "-Infinity"        | Double
 * Edm.DateTime  | ISO-8601 string, up to 7 fractional digits, Z or offset| DateTime
 * Edm.Guid      | string 8-4-4-4-12 hex digits                           | Guid
 * Edm.Binary    | base64 string                                          | Binary
 * any           | null                                                   | Null
 * </pre>
 *
 * Anything else, or an unknown Edm name, is {@link ErrorCode#InvalidValue} naming the property.
 */
final class EdmTypes {
  static final String ANNOTATION = "@odata.type";

  private static final Pattern GUID = Pattern.compile(
      "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
  private static final Pattern INTEGER = Pattern.compile("-?[0-9]{1,19}");

  private EdmTypes() {
  }

  static Value apply(String property, String edm, Value natural) {
    if (natural == Value.Null.INSTANCE) {
      return natural;
    }
    Value typed = switch (edm) {
      case "Edm.String" -> natural instanceof Value.Str ? natural : null;
      case "Edm.Boolean" -> natural instanceof Value.Bool ? natural : null;
      case "Edm.Int32" -> natural instanceof Value.Int32 ? natural : null;
      case "Edm.Int64" -> toInt64(natural);
      case "Edm.Double" -> toDouble(natural);
      case "Edm.DateTime" -> natural instanceof Value.Str s
          ? IsoTimes.parseTicks(s.value()).flatMap(EdmTypes::ticks).orElse(null) : null;
      case "Edm.Guid" -> natural instanceof Value.Str s && GUID.matcher(s.value()).matches()
          ? new Value.Guid(UUID.fromString(s.value())) : null;
      case "Edm.Binary" -> toBinary(natural);
      default -> throw ViewbaseException.of(ErrorCode.InvalidValue,
          "Unknown type annotation; expected Edm.String, Edm.Boolean, Edm.Int32, Edm.Int64, Edm.Double, "
              + "Edm.DateTime, Edm.Guid or Edm.Binary", "property", property, "type", edm);
    };
    if (typed == null) {
      throw ViewbaseException.of(ErrorCode.InvalidValue, "The value does not fit its type annotation",
          "property", property, "type", edm);
    }
    return typed;
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
      } catch (NumberFormatException e) {
        return null; // 19 digits beyond the int64 range
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
        default -> null;
      };
    }
    return null;
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

  private static Optional<Value> ticks(Instant instant) {
    try {
      return Optional.of(Value.DateTime.of(instant));
    } catch (ArithmeticException e) {
      return Optional.empty();
    }
  }

  /** Whether a value needs an annotation to read back as the same type. */
  static boolean needsAnnotation(Value value) {
    return switch (value.type()) {
      case INT64, DATETIME, GUID, BINARY -> true;
      case DOUBLE -> !Double.isFinite(((Value.Double) value).value());
      default -> false;
    };
  }
}
