package io.viewbase.server.dynamodb;

import io.viewbase.api.Value;
import io.viewbase.server.dynamodb.model.AttributeValue;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * DynamoDB attribute values as Viewbase values, and back: one rule, so that an item written through
 * DynamoDB reads back exactly, and one written through the native API or the Azure dialect reads
 * through DynamoDB as the nearest DynamoDB value.
 *
 * <pre>
 * DynamoDB | stored as (Value)                   | a Value written elsewhere      | reads as
 * ---------+-------------------------------------+--------------------------------+---------
 * S        | Str                                 | Str, DateTime (ISO), Guid      | S
 * N        | Decimal                             | Int32, Int64, Double, Decimal  | N
 * B        | Binary                              | Binary                         | B
 * BOOL     | Bool                                | Bool                           | BOOL
 * NULL     | Null                                | Null                           | NULL
 * M        | Obj, names starting with '$' given  | Obj                            | M
 *          |   one more '$'                      |                                |
 * L        | Arr                                 | Arr                            | L
 * SS/NS/BS | Obj {"$SS"|"$NS"|"$BS": Arr}        |                                | the set
 * </pre>
 *
 * A map's names are escaped so that no map can be mistaken for a set: a map with the one name
 * {@code $SS} is stored as {@code {"$$SS": ...}}. A double that is not finite, or a decimal beyond
 * DynamoDB's range (written through another interface), reads as its text in an S.
 */
final class ItemValues {
  static final String STRING_SET = "$SS";
  static final String NUMBER_SET = "$NS";
  static final String BINARY_SET = "$BS";

  private ItemValues() {}

  /** The value as stored. */
  static Value toValue(AttributeValue v) {
    if (v instanceof AttributeValue.S s) {
      return new Value.Str(s.value());
    } else if (v instanceof AttributeValue.N n) {
      return new Value.Decimal(n.value());
    } else if (v instanceof AttributeValue.B b) {
      return new Value.Binary(b.value());
    } else if (v instanceof AttributeValue.Bool b) {
      return new Value.Bool(b.value());
    } else if (v instanceof AttributeValue.Null) {
      return Value.Null.INSTANCE;
    } else if (v instanceof AttributeValue.M m) {
      Map<String, Value> out = new LinkedHashMap<>();
      m.value().forEach((name, member) -> out.put(escape(name), toValue(member)));
      return new Value.Obj(out);
    } else if (v instanceof AttributeValue.L l) {
      List<Value> out = new ArrayList<>(l.value().size());
      l.value().forEach(member -> out.add(toValue(member)));
      return new Value.Arr(out);
    } else if (v instanceof AttributeValue.SS ss) {
      return set(STRING_SET, ss.value().stream().map(Value.Str::new));
    } else if (v instanceof AttributeValue.NS ns) {
      return set(NUMBER_SET, ns.value().stream().map(Value.Decimal::new));
    } else {
      return set(
          BINARY_SET,
          ((AttributeValue.BS) v).value().stream().map(b -> new Value.Binary(b.value())));
    }
  }

  private static Value set(String marker, Stream<? extends Value> members) {
    return new Value.Obj(Map.of(marker, new Value.Arr(members.map(m -> (Value) m).toList())));
  }

  /** The stored value as DynamoDB shows it. */
  static AttributeValue toAttribute(Value v) {
    switch (v.type()) {
      case STRING:
        return new AttributeValue.S(((Value.Str) v).value());
      case BOOLEAN:
        return ((Value.Bool) v).value() ? AttributeValue.Bool.TRUE : AttributeValue.Bool.FALSE;
      case NULL:
        return AttributeValue.Null.INSTANCE;
      case INT32:
        return AttributeValue.N.of(((Value.Int32) v).value());
      case INT64:
        return AttributeValue.N.of(((Value.Int64) v).value());
      case DOUBLE:
        double d = ((Value.Double) v).value();
        return Double.isFinite(d)
            ? number(BigDecimal.valueOf(d), Double.toString(d))
            : new AttributeValue.S(Double.toString(d));
      case DECIMAL:
        BigDecimal n = ((Value.Decimal) v).value();
        return number(n, n.toString());
      case DATETIME:
        return new AttributeValue.S(((Value.DateTime) v).toIsoString());
      case GUID:
        return new AttributeValue.S(((Value.Guid) v).value().toString());
      case BINARY:
        return new AttributeValue.B(((Value.Binary) v).value());
      case OBJECT:
        return fromObject(((Value.Obj) v).properties());
      case ARRAY:
      default:
        List<Value> elements = ((Value.Arr) v).elements();
        List<AttributeValue> out = new ArrayList<>(elements.size());
        elements.forEach(e -> out.add(toAttribute(e)));
        return new AttributeValue.L(out);
    }
  }

  private static AttributeValue number(BigDecimal n, String text) {
    try {
      return new AttributeValue.N(n);
    } catch (RuntimeException beyondDynamoDb) {
      return new AttributeValue.S(text);
    }
  }

  private static AttributeValue fromObject(Map<String, Value> properties) {
    if (properties.size() == 1) {
      var only = properties.entrySet().iterator().next();
      AttributeValue set = set(only.getKey(), only.getValue());
      if (set != null) {
        return set;
      }
    }
    Map<String, AttributeValue> out = new LinkedHashMap<>();
    properties.forEach((name, member) -> out.put(unescape(name), toAttribute(member)));
    return new AttributeValue.M(out);
  }

  /** The set a marker object holds, or null when it is no set (a map written elsewhere). */
  private static AttributeValue set(String marker, Value members) {
    if (!(members instanceof Value.Arr arr) || arr.elements().isEmpty()) {
      return null;
    }
    try {
      switch (marker) {
        case STRING_SET -> {
          Set<String> out = new LinkedHashSet<>();
          for (Value e : arr.elements()) {
            out.add(((Value.Str) e).value());
          }
          return new AttributeValue.SS(out);
        }
        case NUMBER_SET -> {
          Set<BigDecimal> out = new LinkedHashSet<>();
          for (Value e : arr.elements()) {
            out.add(((AttributeValue.N) toAttribute(e)).value());
          }
          return new AttributeValue.NS(out);
        }
        case BINARY_SET -> {
          Set<AttributeValue.B> out = new LinkedHashSet<>();
          for (Value e : arr.elements()) {
            out.add(new AttributeValue.B(((Value.Binary) e).value()));
          }
          return new AttributeValue.BS(out);
        }
        default -> {
          return null;
        }
      }
    } catch (ClassCastException | IllegalArgumentException notASet) {
      return null;
    }
  }

  /** A map member's name as stored: one more '$' before a name that starts with '$'. */
  static String escape(String name) {
    return name.startsWith("$") ? "$" + name : name;
  }

  static String unescape(String stored) {
    return stored.startsWith("$$") ? stored.substring(1) : stored;
  }
}
