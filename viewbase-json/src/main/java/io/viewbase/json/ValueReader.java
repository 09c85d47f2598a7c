package io.viewbase.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Limits;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads one JSON value into a {@link Value}, choosing the type from the JSON itself: string -> Str,
 * integer in int32 range -> Int32, other int64 -> Int64, a number with a fraction or exponent (or
 * an integer beyond int64) -> Double, true/false -> Bool, null -> Null, object -> Obj, array ->
 * Arr. Annotations inside nested objects apply as at the top level; an array element whose type
 * JSON lacks is the object {@code {"@odata.type": "Edm.X", "value": ...}}. A number annotated
 * {@code Edm.Decimal} is read from its text, exactly.
 */
final class ValueReader {
  static final String WRAPPED_VALUE = "value";

  /**
   * What {@link #readMember} makes of a number beyond the range of a double, told apart by
   * identity: {@link Members} refuses it unless an {@code Edm.Decimal} annotation reads it from its
   * text.
   */
  static final Value.Double BEYOND_DOUBLE = new Value.Double(Double.POSITIVE_INFINITY);

  private final Limits limits;

  ValueReader(Limits limits) {
    this.limits = limits;
  }

  /**
   * The value at the parser's current token. {@code depth} is the nesting depth a container here
   * would have (a property of the item is at depth 1); {@code path} names it in errors.
   */
  Value read(JsonParser p, String path, int depth) throws IOException {
    JsonToken token = p.currentToken();
    return switch (token) {
      case VALUE_STRING -> new Value.Str(text(p.getText(), path));
      case VALUE_NUMBER_INT ->
          switch (p.getNumberType()) {
            case INT -> new Value.Int32(p.getIntValue());
            case LONG -> new Value.Int64(p.getLongValue());
            default -> finite(p.getDoubleValue(), path);
          };
      case VALUE_NUMBER_FLOAT -> finite(p.getDoubleValue(), path);
      case VALUE_TRUE -> new Value.Bool(true);
      case VALUE_FALSE -> new Value.Bool(false);
      case VALUE_NULL -> Value.Null.INSTANCE;
      case START_OBJECT -> readObject(p, path, depth, false);
      case START_ARRAY -> readArray(p, path, depth);
      default -> throw Json.shape(p, "Unexpected JSON token " + token);
    };
  }

  /**
   * {@link #read} for a member of an object, whose annotation may come after it: a number beyond
   * the range of a double is {@link #BEYOND_DOUBLE} rather than an error, for a decimal may hold
   * it.
   */
  Value readMember(JsonParser p, String path, int depth) throws IOException {
    JsonToken token = p.currentToken();
    if (token == JsonToken.VALUE_NUMBER_FLOAT
        || token == JsonToken.VALUE_NUMBER_INT
            && p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
      double d = p.getDoubleValue();
      return Double.isFinite(d) ? new Value.Double(d) : BEYOND_DOUBLE;
    }
    return read(p, path, depth);
  }

  private Value readArray(JsonParser p, String path, int depth) throws IOException {
    checkDepth(depth, path);
    List<Value> elements = new ArrayList<>();
    JsonToken t;
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      String elementPath = path + "[" + elements.size() + "]";
      elements.add(
          t == JsonToken.START_OBJECT
              ? readObject(p, elementPath, depth + 1, true)
              : read(p, elementPath, depth + 1));
    }
    return new Value.Arr(elements);
  }

  /**
   * A nested object, or in an array a wrapped typed scalar. A wrapper holds no container, so it is
   * allowed one level past the depth limit: a scalar at the deepest level stays writable.
   */
  private Value readObject(JsonParser p, String path, int depth, boolean inArray)
      throws IOException {
    boolean tooDeep = depth > limits.maxNestingDepth();
    if (tooDeep && !inArray) {
      checkDepth(depth, path);
    }
    Members members = new Members();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = text(p.currentName(), path);
      p.nextToken();
      if (tooDeep && !name.equals(EdmTypes.ANNOTATION) && !name.equals(WRAPPED_VALUE)) {
        checkDepth(depth, path);
      }
      if (name.endsWith(EdmTypes.ANNOTATION)) {
        members.annotate(
            p,
            name.substring(0, name.length() - EdmTypes.ANNOTATION.length()),
            annotation(p, path));
      } else {
        members.put(p, name, readMember(p, path + "." + name, depth + 1));
      }
    }
    if (inArray && isWrapper(members)) {
      String edm = members.annotations().get("");
      Value typed = EdmTypes.apply(path, edm, members.natural(WRAPPED_VALUE, edm));
      if (typed == BEYOND_DOUBLE) {
        throw beyondDouble(path);
      }
      return typed;
    }
    if (tooDeep) {
      checkDepth(depth, path);
    }
    return new Value.Obj(members.resolve(path));
  }

  private static boolean isWrapper(Members members) {
    Map<String, String> annotations = members.annotations();
    return annotations.size() == 1
        && annotations.containsKey("")
        && members.values.size() == 1
        && members.values.containsKey(WRAPPED_VALUE);
  }

  /** The Edm type name of an annotation at the current token. */
  static String annotation(JsonParser p, String path) throws IOException {
    if (p.currentToken() != JsonToken.VALUE_STRING) {
      throw ViewbaseException.of(
          ErrorCode.InvalidValue,
          "A type annotation must be a string such as \"Edm.Int64\"",
          "property",
          path);
    }
    return p.getText();
  }

  private void checkDepth(int depth, String path) {
    if (depth > limits.maxNestingDepth()) {
      throw ViewbaseException.of(
          ErrorCode.InvalidValue,
          "Objects and arrays are nested too deeply",
          "property",
          path,
          "maxNestingDepth",
          limits.maxNestingDepth());
    }
  }

  private static Value finite(double value, String path) {
    if (!Double.isFinite(value)) {
      throw beyondDouble(path);
    }
    return new Value.Double(value);
  }

  static ViewbaseException beyondDouble(String path) {
    return ViewbaseException.of(
        ErrorCode.InvalidValue,
        "A number is beyond the range of a double (use Edm.Double with \"Infinity\" to mean infinity)",
        "property",
        path);
  }

  /**
   * JSON escapes can spell a lone UTF-16 surrogate, which no UTF-8 writer can put back out: refuse
   * it on the way in rather than fail on every later read of the item.
   */
  static String text(String s, String path) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c)
            && i + 1 < s.length()
            && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
        } else {
          throw ViewbaseException.of(
              ErrorCode.InvalidValue, "Text holds an unpaired UTF-16 surrogate", "property", path);
        }
      }
    }
    return s;
  }
}
