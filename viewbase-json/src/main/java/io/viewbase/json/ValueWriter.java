package io.viewbase.json;

import com.fasterxml.jackson.core.JsonGenerator;
import io.viewbase.api.Value;
import java.io.IOException;
import java.util.Base64;
import java.util.Map;

/**
 * Writes values so that {@link ValueReader} reads back the same types: a property whose type JSON
 * lacks gets a {@code "name@odata.type"} annotation before it, an array element such a type gets
 * wrapped as {@code {"@odata.type": "Edm.X", "value": ...}}.
 *
 * <pre>
 * type      | JSON                                                   | annotated
 * ----------+--------------------------------------------------------+----------
 * Str       | string                                                 | no
 * Bool      | true / false                                           | no
 * Int32     | number                                                 | no
 * Int64     | number if |v| <= 2^53, else a decimal string           | Edm.Int64
 * Double    | number with '.' or exponent; "NaN", "Infinity", "-Infinity" | only non-finite
 * Decimal   | its plain text as a string, "12.5", "-0.001", "100"    | Edm.Decimal
 * DateTime  | "2026-11-30T12:00:00.1234567Z"                         | Edm.DateTime
 * Guid      | "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"                 | Edm.Guid
 * Binary    | base64 string                                          | Edm.Binary
 * Null      | null                                                   | no
 * Obj / Arr | object / array                                         | no
 * </pre>
 *
 * A decimal is a string, not a JSON number, for the same reason as a large Int64: most JSON readers
 * make a number a double, which keeps 15 to 17 of a decimal's up to 100 digits. {@link ValueReader}
 * reads the string back as the same decimal, and takes a JSON number too.
 */
final class ValueWriter {
  /** Beyond 2^53 a double (which is what most JSON readers parse numbers into) loses digits. */
  private static final long EXACT_IN_DOUBLE = 1L << 53;

  private ValueWriter() {}

  static void writeProperties(JsonGenerator g, Map<String, Value> properties) throws IOException {
    for (Map.Entry<String, Value> e : properties.entrySet()) {
      writeField(g, e.getKey(), e.getValue());
    }
  }

  static void writeField(JsonGenerator g, String name, Value value) throws IOException {
    if (EdmTypes.needsAnnotation(value)) {
      g.writeStringField(name + EdmTypes.ANNOTATION, value.type().edmName());
    }
    g.writeFieldName(name);
    writeBare(g, value);
  }

  private static void writeElement(JsonGenerator g, Value value) throws IOException {
    if (EdmTypes.needsAnnotation(value)) {
      g.writeStartObject();
      g.writeStringField(EdmTypes.ANNOTATION, value.type().edmName());
      g.writeFieldName(ValueReader.WRAPPED_VALUE);
      writeBare(g, value);
      g.writeEndObject();
    } else {
      writeBare(g, value);
    }
  }

  private static void writeBare(JsonGenerator g, Value value) throws IOException {
    switch (value.type()) {
      case STRING -> g.writeString(((Value.Str) value).value());
      case BOOLEAN -> g.writeBoolean(((Value.Bool) value).value());
      case INT32 -> g.writeNumber(((Value.Int32) value).value());
      case INT64 -> {
        long l = ((Value.Int64) value).value();
        if (l >= -EXACT_IN_DOUBLE && l <= EXACT_IN_DOUBLE) {
          g.writeNumber(l);
        } else {
          g.writeString(Long.toString(l));
        }
      }
      case DOUBLE -> writeDouble(g, ((Value.Double) value).value());
      case DECIMAL -> g.writeString(((Value.Decimal) value).text());
      case DATETIME -> g.writeString(((Value.DateTime) value).toIsoString());
      case GUID -> g.writeString(((Value.Guid) value).value().toString());
      case BINARY ->
          g.writeString(Base64.getEncoder().encodeToString(((Value.Binary) value).value()));
      case NULL -> g.writeNull();
      case OBJECT -> {
        g.writeStartObject();
        writeProperties(g, ((Value.Obj) value).properties());
        g.writeEndObject();
      }
      case ARRAY -> {
        g.writeStartArray();
        for (Value element : ((Value.Arr) value).elements()) {
          writeElement(g, element);
        }
        g.writeEndArray();
      }
      default -> throw new IllegalStateException("Unhandled value type " + value.type());
    }
  }

  /**
   * The same as {@link #writeProperties(JsonGenerator, Map)}, into {@link JsonBytes}; a comma
   * before the first property too when {@code afterMembers} (the object already has members).
   */
  static void writeProperties(JsonBytes out, Map<String, Value> properties, boolean afterMembers) {
    boolean comma = afterMembers;
    for (Map.Entry<String, Value> e : properties.entrySet()) {
      if (comma) {
        out.comma();
      }
      comma = true;
      Value value = e.getValue();
      if (EdmTypes.needsAnnotation(value)) {
        out.name(e.getKey(), EdmTypes.ANNOTATION).string(value.type().edmName()).comma();
      }
      writeBare(out.name(e.getKey()), value);
    }
  }

  private static void writeElement(JsonBytes out, Value value) {
    if (EdmTypes.needsAnnotation(value)) {
      out.startObject()
          .name(EdmTypes.ANNOTATION)
          .string(value.type().edmName())
          .comma()
          .name(ValueReader.WRAPPED_VALUE);
      writeBare(out, value);
      out.endObject();
    } else {
      writeBare(out, value);
    }
  }

  static void writeBare(JsonBytes out, Value value) {
    switch (value.type()) {
      case STRING -> out.string(((Value.Str) value).value());
      case BOOLEAN -> out.bool(((Value.Bool) value).value());
      case INT32 -> out.number(((Value.Int32) value).value());
      case INT64 -> {
        long l = ((Value.Int64) value).value();
        if (l >= -EXACT_IN_DOUBLE && l <= EXACT_IN_DOUBLE) {
          out.number(l);
        } else {
          out.string(Long.toString(l));
        }
      }
      case DOUBLE -> {
        double d = ((Value.Double) value).value();
        if (Double.isNaN(d)) {
          out.string("NaN");
        } else if (Double.isInfinite(d)) {
          out.string(d > 0 ? "Infinity" : "-Infinity");
        } else {
          out.raw(Double.toString(d));
        }
      }
      case DECIMAL -> out.string(((Value.Decimal) value).text());
      case DATETIME -> out.isoTime((Value.DateTime) value);
      case GUID -> out.string(((Value.Guid) value).value().toString());
      case BINARY -> out.string(Base64.getEncoder().encodeToString(((Value.Binary) value).value()));
      case NULL -> out.nullValue();
      case OBJECT -> {
        out.startObject();
        writeProperties(out, ((Value.Obj) value).properties(), false);
        out.endObject();
      }
      case ARRAY -> {
        out.startArray();
        boolean comma = false;
        for (Value element : ((Value.Arr) value).elements()) {
          if (comma) {
            out.comma();
          }
          comma = true;
          writeElement(out, element);
        }
        out.endArray();
      }
      default -> throw new IllegalStateException("Unhandled value type " + value.type());
    }
  }

  private static void writeDouble(JsonGenerator g, double d) throws IOException {
    if (Double.isNaN(d)) {
      g.writeString("NaN");
    } else if (Double.isInfinite(d)) {
      g.writeString(d > 0 ? "Infinity" : "-Infinity");
    } else {
      // Double.toString always has a '.' or an exponent ("1.0", "1.0E20"), so it reads back as a
      // double.
      g.writeRawValue(Double.toString(d));
    }
  }
}
