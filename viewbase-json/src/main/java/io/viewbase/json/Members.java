package io.viewbase.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The members of one JSON object as they are read: plain values and the type annotations that may
 * come before or after them. {@link #resolve} applies the annotations once the object is closed.
 */
final class Members {
  final Map<String, Value> values = new LinkedHashMap<>();
  private Map<String, String> annotations;

  /**
   * The text of each number JSON typed as a double (a fraction, an exponent, or beyond int64), for
   * an {@link EdmTypes#DECIMAL} annotation that may come after it: the double has lost digits.
   */
  private Map<String, String> numberTexts;

  /** Puts a value just read; {@code p} is still at its last token. */
  void put(JsonParser p, String name, Value value) throws IOException {
    if (values.putIfAbsent(name, value) != null) {
      throw Json.duplicate(p, name);
    }
    JsonToken token = p.currentToken();
    if (token == JsonToken.VALUE_NUMBER_FLOAT
        || token == JsonToken.VALUE_NUMBER_INT
            && p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
      if (numberTexts == null) {
        numberTexts = new HashMap<>(4);
      }
      numberTexts.put(name, p.getText());
    }
  }

  /**
   * The value of member {@code name} as {@link EdmTypes#apply} reads it under annotation {@code
   * edm}: for a decimal, a number is its text, as a string; null if there is no such member.
   */
  Value natural(String name, String edm) {
    String text = numberTexts == null ? null : numberTexts.get(name);
    return text != null && edm.equals(EdmTypes.DECIMAL) ? new Value.Str(text) : values.get(name);
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
        Value natural = natural(name, a.getValue());
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
    if (numberTexts != null) {
      for (String name : numberTexts.keySet()) {
        if (values.get(name) == ValueReader.BEYOND_DOUBLE) {
          throw ValueReader.beyondDouble(path == null ? name : path + "." + name);
        }
      }
    }
    return values;
  }
}
