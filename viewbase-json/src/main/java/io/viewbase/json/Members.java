package io.viewbase.json;

import com.fasterxml.jackson.core.JsonParser;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The members of one JSON object as they are read: plain values and the type annotations that may
 * come before or after them. {@link #resolve} applies the annotations once the object is closed.
 */
final class Members {
  final Map<String, Value> values = new LinkedHashMap<>();
  private Map<String, String> annotations;

  void put(JsonParser p, String name, Value value) {
    if (values.putIfAbsent(name, value) != null) {
      throw Json.duplicate(p, name);
    }
  }

  void annotate(JsonParser p, String name, String edmType) {
    if (annotations == null) {
      annotations = new LinkedHashMap<>();
    }
    if (annotations.putIfAbsent(name, edmType) != null) {
      throw Json.duplicate(p, name + EdmTypes.ANNOTATION);
    }
  }

  Map<String, String> annotations() {
    return annotations == null ? Map.of() : annotations;
  }

  /** The values with their annotations applied; {@code path} prefixes property names in errors. */
  Map<String, Value> resolve(String path) {
    if (annotations != null) {
      for (Map.Entry<String, String> a : annotations.entrySet()) {
        String name = a.getKey();
        String property = path == null ? name : path + "." + name;
        Value natural = values.get(name);
        if (natural == null) {
          throw ViewbaseException.of(
              ErrorCode.InvalidValue,
              "A type annotation names a property the object does not have",
              "property",
              property,
              "type",
              a.getValue());
        }
        values.put(name, EdmTypes.apply(property, a.getValue(), natural));
      }
    }
    return values;
  }
}
