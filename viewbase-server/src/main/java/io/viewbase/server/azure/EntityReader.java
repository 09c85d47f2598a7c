package io.viewbase.server.azure;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import io.viewbase.json.EdmTypes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads an entity from Azure's JSON: the keys, and each property typed by its {@code @odata.type}
 * annotation (before or after it; decoded by viewbase-json's {@link EdmTypes}, as the native API's
 * values are) or, without one, by its JSON form.
 *
 * <pre>
 * JSON value                 | annotation     | Value
 * ---------------------------+----------------+-------------------------------------------
 * string                     | none/String    | Str
 * true / false               | none/Boolean   | Bool  ("true"/"false" strings too when annotated)
 * integer in Int32 range     | none/Int32     | Int32 (a numeric string too when annotated)
 * integer beyond Int32       | none           | Double (as on Azure; an Int64 needs its annotation)
 * number with '.' or 'e'     | none/Double    | Double ("NaN", "Infinity", "-Infinity" when annotated)
 * decimal string or integer  | Int64          | Int64
 * ISO-8601 string            | DateTime       | DateTime (UTC, 100 ns; 1601..9999)
 * 8-4-4-4-12 hex string      | Guid           | Guid
 * base64 string              | Binary         | Binary
 * null                       | none           | dropped: the property is absent
 * null                       | any type       | refused (400 InvalidInput), as on Azure
 * </pre>
 *
 * Properties are stored under {@link PropertyNames#stored} ({@code id} as {@code $id}, a name
 * starting with '$' refused). {@code odata.*} members and {@code Timestamp} are ignored (clients
 * echo them back). Objects and arrays, a property given twice, a value that does not fit its
 * annotation, and Azure's size limits (strings of 32 K UTF-16 units, binaries of 64 KiB, 252
 * properties, names of 255 characters) are refused with Azure's codes.
 */
final class EntityReader {
  static final String ANNOTATION = EdmTypes.ANNOTATION;
  static final int MAX_STRING_CHARS = 32 * 1024;
  static final int MAX_BINARY_BYTES = 64 * 1024;
  static final int MAX_PROPERTIES = 252;

  /** Azure's longest property name, in characters (a longer one is 400 PropertyNameTooLong). */
  static final int MAX_NAME_LENGTH = 255;

