package io.viewbase.server.dynamodb.model;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Stability;
import io.viewbase.api.ViewbaseException;
import io.viewbase.json.JsonBytes;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON request body read into a plain tree, and an answer tree written back as JSON: the shapes
 * the DynamoDB protocol handles its envelopes in.
 *
 * <pre>
 * JSON            | tree (read)                 | written from
 * ----------------+-----------------------------+-----------------------------------------
 * object          | LinkedHashMap&lt;String,Object&gt; | any Map with String keys
 * array           | ArrayList&lt;Object&gt;           | any Collection, or an Object[]
 * string          | String                      | String
 * number          | BigDecimal (exact)          | BigDecimal, Integer, Long, any Number
 * true / false    | Boolean                     | Boolean
 * null            | null                        | null
 * DynamoDB JSON   | (read as the shapes above)  | an {@link AttributeValue}
 * </pre>
 *
 * Reading is bounded: by the caller's byte limit, by {@link #MAX_DEPTH} levels of nesting (the 32
 * levels DynamoDB allows a document take two JSON levels each, and the request's envelope a few
 * more, so a document nested a little too deep still reaches DynamoDB's own ValidationException),
 * and by Jackson's limits on a number's or a name's length. A name given twice in one object is
 * refused. Failures are {@link ErrorCode#InvalidJson} (DynamoDB's SerializationException) with a
 * fixed message and the line and column as context; the request's text is never quoted.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class JsonTree {
  /** The deepest nesting of JSON objects and arrays a request may have. */
  public static final int MAX_DEPTH = 100;

  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          // Error locations are for humans; echoing the source would put request bytes in messages.
          .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxNestingDepth(MAX_DEPTH + 1)
                  .maxNumberLength(1000)
                  .maxNameLength(65_536)
                  .build())
          .build();

  private JsonTree() {}

  /**
   * Reads a request body.
   *
   * @param body the UTF-8 JSON text
   * @param maxBytes the largest body accepted
   * @return the tree of the one JSON value the body holds
   * @throws ViewbaseException RequestTooLarge over {@code maxBytes}; InvalidJson for an empty body,
   *     malformed JSON, content after the value, a repeated name, or nesting over {@link
   *     #MAX_DEPTH}
   */
  public static Object read(byte[] body, int maxBytes) {
    if (body.length > maxBytes) {
      throw ViewbaseException.of(
          ErrorCode.RequestTooLarge,
          "The request body is larger than the operation accepts",
          "maxBytes",
          maxBytes);
    }
    try (JsonParser p = FACTORY.createParser(body)) {
      if (p.nextToken() == null) {
        throw shape(p, "The request body is empty; a JSON value was expected");
      }
      Object tree = value(p, 1);
      if (p.nextToken() != null) {
        throw shape(p, "Unexpected content after the JSON value");
      }
      return tree;
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      throw failAt(at, "The request body is not valid JSON");
    } catch (IOException e) {
      // Reading from memory does not fail but for malformed input, which Jackson reports above.
      throw ViewbaseException.of(ErrorCode.InvalidJson, "The request body is not valid JSON");
    }
  }

  /**
   * Writes a tree (see the table above) as compact UTF-8 JSON: the bytes Jackson's generator writes
   * for it, written by {@link JsonBytes} into this thread's scratch buffer (a Query answer of 100
   * items spent a third of its CPU in the generator's calls).
   *
   * @throws IllegalArgumentException for a value of another type, or a map key that is not a String
   */
  public static byte[] write(Object tree) {
    JsonBytes out = JsonBytes.scratch();
    write(out, tree);
    return out.toByteArray();
  }

  private static void write(JsonBytes out, Object tree) {
    if (tree == null) {
      out.nullValue();
    } else if (tree instanceof String s) {
      out.string(s);
    } else if (tree instanceof Boolean b) {
      out.bool(b);
    } else if (tree instanceof BigDecimal d) {
      out.raw(d.toString());
    } else if (tree instanceof Integer || tree instanceof Long || tree instanceof Short) {
      out.number(((Number) tree).longValue());
    } else if (tree instanceof Number n) {
      out.raw(new BigDecimal(n.toString()).toString());
    } else if (tree instanceof AttributeValue v) {
      AttributeValues.write(out, v);
    } else if (tree instanceof Map<?, ?> map) {
      out.startObject();
      boolean first = true;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!(e.getKey() instanceof String name)) {
          throw new IllegalArgumentException("A JSON object's keys must be strings");
        }
        if (!first) {
          out.comma();
        }
        first = false;
        out.name(name);
        write(out, e.getValue());
      }
      out.endObject();
    } else if (tree instanceof Collection<?> c) {
      out.startArray();
      boolean first = true;
      for (Object element : c) {
        if (!first) {
          out.comma();
        }
        first = false;
        write(out, element);
      }
      out.endArray();
    } else if (tree instanceof Object[] array) {
      out.startArray();
      for (int i = 0; i < array.length; i++) {
        if (i > 0) {
          out.comma();
        }
        write(out, array[i]);
      }
      out.endArray();
    } else {
      throw new IllegalArgumentException(
          "Not a JSON tree value: " + tree.getClass().getSimpleName());
    }
  }

  /** The value at the parser's current token; {@code depth} is its nesting level. */
  private static Object value(JsonParser p, int depth) throws IOException {
    JsonToken token = p.currentToken();
    switch (token) {
      case START_OBJECT:
        {
          checkDepth(p, depth);
          Map<String, Object> map = new LinkedHashMap<>();
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            if (map.containsKey(name)) {
              throw shape(p, "A name is given twice in one JSON object");
            }
            map.put(name, value(p, depth + 1));
          }
          return map;
        }
      case START_ARRAY:
        {
          checkDepth(p, depth);
          List<Object> list = new ArrayList<>();
          while (p.nextToken() != JsonToken.END_ARRAY) {
            list.add(value(p, depth + 1));
          }
          return list;
        }
      case VALUE_STRING:
        return p.getText();
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT:
        try {
          return p.getDecimalValue();
        } catch (NumberFormatException beyondBigDecimal) {
          // JSON allows any exponent, a BigDecimal's scale is an int: 1E followed by 20 digits
          throw shape(p, "A number in the request body is beyond what can be read");
        }
      case VALUE_TRUE:
        return Boolean.TRUE;
      case VALUE_FALSE:
        return Boolean.FALSE;
      case VALUE_NULL:
        return null;
      default:
        throw shape(p, "Unexpected JSON token");
    }
  }

  private static void checkDepth(JsonParser p, int depth) {
    if (depth > MAX_DEPTH) {
      throw shape(p, "The JSON nests deeper than " + MAX_DEPTH + " levels");
    }
  }

  private static ViewbaseException shape(JsonParser p, String message) {
    return failAt(p.currentTokenLocation(), message);
  }

  private static ViewbaseException failAt(JsonLocation at, String message) {
    if (at == null) {
      return ViewbaseException.of(ErrorCode.InvalidJson, message);
    }
    return ViewbaseException.of(
        ErrorCode.InvalidJson, message, "line", at.getLineNr(), "column", at.getColumnNr());
  }
}
