package io.viewbase.server.dynamodb.expr;

import io.viewbase.api.Stability;
import io.viewbase.server.dynamodb.model.AttributeValue;
import io.viewbase.server.dynamodb.model.KeyOrder;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A parsed condition (ConditionExpression, FilterExpression, or a legacy Expected, QueryFilter or
 * ScanFilter), evaluated on an item as DynamoDB evaluates it.
 *
 * <pre>
 * condition            | true when
 * ---------------------+-------------------------------------------------------------------------
 * a = b                | both present, same type, equal (sets ignoring order, numbers by value)
 * a &lt;&gt; b               | not (a = b): so also when either is absent, or their types differ
 * a &lt; b, &lt;=, &gt;, &gt;=     | both present, both S, both N or both B, and ordered so (S and B by
 *                      |   unsigned bytes); any other pair is false, never an error
 * a BETWEEN b AND c    | b &lt;= a and a &lt;= c, all three of one ordered type
 * a IN (b, c, ...)     | a = b or a = c or ...
 * attribute_exists(p)  | the item has a value at p (attribute_not_exists: it has none)
 * attribute_type(p, t) | the value at p has type t (S, N, B, BOOL, NULL, M, L, SS, NS, BS)
 * begins_with(a, b)    | both S and a starts with b, or both B and a's bytes start with b's
 * contains(a, b)       | a S containing b S; a B containing b B's bytes; a set holding b of its
 *                      |   member type; a list holding an element equal to b
 * NOT, AND, OR         | as usual; an absent attribute makes only its own comparison false
 * </pre>
 *
 * An absent item is tested as an empty one: {@code attribute_not_exists(pk)} is true for it.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public sealed interface Condition
    permits Condition.Compare,
        Condition.Between,
        Condition.In,
        Condition.And,
        Condition.Or,
        Condition.Not,
        Condition.AttributeExists,
        Condition.AttributeNotExists,
        Condition.AttributeType,
        Condition.BeginsWith,
        Condition.Contains {

  /** Whether the item (never null; empty when absent) satisfies the condition. */
  boolean test(Map<String, AttributeValue> item);

  /**
   * The top-level attributes the condition reads, in the order it names them ({@code a.b[1]} reads
   * {@code a}): what a Query checks its filter against, since DynamoDB refuses a filter on the key
   * attributes it reads by.
   */
  default Set<String> attributes() {
    Set<String> names = new LinkedHashSet<>();
    collect(this, names);
    return names;
  }

  private static void collect(Condition c, Set<String> names) {
    if (c instanceof Compare x) {
      x.left().collect(names);
      x.right().collect(names);
    } else if (c instanceof Between x) {
      x.value().collect(names);
      x.low().collect(names);
      x.high().collect(names);
    } else if (c instanceof In x) {
      x.value().collect(names);
      x.candidates().forEach(o -> o.collect(names));
    } else if (c instanceof And x) {
      collect(x.left(), names);
      collect(x.right(), names);
    } else if (c instanceof Or x) {
      collect(x.left(), names);
      collect(x.right(), names);
    } else if (c instanceof Not x) {
      collect(x.inner(), names);
    } else if (c instanceof AttributeExists x) {
      names.add(x.path().attribute());
    } else if (c instanceof AttributeNotExists x) {
      names.add(x.path().attribute());
    } else if (c instanceof AttributeType x) {
      names.add(x.path().attribute());
    } else if (c instanceof BeginsWith x) {
      x.value().collect(names);
      x.prefix().collect(names);
    } else if (c instanceof Contains x) {
      x.container().collect(names);
      x.element().collect(names);
    }
  }

  /** The comparators of DynamoDB's expressions. */
  enum Comparator {
    EQ("="),
    NE("<>"),
    LT("<"),
    LE("<="),
    GT(">"),
    GE(">=");

    private final String symbol;

    Comparator(String symbol) {
      this.symbol = symbol;
    }

    /** The comparator as written in an expression. */
    public String symbol() {
      return symbol;
    }

    static Comparator of(String symbol) {
      for (Comparator c : values()) {
        if (c.symbol.equals(symbol)) {
          return c;
        }
      }
      throw new IllegalArgumentException(symbol);
    }

    /** The comparator for the operands swapped: {@code a < b} is {@code b > a}. */
    public Comparator swapped() {
      return switch (this) {
        case LT -> GT;
        case LE -> GE;
        case GT -> LT;
        case GE -> LE;
        default -> this;
      };
    }

    boolean holds(AttributeValue a, AttributeValue b) {
      if (this == EQ) {
        return a != null && a.equals(b);
      }
      if (this == NE) {
        return a == null || !a.equals(b);
      }
      if (a == null || b == null || !KeyOrder.comparable(a, b)) {
        return false;
      }
      int c = KeyOrder.compare(a, b);
      return switch (this) {
        case LT -> c < 0;
        case LE -> c <= 0;
        case GT -> c > 0;
        default -> c >= 0;
      };
    }
  }

  record Compare(Comparator comparator, Operand left, Operand right) implements Condition {
    public Compare {
      Objects.requireNonNull(comparator, "comparator");
      Objects.requireNonNull(left, "left");
      Objects.requireNonNull(right, "right");
    }

    @Override
    public boolean test(Map<String, AttributeValue> item) {
      return comparator.holds(left.evaluate(item), right.evaluate(item));
    }
  }

  record Between(Operand value, Operand low, Operand high) implements Condition {
    @Override
    public boolean test(Map<String, AttributeValue> item) {
      AttributeValue v = value.evaluate(item);
      return Comparator.GE.holds(v, low.evaluate(item))
          && Comparator.LE.holds(v, high.evaluate(item));
    }
  }

  record In(Operand value, List<Operand> candidates) implements Condition {
    public In {
      candidates = List.copyOf(candidates);
    }

    @Override
    public boolean test(Map<String, AttributeValue> item) {
      AttributeValue v = value.evaluate(item);
      if (v == null) {
        return false;
      }
      for (Operand candidate : candidates) {
        if (v.equals(candidate.evaluate(item))) {
          return true;
        }
      }
      return false;
    }
  }

  record And(Condition left, Condition right) implements Condition {
    @Override
    public boolean test(Map<String, AttributeValue> item) {
      return left.test(item) && right.test(item);
    }
  }

  record Or(Condition left, Condition right) implements Condition {
    @Override
    public boolean test(Map<String, AttributeValue> item) {
      return left.test(item) || right.test(item);
    }
  }

  record Not(Condition inner) implements Condition {
    @Override
    public boolean test(Map<String, AttributeValue> item) {
      return !inner.test(item);
    }
  }

  record AttributeExists(Path path) implements Condition {
    @Override
    public boolean test(Map<String, AttributeValue> item) {
      return path.get(item).isPresent();
    }
  }

  record AttributeNotExists(Path path) implements Condition {
    @Override
    public boolean test(Map<String, AttributeValue> item) {
      return path.get(item).isEmpty();
    }
  }

  /** {@code attribute_type(path, type)}, the type a descriptor such as "SS". */
  record AttributeType(Path path, String type) implements Condition {
    @Override
    public boolean test(Map<String, AttributeValue> item) {
      return path.get(item).map(v -> v.type().equals(type)).orElse(false);
    }
  }

  record BeginsWith(Operand value, Operand prefix) implements Condition {
    @Override
    public boolean test(Map<String, AttributeValue> item) {
      AttributeValue v = value.evaluate(item);
      AttributeValue p = prefix.evaluate(item);
      if (v instanceof AttributeValue.S s && p instanceof AttributeValue.S ps) {
        return s.value().startsWith(ps.value());
      }
      if (v instanceof AttributeValue.B b && p instanceof AttributeValue.B pb) {
        return b.startsWith(pb);
      }
      return false;
    }
  }

  record Contains(Operand container, Operand element) implements Condition {
    @Override
    public boolean test(Map<String, AttributeValue> item) {
      AttributeValue c = container.evaluate(item);
      AttributeValue e = element.evaluate(item);
      if (c == null || e == null) {
        return false;
      }
      if (c instanceof AttributeValue.S s && e instanceof AttributeValue.S es) {
        return s.value().contains(es.value());
      }
      if (c instanceof AttributeValue.B b && e instanceof AttributeValue.B eb) {
        return indexOf(b.value(), eb.value()) >= 0;
      }
      if (c instanceof AttributeValue.SS ss) {
        return e instanceof AttributeValue.S es && ss.value().contains(es.value());
      }
      if (c instanceof AttributeValue.NS ns) {
        return e instanceof AttributeValue.N en && ns.value().contains(en.value());
      }
      if (c instanceof AttributeValue.BS bs) {
        return e instanceof AttributeValue.B eb && bs.value().contains(eb);
      }
      if (c instanceof AttributeValue.L l) {
        return l.value().contains(e);
      }
      return false;
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
      outer:
      for (int i = 0; i + needle.length <= haystack.length; i++) {
        for (int j = 0; j < needle.length; j++) {
          if (haystack[i + j] != needle[j]) {
            continue outer;
          }
        }
        return i;
      }
      return -1;
    }
  }
}
