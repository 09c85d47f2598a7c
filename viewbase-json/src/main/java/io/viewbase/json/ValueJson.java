package io.viewbase.json;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Limits;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.nio.charset.StandardCharsets;

/**
 * One property's value as JSON on its own, outside an item: what the native API writes after the
 * property's name (an object's or array's members annotated inside it as usual), and the reader of
 * such an object or array. The CLI's CSV formats hold objects and arrays in a cell this way, so the
 * cell reads back with the same types an item body would give it.
 *
 * <p>Only containers are read: a bare scalar has lost its annotation (an Int64 {@code 5} reads as
 * an Int32), so a caller that keeps scalars as text types them itself ({@link EdmTypes#decode}).
 */
public final class ValueJson {
  private ValueJson() {}

  /** The value's JSON, as it would follow {@code "name":} in an item ({@link ItemJson#write}). */
  public static String write(Value value) {
    JsonBytes out = JsonBytes.scratch();
    ValueWriter.writeBare(out, value);
    return new String(out.toByteArray(), StandardCharsets.UTF_8);
  }

  /**
   * Reads a JSON object or array as a property's value ({@code property} names it in errors): the
   * limits of an item's property apply (nesting, names). Anything else is {@link
   * ErrorCode#InvalidValue}; malformed JSON {@link ErrorCode#InvalidJson}.
   */
  public static Value readContainer(String json, String property, Limits limits) {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    ValueReader values = new ValueReader(limits);
    Value value = Json.read(bytes, 0, bytes.length, p -> values.read(p, property, 1));
    if (!(value instanceof Value.Obj) && !(value instanceof Value.Arr)) {
      throw ViewbaseException.of(
          ErrorCode.InvalidValue,
          "A Json value must be a JSON object or array",
          "property",
          property);
    }
    return value;
  }
}
