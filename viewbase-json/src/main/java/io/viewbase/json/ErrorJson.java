package io.viewbase.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Errors as JSON: {@code {"error": {"code": "...", "message": "...", ...context}}}. The context
 * fields sit beside code and message, so a client reads {@code error.partitionKey} directly; a
 * context field named {@code code} or {@code message} is not written (it would shadow them).
 */
public final class ErrorJson {
  private ErrorJson() {}

  public static byte[] write(ViewbaseException e) {
    return write(e.code(), e.getMessage(), e.context());
  }

  public static byte[] write(ErrorCode code, String message, Map<String, ?> context) {
    return Json.write(
        g -> {
          g.writeStartObject();
          g.writeObjectFieldStart("error");
          g.writeStringField("code", code.name());
          g.writeStringField("message", message);
          for (Map.Entry<String, ?> e : context.entrySet()) {
            if (!e.getKey().equals("code") && !e.getKey().equals("message")) {
              g.writeFieldName(e.getKey());
              writeAny(g, e.getValue());
            }
          }
          g.writeEndObject();
          g.writeEndObject();
        });
  }

  /**
   * The error this JSON describes, or empty if it is not an error document. A code this version
   * does not know becomes {@link ErrorCode#InternalError} with the original in {@code remoteCode}.
   */
  public static Optional<ViewbaseException> read(byte[] json) {
    try {
      return Optional.ofNullable(Json.read(json, 0, json.length, ErrorJson::readDocument));
    } catch (ViewbaseException notJson) {
      return Optional.empty();
    }
  }

  private static ViewbaseException readDocument(JsonParser p) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      p.skipChildren();
      return null;
    }
    ViewbaseException found = null;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      p.nextToken();
      if (name.equals("error") && p.currentToken() == JsonToken.START_OBJECT) {
        found = readError(p);
      } else {
        p.skipChildren();
      }
    }
    return found;
  }

  private static ViewbaseException readError(JsonParser p) throws IOException {
    String code = null;
    String message = null;
    Map<String, Object> context = new LinkedHashMap<>();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      p.nextToken();
      switch (name) {
        case "code" -> code = p.getValueAsString();
        case "message" -> message = p.getValueAsString();
        default -> context.put(name, readAny(p));
      }
    }
    if (code == null) {
      return null;
    }
    ErrorCode errorCode;
    try {
      errorCode = ErrorCode.valueOf(code);
    } catch (IllegalArgumentException unknown) {
      errorCode = ErrorCode.InternalError;
      context.put("remoteCode", code);
    }
    return new ViewbaseException(errorCode, message == null ? code : message, context);
  }

  private static void writeAny(JsonGenerator g, Object value) throws IOException {
    if (value == null) {
      g.writeNull();
    } else if (value instanceof String s) {
      g.writeString(s);
    } else if (value instanceof Integer
        || value instanceof Long
        || value instanceof Short
        || value instanceof Byte) {
      g.writeNumber(((Number) value).longValue());
    } else if (value instanceof Number n && Double.isFinite(n.doubleValue())) {
      g.writeNumber(n.doubleValue());
    } else if (value instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (value instanceof Collection<?> c) {
      g.writeStartArray();
      for (Object element : c) {
        writeAny(g, element);
      }
      g.writeEndArray();
    } else if (value instanceof Map<?, ?> m) {
      g.writeStartObject();
      for (Map.Entry<?, ?> e : m.entrySet()) {
        g.writeFieldName(String.valueOf(e.getKey()));
        writeAny(g, e.getValue());
      }
      g.writeEndObject();
    } else {
      g.writeString(String.valueOf(value));
    }
  }

  /** A context value: String, Integer or Long, Double, Boolean, List, Map or null. */
  private static Object readAny(JsonParser p) throws IOException {
    return switch (p.currentToken()) {
      case VALUE_STRING -> p.getText();
      case VALUE_NUMBER_INT ->
          switch (p.getNumberType()) {
            case INT -> (Object) p.getIntValue();
            case LONG -> (Object) p.getLongValue();
            default -> (Object) p.getDoubleValue();
          };
      case VALUE_NUMBER_FLOAT -> p.getDoubleValue();
      case VALUE_TRUE -> Boolean.TRUE;
      case VALUE_FALSE -> Boolean.FALSE;
      case START_ARRAY -> {
        List<Object> list = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          list.add(readAny(p));
        }
        yield list;
      }
      case START_OBJECT -> {
        Map<String, Object> map = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          p.nextToken();
          map.put(name, readAny(p));
        }
        yield map;
      }
      default -> null;
    };
  }
}
