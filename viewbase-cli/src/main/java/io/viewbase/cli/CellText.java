package io.viewbase.cli;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Limits;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import io.viewbase.json.EdmTypes;
import io.viewbase.json.ValueJson;
import java.util.Base64;
import java.util.Locale;

/**
 * A value as the text of a CSV cell, and its type's name in a header ({@code age@Int32}) or in an
 * Azure Storage Explorer type column ({@code Edm.Int32}). The text of each scalar is the one the
 * native API's JSON gives it, and reading goes through {@link EdmTypes#decode}, the decoder of
 * annotated values every API uses, so a cell reads back exactly as an annotated JSON string would.
 *
 * <pre>
 * type     | cell text                                   | read with
 * ---------+---------------------------------------------+---------------------------------
 * String   | the string ("" quoted when empty)           | as is
 * Boolean  | true / false                                | EdmTypes.decode(Edm.Boolean, ...)
 * Int32    | 42                                          | EdmTypes.decode(Edm.Int32, ...)
 * Int64    | 9007199254740993                            | EdmTypes.decode(Edm.Int64, ...)
 * Double   | 1.5, 1.0E20, NaN, Infinity, -Infinity       | EdmTypes.decode(Edm.Double, ...)
 * Decimal  | its plain text: 12.5, 100, -0.001           | EdmTypes.decode(Edm.Decimal, ...)
 * DateTime | 2026-11-30T12:00:00.1234567Z                | EdmTypes.decode(Edm.DateTime, ...)
 * Guid     | 6f9619ff-8b86-d011-b42d-00c04fc964ff        | EdmTypes.decode(Edm.Guid, ...)
 * Binary   | base64                                      | EdmTypes.decode(Edm.Binary, ...)
 * Json     | an object or array as the native API writes | ValueJson.readContainer
 *          |   it, annotations inside                    |
 * (null)   | no cell: CSV has no null                    |
 * </pre>
 *
 * Type names are read with or without {@code Edm.} and in any case; {@code Json} is Viewbase's own
 * (Azure Tables has no objects or arrays).
 */
final class CellText {
  static final String JSON = "Json";

  private static final String[] NAMES = {
    "String", "Boolean", "Int32", "Int64", "Double", "Decimal", "DateTime", "Guid", "Binary", JSON
  };

  private CellText() {}

  /** The type's name without {@code Edm.} ({@code Int32}, {@code Json}), null for a null. */
  static String typeName(Value value) {
    return switch (value.type()) {
      case NULL -> null;
      case OBJECT, ARRAY -> JSON;
      default -> value.type().edmName().substring("Edm.".length());
    };
  }

  /**
   * The canonical name of a type as a header or type column spells it ({@code edm.int32} and {@code
   * Int32} are {@code Int32}), or null if it names no type.
   */
  static String canonical(String name) {
    String bare = name.regionMatches(true, 0, "Edm.", 0, 4) ? name.substring(4) : name;
    for (String known : NAMES) {
      if (known.equalsIgnoreCase(bare)) {
        return known;
      }
    }
    return null;
  }

  /** The types a header may name, for error messages. */
  static String known() {
    return String.join(", ", NAMES);
  }

  /** The cell text of a value that is not null. */
  static String text(Value value) {
    return switch (value.type()) {
      case STRING -> ((Value.Str) value).value();
      case BOOLEAN -> Boolean.toString(((Value.Bool) value).value());
      case INT32 -> Integer.toString(((Value.Int32) value).value());
      case INT64 -> Long.toString(((Value.Int64) value).value());
      case DOUBLE -> {
        double d = ((Value.Double) value).value();
        yield Double.isNaN(d)
            ? "NaN"
            : Double.isInfinite(d) ? (d > 0 ? "Infinity" : "-Infinity") : Double.toString(d);
      }
      case DECIMAL -> ((Value.Decimal) value).text();
      case DATETIME -> ((Value.DateTime) value).toIsoString();
      case GUID -> ((Value.Guid) value).value().toString();
      case BINARY -> Base64.getEncoder().encodeToString(((Value.Binary) value).value());
      case OBJECT, ARRAY -> ValueJson.write(value);
      case NULL -> throw new IllegalArgumentException("a null has no cell text");
    };
  }

  /**
   * The value of a cell of the given type ({@link #canonical}); {@link ErrorCode#InvalidValue}
   * naming the property and type when the text is no such value.
   */
  static Value parse(String type, String text, String property, Limits limits) {
    if (type.equals("String")) {
      return new Value.Str(text);
    }
    if (type.equals(JSON)) {
      return ValueJson.readContainer(text, property, limits);
    }
    Value value = EdmTypes.decode("Edm." + type, new Value.Str(text));
    if (value == null) {
      throw ViewbaseException.of(
          ErrorCode.InvalidValue,
          "The cell is no " + type.toLowerCase(Locale.ROOT) + " value",
          "property",
          property,
          "type",
          type);
    }
    return value;
  }
}
