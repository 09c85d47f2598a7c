package io.viewbase.entity;

import io.viewbase.api.KeyText;
import io.viewbase.api.Value;
import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Conversion between the plain Java values of entities (what Jackson makes of a record: strings,
 * numbers, booleans, lists, maps) and Viewbase {@link Value}s, and the text of a value in a key.
 */
final class Values {
  /**
   * Integral doubles up to 2^53 are stored as int64: they are exact there, and render without ".0"
   * in keys.
   */
  private static final double EXACT_LIMIT = 9007199254740992d;

  private Values() {}

  /** The stored value of a Java value; null for null (the attribute is absent). */
  static Value toValue(Object o) {
    if (o == null) {
      return null;
    }
    if (o instanceof Value v) {
      return v;
    }
    if (o instanceof CharSequence s) {
      return Value.of(s.toString());
    }
    if (o instanceof Character c) {
      return Value.of(c.toString());
    }
    if (o instanceof Boolean b) {
      return Value.of(b);
    }
    if (o instanceof Number n) {
      return number(n);
    }
    if (o instanceof Enum<?> e) {
      return Value.of(e.name());
    }
    if (o instanceof Instant t) {
      return Value.of(t);
    }
    if (o instanceof java.util.UUID u) {
      return Value.of(u);
    }
    if (o instanceof byte[] bytes) {
      return Value.of(bytes);
    }
    if (o instanceof Map<?, ?> m) {
      Map<String, Value> props = new LinkedHashMap<>();
      m.forEach((k, v) -> props.put(String.valueOf(k), orNull(toValue(v))));
      return new Value.Obj(props);
    }
    if (o instanceof Collection<?> c) {
      List<Value> elements = new ArrayList<>(c.size());
      c.forEach(e -> elements.add(orNull(toValue(e))));
      return new Value.Arr(elements);
    }
    if (o.getClass().isArray()) {
      List<Value> elements = new ArrayList<>();
      for (int i = 0; i < Array.getLength(o); i++) {
        elements.add(orNull(toValue(Array.get(o, i))));
      }
      return new Value.Arr(elements);
    }
    return toValue(Json.MAPPER.convertValue(o, Object.class));
  }

  private static Value orNull(Value v) {
    return v == null ? Value.nullValue() : v;
  }

  private static Value number(Number n) {
    if (n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte) {
      return Value.of(n.longValue());
    }
    if (n instanceof BigInteger big) {
      return big.bitLength() < 64 ? Value.of(big.longValue()) : Value.of(big.doubleValue());
    }
    double d = n instanceof BigDecimal dec ? dec.doubleValue() : n.doubleValue();
    if (Double.isFinite(d)
        && d == Math.rint(d)
        && Math.abs(d) <= EXACT_LIMIT
        && !(d == 0 && 1 / d < 0)) {
      return Value.of((long) d);
    }
    return Value.of(d);
  }

  /**
   * The plain Java form of a stored value: String, Long, Double, BigDecimal (a decimal, exactly),
   * Boolean, List, Map, or null. (A Java number is stored as an int64 or a double, as {@link
   * AttributeType#NUMBER} says; a decimal is stored only when given as a {@link Value.Decimal}.)
   */
  static Object toJava(Value v) {
    return switch (v.type()) {
      case STRING -> ((Value.Str) v).value();
      case BOOLEAN -> ((Value.Bool) v).value();
      case INT32 -> (long) ((Value.Int32) v).value();
      case INT64 -> ((Value.Int64) v).value();
      case DOUBLE -> ((Value.Double) v).value();
      case DECIMAL -> ((Value.Decimal) v).value();
      case DATETIME -> ((Value.DateTime) v).toInstant().toString();
      case GUID -> ((Value.Guid) v).value().toString();
      case BINARY -> Base64.getEncoder().encodeToString(((Value.Binary) v).value());
      case NULL -> null;
      case OBJECT -> {
        Map<String, Object> m = new LinkedHashMap<>();
        ((Value.Obj) v).properties().forEach((k, e) -> m.put(k, toJava(e)));
        yield m;
      }
      case ARRAY -> {
        List<Object> l = new ArrayList<>();
        ((Value.Arr) v).elements().forEach(e -> l.add(toJava(e)));
        yield l;
      }
    };
  }

  /**
   * A value's text in a key: {@link KeyText}'s rule, which the database follows when it renders a
   * view template placeholder (so keys the client computes match keys the database computes), or
   * null when the value has no key text (the item is then not in the index).
   */
  static String keyText(Value value, int width) {
    return KeyText.of(value, width);
  }
}
