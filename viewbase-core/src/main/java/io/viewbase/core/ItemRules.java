package io.viewbase.core;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Limits;
import io.viewbase.api.PropertyName;
import io.viewbase.api.TimeToLive;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The rules of DESIGN §1 that every write and address must satisfy, checked before anything is
 * written so that bad input changes nothing.
 *
 * <ul>
 *   <li>Table names: {@code ^[A-Za-z][A-Za-z0-9]{2,62}$}.
 *   <li>Partition keys and ids: 0..maxKeyBytes bytes of UTF-8, no control characters, no unpaired
 *       surrogates (they have no UTF-8 form). The empty string is a key, as on Azure (an empty
 *       RowKey is the idiom for one record per partition): storage has no trouble with it (a
 *       partition is the table prefix plus the key, an empty sort key sorts first, and continuation
 *       tokens carry lengths).
 *   <li>Property names: {@link PropertyName}'s rule, up to maxPropertyNameLength characters; an
 *       item's own {@code _ttl} is {@link TimeToLive}'s.
 *   <li>At most maxProperties user properties; nesting at most maxNestingDepth deep; the encoded
 *       item at most maxItemBytes.
 * </ul>
 */
final class ItemRules {
  private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9]{2,62}");

  private final Limits limits;

  ItemRules(Limits limits) {
    this.limits = limits;
  }

  static void checkTableName(String name) {
    if (name == null || !TABLE_NAME.matcher(name).matches()) {
      throw ViewbaseException.of(
          ErrorCode.InvalidTableName,
          "Table names start with a letter and have 3 to 63 letters or digits",
          "table",
          name);
    }
  }

  void checkKey(String what, String key) {
    if (key == null) {
      throw ViewbaseException.of(
          ErrorCode.InvalidKey, "The " + what + " is required", "field", what);
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (Character.isISOControl(c)) {
        throw ViewbaseException.of(
            ErrorCode.InvalidKey,
            "The " + what + " contains a control character",
            "field",
            what,
            "position",
            i,
            "character",
            String.format("U+%04X", (int) c));
      }
      if (Character.isSurrogate(c)) {
        boolean paired =
            Character.isHighSurrogate(c)
                && i + 1 < key.length()
                && Character.isLowSurrogate(key.charAt(i + 1));
        if (!paired) {
          throw ViewbaseException.of(
              ErrorCode.InvalidKey,
              "The " + what + " contains an unpaired surrogate",
              "field",
              what,
              "position",
              i);
        }
        i++;
      }
    }
    // Cheap bound first: a UTF-16 char is at most 3 UTF-8 bytes.
    if (key.length() * 3 > limits.maxKeyBytes()) {
      int bytes = key.getBytes(StandardCharsets.UTF_8).length;
      if (bytes > limits.maxKeyBytes()) {
        throw ViewbaseException.of(
            ErrorCode.InvalidKey,
            "The " + what + " is longer than " + limits.maxKeyBytes() + " bytes of UTF-8",
            "field",
            what,
            "bytes",
            bytes);
      }
    }
  }

  void checkProperties(Map<String, Value> properties) {
    if (properties.size() > limits.maxProperties()) {
      throw ViewbaseException.of(
          ErrorCode.TooManyProperties,
          "An item has at most " + limits.maxProperties() + " properties",
          "properties",
          properties.size());
    }
    checkNames(properties, 1);
  }

  private void checkNames(Map<String, Value> properties, int depth) {
    for (Map.Entry<String, Value> e : properties.entrySet()) {
      PropertyName.check(e.getKey(), depth == 1, limits.maxPropertyNameLength());
      if (depth == 1 && e.getKey().equals(TimeToLive.PROPERTY)) {
        TimeToLive.check(e.getValue());
      }
      checkValue(e.getKey(), e.getValue(), depth);
    }
  }

  private void checkValue(String name, Value value, int depth) {
    if (value == null) {
      throw ViewbaseException.of(
          ErrorCode.InvalidValue, "A property has no value (use null)", "property", name);
    }
    if (value instanceof Value.Obj obj) {
      checkDepth(name, depth);
      checkNames(obj.properties(), depth + 1);
    } else if (value instanceof Value.Arr arr) {
      checkDepth(name, depth);
      for (Value element : arr.elements()) {
        checkValue(name, element, depth + 1);
      }
    } else if (value instanceof Value.Str s) {
      checkText(name, s.value());
    }
  }

  private void checkDepth(String name, int depth) {
    if (depth >= limits.maxNestingDepth()) {
      throw ViewbaseException.of(
          ErrorCode.InvalidValue,
          "Objects and arrays nest at most " + limits.maxNestingDepth() + " deep",
          "property",
          name);
    }
  }

  private static void checkText(String name, String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c)
            && i + 1 < text.length()
            && Character.isLowSurrogate(text.charAt(i + 1))) {
          i++;
        } else {
          throw ViewbaseException.of(
              ErrorCode.InvalidValue,
              "A string value contains an unpaired surrogate",
              "property",
              name,
              "position",
              i);
        }
      }
    }
  }

  void checkEncodedSize(byte[] encoded, String partitionKey, String id) {
    if (encoded.length > limits.maxItemBytes()) {
      throw ViewbaseException.of(
          ErrorCode.ItemTooLarge,
          "The item is larger than " + limits.maxItemBytes() + " bytes when encoded",
          "partitionKey",
          partitionKey,
          "id",
          id,
          "bytes",
          encoded.length);
    }
  }
}