  private static final JsonFactory FACTORY =
      JsonFactory.builder().disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION).build();

  /** An entity as sent: its keys (null when the body has none) and its typed properties. */
  record Entity(String partitionKey, String rowKey, Map<String, Value> properties) {}

  private EntityReader() {}

  static Entity read(byte[] body) {
    return read(body, 0, body.length);
  }

  static Entity read(byte[] body, int offset, int length) {
    if (length == 0) {
      throw new ViewbaseException(
          ErrorCode.InvalidJson, "The request body is empty; an entity in JSON was expected");
    }
    try (JsonParser p = FACTORY.createParser(body, offset, length)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new ViewbaseException(
            ErrorCode.InvalidJson, "The request body must be a JSON object");
      }
      List<String> names = new ArrayList<>(16);
      List<Object> raw = new ArrayList<>(16);
      Map<String, String> annotations = null;
      String pk = null;
      String rk = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken t = p.nextToken();
        if (name.endsWith(ANNOTATION)) {
          if (t != JsonToken.VALUE_STRING) {
            throw ViewbaseException.of(
                ErrorCode.InvalidValue,
                "A type annotation must be a string such as " + "\"Edm.Int64\"",
                "annotation",
                name);
          }
          if (annotations == null) {
            annotations = new HashMap<>();
          }
          annotations.put(name.substring(0, name.length() - ANNOTATION.length()), p.getText());
          continue;
        }
        if (name.startsWith("odata.") || name.equals("Timestamp")) {
          p.skipChildren();
          continue;
        }
        if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
          throw ViewbaseException.of(
              ErrorCode.InvalidValue,
              "The property holds a JSON object or array; Azure Tables "
                  + "properties are single values",
              "property",
              name);
        }
        if (name.equals("PartitionKey") || name.equals("RowKey")) {
          if (t != JsonToken.VALUE_STRING) {
            throw ViewbaseException.of(
                ErrorCode.InvalidKey, "A key must be a string", "property", name);
          }
          if (name.equals("PartitionKey") ? pk != null : rk != null) {
            throw duplicate(name);
          }
          if (name.equals("PartitionKey")) {
            pk = p.getText();
          } else {
            rk = p.getText();
          }
          continue;
        }
        names.add(name);
        raw.add(rawValue(p, t));
      }
      if (p.nextToken() != null) {
        throw new ViewbaseException(
            ErrorCode.InvalidJson, "Unexpected content after the entity's JSON object");
      }
      return new Entity(pk, rk, resolve(names, raw, annotations));
    } catch (JsonProcessingException e) {
      throw ViewbaseException.of(
          ErrorCode.InvalidJson,
          "The request body is not valid JSON",
          "reason",
          e.getOriginalMessage());
    } catch (IOException e) {
      throw ViewbaseException.of(
          ErrorCode.InvalidJson, "The request body could not be read", "reason", e.getMessage());
    }
  }

  /** A JSON scalar kept in its lexical form until its annotation (which may follow) is known. */
  private record Raw(JsonToken token, String text) {}

  private static Object rawValue(JsonParser p, JsonToken t) throws IOException {
    return switch (t) {
      case VALUE_STRING -> p.getText();
      case VALUE_TRUE -> Boolean.TRUE;
      case VALUE_FALSE -> Boolean.FALSE;
      case VALUE_NULL -> null;
      default -> new Raw(t, p.getText());
    };
  }

  private static Map<String, Value> resolve(
      List<String> names, List<Object> raw, Map<String, String> annotations) {
    Map<String, Value> properties = new LinkedHashMap<>(names.size() * 2);
    for (int i = 0; i < names.size(); i++) {
      String name = names.get(i);
      if (name.length() > MAX_NAME_LENGTH) {
        throw ViewbaseException.of(
            ErrorCode.PropertyNameTooLong,
            "The property name exceeds the maximum allowed " + "length",
            "property",
            name.substring(0, 32) + "…",
            "maxLength",
            MAX_NAME_LENGTH);
      }
      Object v = raw.get(i);
      String edm = annotations == null ? null : annotations.get(name);
      if (v == null) {
        if (edm != null) {
          // A type for a value that is not there: Azure refuses it (as Azurite does for most
          // types).
          throw badValue(
              name,
              "null with the type annotation "
                  + edm
                  + "; leave the property out (or send it "
                  + "without its annotation) to store no value");
        }
        if (properties.containsKey(PropertyNames.stored(name))) {
          throw duplicate(name);
        }
        continue;
      }
      Value value = edm == null ? untyped(name, v) : typed(name, edm, v);
      if (properties.put(PropertyNames.stored(name), value) != null) {
        throw duplicate(name);
      }
    }
    if (properties.size() > MAX_PROPERTIES) {
      throw ViewbaseException.of(
          ErrorCode.TooManyProperties,
          "The entity has too many properties",
          "properties",
          properties.size(),
          "max",
          MAX_PROPERTIES);
    }
    return properties;
  }

  private static Value untyped(String name, Object v) {
    if (v instanceof String s) {
      return string(name, s);
    }
    if (v instanceof Boolean b) {
      return new Value.Bool(b);
    }
    Raw r = (Raw) v;
    if (r.token == JsonToken.VALUE_NUMBER_INT && r.text.length() <= 11) {
      long l = Long.parseLong(r.text); // at most 11 characters: within a long
      if (l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE) {
        return new Value.Int32((int) l);
      }
    }
    // Beyond Int32, an integer without annotation is a Double, as on Azure: a JavaScript number
    // (Date.now()) then reads back as the number written; an Int64 is written with its annotation.
    return new Value.Double(finite(name, r.text));
  }

  /** An annotated value, as viewbase-json's {@link EdmTypes} decodes it, within Azure's limits. */
  private static Value typed(String name, String edm, Object v) {
    if (!EdmTypes.isKnown(edm)) {
      throw badValue(name, "an unknown type " + edm);
    }
    Value value = EdmTypes.decode(edm, natural(name, v));
    if (value == null || value instanceof Value.DateTime t && !AzureTimes.inRange(t)) {
      throw badValue(name, "a value that is not a valid " + edm);
    }
    if (value instanceof Value.Str s) {
      return string(name, s.value());
    }
    if (value instanceof Value.Binary b && b.length() > MAX_BINARY_BYTES) {
      throw ViewbaseException.of(
          ErrorCode.PropertyValueTooLarge,
          "The property exceeds the maximum " + "allowed size (64KB).",
          "property",
          name);
    }
    return value;
  }

  /**
   * A raw value as JSON types it: what {@link EdmTypes#decode} reads (the native API's reader's
   * typing).
   */
  private static Value natural(String name, Object v) {
    if (v instanceof String s) {
      return new Value.Str(s);
    }
    if (v instanceof Boolean b) {
      return new Value.Bool(b);
    }
    Raw r = (Raw) v;
    if (r.token == JsonToken.VALUE_NUMBER_INT) {
      try {
        long l = Long.parseLong(r.text);
        return l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE
            ? new Value.Int32((int) l)
            : new Value.Int64(l);
      } catch (NumberFormatException beyondInt64) {
        // a double, as below
      }
    }
    return new Value.Double(finite(name, r.text));
  }

  private static Value string(String name, String s) {
    if (s.length() > MAX_STRING_CHARS) {
      throw ViewbaseException.of(
          ErrorCode.PropertyValueTooLarge,
          "The property value exceeds the maximum allowed "
              + "size (64KB). If the property value is a string, it is UTF-16 encoded and the maximum number of "
              + "characters should be 32K or less.",
          "property",
          name);
    }
    return new Value.Str(s);
  }

  private static double finite(String name, String text) {
    double d;
    try {
      d = Double.parseDouble(text);
    } catch (NumberFormatException e) {
      throw badValue(name, "a value that is not a number");
    }
    if (!Double.isFinite(d)) {
      throw badValue(name, "a number beyond the range of a double");
    }
    return d;
  }

  private static ViewbaseException badValue(String name, String what) {
    return ViewbaseException.of(
        ErrorCode.InvalidValue, "The property holds " + what, "property", name);
  }

  private static ViewbaseException duplicate(String name) {
    return ViewbaseException.of(
        ErrorCode.DuplicatePropertiesSpecified,
        "The property is specified twice",
        "property",
        name);
  }
}
