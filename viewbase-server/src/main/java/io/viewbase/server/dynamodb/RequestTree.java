package io.viewbase.server.dynamodb;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Stability;
import io.viewbase.api.ViewbaseException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON object of a DynamoDB request (the body, or a structure inside it), read member by member
 * with DynamoDB's rules for types: a member of the wrong JSON type is refused as DynamoDB refuses
 * it, with its SerializationException ({@link ErrorCode#SerializationFailure}) and its words; an
 * absent member and one that is {@code null} are both absent (null); members an operation does not
 * know are ignored, as DynamoDB ignores them.
 *
 * <pre>
 * expected          | JSON found                      | message
 * ------------------+---------------------------------+---------------------------------------------
 * string            | a number, true / false          | class java.lang.Integer can not be converted
 *                   |                                 |   to an String (Long, Double; Boolean)
 * number (integral) | a string, true / false          | class java.lang.String can not be converted
 *                   |                                 |   to an Long (Boolean)
 * boolean           | a string                        | 'TEXT' can not be converted to an Boolean
 * list              | a string, number, boolean       | Expected list or null
 * map               | a string, number, boolean       | Expected map or null
 * structure         | a string, number, boolean       | Expected null
 * any scalar, map   | a list                          | Start of list found where not expected
 * any scalar, list  | an object                       | Start of structure or map found where not
 *                   |                                 |   expected.
 * </pre>
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class RequestTree {
  private final Map<String, Object> members;

  private RequestTree(Map<String, Object> members) {
    this.members = members;
  }

  /** The request body's tree (from {@code JsonTree.read}), which must be a JSON object. */
  public static RequestTree of(Object body) {
    return structure(body);
  }

  /** The object's members as read, in order. */
  public Map<String, Object> members() {
    return members;
  }

  /** Whether the member is there and not null. */
  public boolean has(String name) {
    return members.get(name) != null;
  }

  /** A string member, or null. */
  public String string(String name) {
    return string(members.get(name));
  }

  /** An integral number member (DynamoDB's Long and Integer), or null. */
  public Long number(String name) {
    Object v = members.get(name);
    if (v == null) {
      return null;
    }
    if (v instanceof BigDecimal n) {
      // DynamoDB reads a fraction into an integer member by dropping it.
      return n.setScale(0, java.math.RoundingMode.FLOOR).longValue();
    }
    throw typeError(v, "Long");
  }

  /** A boolean member, or null. */
  public Boolean bool(String name) {
    Object v = members.get(name);
    if (v == null || v instanceof Boolean) {
      return (Boolean) v;
    }
    if (v instanceof String s) {
      throw serialization("'" + s + "' can not be converted to an Boolean");
    }
    throw typeError(v, "Boolean");
  }

  /** A structure member, or null. */
  public RequestTree structure(String name) {
    Object v = members.get(name);
    return v == null ? null : structure(v);
  }

  /** A list member, or null; its elements as read. */
  public List<Object> list(String name) {
    Object v = members.get(name);
    if (v == null) {
      return null;
    }
    if (v instanceof List<?> l) {
      return new ArrayList<>(l);
    }
    if (v instanceof Map) {
      throw serialization("Start of structure or map found where not expected.");
    }
    throw serialization("Expected list or null");
  }

  /** A list of structures, or null. */
  public List<RequestTree> structures(String name) {
    List<Object> l = list(name);
    if (l == null) {
      return null;
    }
    List<RequestTree> out = new ArrayList<>(l.size());
    for (Object element : l) {
      out.add(element == null ? null : structure(element));
    }
    return out;
  }

  /** A list of strings, or null. */
  public List<String> strings(String name) {
    List<Object> l = list(name);
    if (l == null) {
      return null;
    }
    List<String> out = new ArrayList<>(l.size());
    for (Object element : l) {
      out.add(string(element));
    }
    return out;
  }

  /** A map member (names to anything), or null. */
  public Map<String, Object> map(String name) {
    Object v = members.get(name);
    if (v == null) {
      return null;
    }
    if (v instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      m.forEach((k, value) -> out.put((String) k, value));
      return out;
    }
    if (v instanceof List) {
      throw serialization("Start of list found where not expected");
    }
    throw serialization("Expected map or null");
  }

  private static RequestTree structure(Object v) {
    if (v instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      m.forEach((k, value) -> out.put((String) k, value));
      return new RequestTree(out);
    }
    if (v instanceof List) {
      throw serialization("Start of list found where not expected");
    }
    throw serialization("Expected null");
  }

  private static String string(Object v) {
    if (v == null || v instanceof String) {
      return (String) v;
    }
    throw typeError(v, "String");
  }

  /** DynamoDB's words for a value of another type than {@code expected}, a Java class name. */
  private static ViewbaseException typeError(Object v, String expected) {
    if (v instanceof List) {
      return serialization("Start of list found where not expected");
    }
    if (v instanceof Map) {
      return serialization("Start of structure or map found where not expected.");
    }
    String found =
        v instanceof Boolean
            ? "java.lang.Boolean"
            : v instanceof String ? "java.lang.String" : numberClass((BigDecimal) v);
    return serialization("class " + found + " can not be converted to an " + expected);
  }

  /** The Java class DynamoDB's parser reads a JSON number as, named in its type errors. */
  private static String numberClass(BigDecimal n) {
    if (n.stripTrailingZeros().scale() > 0) {
      return "java.lang.Double";
    }
    if (n.compareTo(BigDecimal.valueOf(Short.MIN_VALUE)) >= 0
        && n.compareTo(BigDecimal.valueOf(Short.MAX_VALUE)) <= 0) {
      return "java.lang.Short";
    }
    if (n.compareTo(BigDecimal.valueOf(Integer.MIN_VALUE)) >= 0
        && n.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0) {
      return "java.lang.Integer";
    }
    return "java.lang.Long";
  }

  private static ViewbaseException serialization(String message) {
    return new ViewbaseException(ErrorCode.SerializationFailure, message);
  }
}
