package io.viewbase.server.dynamodb.model;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Stability;
import io.viewbase.api.ViewbaseException;
import io.viewbase.json.JsonBytes;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * DynamoDB JSON: attribute values read from, and turned into, the trees of {@link JsonTree}.
 *
 * <pre>
 * {"S": "text"}   {"N": "1.5"}   {"B": "base64"}   {"BOOL": true}   {"NULL": true}
 * {"M": {"name": value, ...}}    {"L": [value, ...]}
 * {"SS": ["a", "b"]}   {"NS": ["1", "2"]}   {"BS": ["YQ==", "Yg=="]}
 * </pre>
 *
 * <p>Refusals, as DynamoDB words them:
 *
 * <pre>
 * input                                | error        | message
 * -------------------------------------+--------------+------------------------------------------
 * {} or only unknown members, or null  | InvalidInput | Supplied AttributeValue is empty, must
 *   members                            |              |   contain exactly one of the supported ...
 * {"S": "a", "N": "1"}                 | InvalidInput | Supplied AttributeValue has more than one
 *                                      |              |   datatypes set, must contain exactly ...
 * {"NULL": false}                      | InvalidInput | ...: Null attribute value types must have
 *                                      |              |   the value of true
 * {"SS": []}, {"NS": []}, {"BS": []}   | InvalidInput | ...: An string set  may not be empty (sic)
 * {"SS": ["a", "a"]}                   | InvalidInput | ...: Input collection [a, a] contains
 *                                      |              |   duplicates.
 * {"N": "x"}, {"N": "1e126"}           | InvalidInput | as {@link AttributeValue.N#parse}
 * documents nested over 32 levels      | InvalidInput | Nesting Levels have exceeded supported ...
 * {"S": 1}, {"N": 1}, {"M": []}        | InvalidJson  | (SerializationException: wrong JSON type)
 * {"B": "not base64"}                  | InvalidJson  | (SerializationException)
 * </pre>
 *
 * Members DynamoDB does not know are ignored, as DynamoDB ignores them. Messages never quote the
 * request but where DynamoDB's own message does (a set's duplicates, a number's text).
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class AttributeValues {
  /**
   * The deepest level a value may sit at, the attribute itself being level 1 (so a map may wrap
   * another 31 times), as DynamoDB counts its 32 levels of nesting.
   */
  public static final int MAX_NESTING = 32;

  static final String EMPTY =
      "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes";
  static final String SEVERAL =
      "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the"
          + " supported datatypes";
  static final String INVALID = "One or more parameter values were invalid: ";
  static final String NULL_NOT_TRUE =
      INVALID + "Null attribute value types must have the value of true";
  static final String EMPTY_SS = INVALID + "An string set  may not be empty";
  static final String EMPTY_NS = INVALID + "An number set  may not be empty";
  static final String EMPTY_BS = INVALID + "Binary sets should not be empty";
  static final String DUPLICATE_NS = INVALID + "Input collection contains duplicates.";
  static final String TOO_DEEP =
      "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels"
          + " beyond supported limit";

  private static final List<String> TYPES =
      List.of("S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS");

  private AttributeValues() {}

  /**
   * Reads one attribute value from its DynamoDB JSON tree.
   *
   * @throws ViewbaseException InvalidInput or InvalidJson, as the table above
   */
  public static AttributeValue read(Object tree) {
    return read(tree, 1);
  }

  /**
   * Reads a map of names to DynamoDB JSON values: an item, a key, ExpressionAttributeValues. The
   * order of the JSON is kept.
   *
   * @throws ViewbaseException InvalidJson when the tree is not a JSON object; otherwise as {@link
   *     #read}
   */
  public static Map<String, AttributeValue> readItem(Object tree) {
    return readMap(tree, 1);
  }

  /** The DynamoDB JSON tree of a value: {@code {"S": "x"}}, {@code {"M": {...}}}, ... */
  public static Map<String, Object> tree(AttributeValue value) {
    Map<String, Object> tree = new LinkedHashMap<>(2);
    tree.put(value.type(), content(value));
    return tree;
  }

  /** The DynamoDB JSON tree of an item: each attribute's name to its value's tree. */
  public static Map<String, Object> tree(Map<String, AttributeValue> item) {
    Map<String, Object> tree = new LinkedHashMap<>();
    item.forEach((name, value) -> tree.put(name, tree(value)));
    return tree;
  }

  private static Object content(AttributeValue value) {
    if (value instanceof AttributeValue.S s) {
      return s.value();
    } else if (value instanceof AttributeValue.N n) {
      return n.text();
    } else if (value instanceof AttributeValue.B b) {
      return b.base64();
    } else if (value instanceof AttributeValue.Bool b) {
      return b.value();
    } else if (value instanceof AttributeValue.Null) {
      return Boolean.TRUE;
    } else if (value instanceof AttributeValue.M m) {
      return tree(m.value());
    } else if (value instanceof AttributeValue.L l) {
      List<Object> list = new ArrayList<>(l.value().size());
      l.value().forEach(v -> list.add(tree(v)));
      return list;
    } else if (value instanceof AttributeValue.SS ss) {
      return new ArrayList<>(ss.value());
    } else if (value instanceof AttributeValue.NS ns) {
      return new ArrayList<>(ns.texts());
    } else {
      return ((AttributeValue.BS) value).value().stream().map(AttributeValue.B::base64).toList();
    }
  }

  /**
   * A canonical number's plain text ({@link AttributeValue.N#text}), quoted. A whole number of up
   * to 18 digits (scale 0 once its trailing zeros are stripped: 45, -7, 0, not 100) is written
   * digit by digit, the rest through its {@link BigDecimal} text; both write the same characters.
   */
  private static void number(JsonBytes out, BigDecimal canonical) {
    if (canonical.scale() == 0 && canonical.precision() <= 18) {
      out.quotedNumber(canonical.longValue());
    } else {
      out.string(Numbers.text(canonical));
    }
  }

  /** Writes a value as DynamoDB JSON, without building its tree first. */
  static void write(JsonBytes out, AttributeValue value) {
    out.startObject();
    if (value instanceof AttributeValue.S s) {
      out.encoded(S).string(s.value());
    } else if (value instanceof AttributeValue.N n) {
      number(out.encoded(N), n.value());
    } else if (value instanceof AttributeValue.B b) {
      out.encoded(B).string(b.base64());
    } else if (value instanceof AttributeValue.Bool b) {
      out.encoded(BOOL).bool(b.value());
    } else if (value instanceof AttributeValue.Null) {
      out.encoded(NULL).bool(true);
    } else if (value instanceof AttributeValue.M m) {
      out.encoded(M).startObject();
      boolean first = true;
      for (Map.Entry<String, AttributeValue> e : m.value().entrySet()) {
        if (!first) {
          out.comma();
        }
        first = false;
        out.name(e.getKey());
        write(out, e.getValue());
      }
      out.endObject();
    } else if (value instanceof AttributeValue.L l) {
      out.encoded(L).startArray();
      boolean first = true;
      for (AttributeValue v : l.value()) {
        if (!first) {
          out.comma();
        }
        first = false;
        write(out, v);
      }
      out.endArray();
    } else if (value instanceof AttributeValue.SS ss) {
      strings(out.encoded(SS), ss.value());
    } else if (value instanceof AttributeValue.NS ns) {
      strings(out.encoded(NS), ns.texts());
    } else {
      out.encoded(BS).startArray();
      boolean first = true;
      for (AttributeValue.B member : ((AttributeValue.BS) value).value()) {
        if (!first) {
          out.comma();
        }
        first = false;
        out.string(member.base64());
      }
      out.endArray();
    }
    out.endObject();
  }

  private static void strings(JsonBytes out, Iterable<String> members) {
    out.startArray();
    boolean first = true;
    for (String member : members) {
      if (!first) {
        out.comma();
      }
      first = false;
      out.string(member);
    }
    out.endArray();
  }

  /** {@code "S":}, {@code "N":}, ...: each type's member name, encoded once. */
  private static final byte[] S = JsonBytes.encodedName("S");

  private static final byte[] N = JsonBytes.encodedName("N");
  private static final byte[] B = JsonBytes.encodedName("B");
  private static final byte[] BOOL = JsonBytes.encodedName("BOOL");
  private static final byte[] NULL = JsonBytes.encodedName("NULL");
  private static final byte[] M = JsonBytes.encodedName("M");
  private static final byte[] L = JsonBytes.encodedName("L");
  private static final byte[] SS = JsonBytes.encodedName("SS");
  private static final byte[] NS = JsonBytes.encodedName("NS");
  private static final byte[] BS = JsonBytes.encodedName("BS");

  private static Map<String, AttributeValue> readMap(Object tree, int level) {
    if (!(tree instanceof Map<?, ?> map)) {
      throw shape(tree, "map");
    }
    Map<String, AttributeValue> values = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : map.entrySet()) {
      values.put((String) e.getKey(), read(e.getValue(), level));
    }
    return values;
  }

  private static AttributeValue read(Object tree, int level) {
    if (level > MAX_NESTING) {
      throw invalid(TOO_DEEP);
    }
    if (!(tree instanceof Map<?, ?> map)) {
      throw shape(tree, "structure");
    }
    String type = null;
    Object content = null;
    for (String candidate : TYPES) {
      Object member = map.get(candidate);
      if (member != null) {
        if (type != null) {
          throw invalid(SEVERAL);
        }
        type = candidate;
        content = member;
      }
    }
    if (type == null) {
      throw invalid(EMPTY);
    }
    switch (type) {
      case "S":
        return new AttributeValue.S(string(content));
      case "N":
        return AttributeValue.N.parse(string(content));
      case "B":
        return binary(content);
      case "BOOL":
        return new AttributeValue.Bool(bool(content));
      case "NULL":
        if (!bool(content)) {
          throw invalid(NULL_NOT_TRUE);
        }
        return AttributeValue.Null.INSTANCE;
      case "M":
        return new AttributeValue.M(readMap(content, level + 1));
      case "L":
        {
          List<?> list = list(content);
          List<AttributeValue> values = new ArrayList<>(list.size());
          for (Object element : list) {
            values.add(read(element, level + 1));
          }
          return new AttributeValue.L(values);
        }
      case "SS":
        return stringSet(list(content));
      case "NS":
        return numberSet(list(content));
      default:
        return binarySet(list(content));
    }
  }

  private static AttributeValue stringSet(List<?> list) {
    if (list.isEmpty()) {
      throw invalid(EMPTY_SS);
    }
    Set<String> members = new LinkedHashSet<>();
    List<String> texts = new ArrayList<>(list.size());
    boolean duplicates = false;
    for (Object element : list) {
      String member = string(element);
      texts.add(member);
      duplicates |= !members.add(member);
    }
    if (duplicates) {
      throw invalid(INVALID + "Input collection " + texts + " contains duplicates.");
    }
    return new AttributeValue.SS(members);
  }

  private static AttributeValue numberSet(List<?> list) {
    if (list.isEmpty()) {
      throw invalid(EMPTY_NS);
    }
    Set<BigDecimal> members = new LinkedHashSet<>();
    for (Object element : list) {
      if (!members.add(AttributeValue.N.parse(string(element)).value())) {
        throw invalid(DUPLICATE_NS);
      }
    }
    return new AttributeValue.NS(members);
  }

  private static AttributeValue binarySet(List<?> list) {
    if (list.isEmpty()) {
      throw invalid(EMPTY_BS);
    }
    Set<AttributeValue.B> members = new LinkedHashSet<>();
    List<String> texts = new ArrayList<>(list.size());
    Set<String> seen = new HashSet<>();
    boolean duplicates = false;
    for (Object element : list) {
      String text = string(element);
      texts.add(text);
      duplicates |= !seen.add(text);
      members.add(binary(text));
    }
    if (duplicates || members.size() != list.size()) {
      throw invalid(INVALID + "Input collection " + texts + "of type BS contains duplicates.");
    }
    return new AttributeValue.BS(members);
  }

  private static AttributeValue.B binary(Object content) {
    String text = string(content);
    if (text.length() % 4 != 0) {
      throw serialization(
          "Base64 encoded length is expected a multiple of 4 bytes but found: " + text.length());
    }
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw serialization("Invalid Base64 character");
    }
    // The decoder ignores bits left over in the last character; DynamoDB refuses them.
    if (!Base64.getEncoder().encodeToString(bytes).equals(text)) {
      throw serialization("Invalid last non-pad Base64 character dectected");
    }
    return new AttributeValue.B(bytes);
  }

  private static String string(Object content) {
    if (content instanceof String s) {
      return s;
    }
    throw shape(content, "String");
  }

  private static boolean bool(Object content) {
    if (content instanceof Boolean b) {
      return b;
    }
    throw shape(content, "Boolean");
  }

  private static List<?> list(Object content) {
    if (content instanceof List<?> l) {
      return l;
    }
    throw shape(content, "list");
  }

  /**
   * A SerializationException for JSON of the wrong type, worded as DynamoDB's (which names the JSON
   * token, never its text).
   */
  private static ViewbaseException shape(Object actual, String expected) {
    String message;
    if (actual instanceof Map) {
      message = "Start of structure or map found where not expected.";
    } else if (actual instanceof List) {
      message = "Start of list found where not expected";
    } else if (actual == null) {
      message = "Unexpected null value where a " + expected + " was expected";
    } else {
      String token =
          actual instanceof String
              ? "STRING_VALUE"
              : actual instanceof Boolean b ? (b ? "TRUE_VALUE" : "FALSE_VALUE") : "NUMBER_VALUE";
      message =
          expected.equals("map") || expected.equals("list") || expected.equals("structure")
              ? "Unexpected value type in payload"
              : token + " cannot be converted to " + expected;
    }
    return serialization(message);
  }

  private static ViewbaseException serialization(String message) {
    return ViewbaseException.of(ErrorCode.InvalidJson, message);
  }

  static ViewbaseException invalid(String message) {
    return ViewbaseException.of(ErrorCode.InvalidInput, message);
  }
}
