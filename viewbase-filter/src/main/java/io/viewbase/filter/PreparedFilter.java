package io.viewbase.filter;

import io.viewbase.api.Stability;
import io.viewbase.api.Value;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A filter made ready to test many items: each user property it names resolved to an index (its
 * place in {@link #properties()}), each system name to its {@link SystemProperty}, each string
 * literal encoded to UTF-8 once. A scan prepares its filter once and tests every entry with {@link
 * #matches(Row)}, where the {@link Row} reads the entry as it is stored: a string property is
 * compared as UTF-8 bytes in place ({@link Row#compareString}), never decoded into a {@code
 * String}.
 *
 * <p>This is the one evaluator: {@link Filters#matches} prepares a filter and tests a map. Logic is
 * two-valued: a comparison that cannot hold (a missing property) is false, so {@code not (Age eq
 * 3)} matches an item without {@code Age}. System names read the item's keys and timestamp, never a
 * user property of the same name. Comparisons follow {@link ValueOrder}.
 *
 * <p>Instances are immutable and safe to share between threads; a {@link Row} belongs to one.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class PreparedFilter {
  private final Node root;
  private final List<String> properties;
  private final boolean readsSystem;

  private PreparedFilter(Node root, List<String> properties, boolean readsSystem) {
    this.root = root;
    this.properties = properties;
    this.readsSystem = readsSystem;
  }

  /** Prepares {@code filter}; its size is bounded by the parser's limits. */
  public static PreparedFilter of(Filter filter) {
    Builder builder = new Builder();
    Node root = builder.node(Objects.requireNonNull(filter, "filter"));
    return new PreparedFilter(
        root, Collections.unmodifiableList(builder.properties), builder.readsSystem);
  }

  /**
   * The user properties the filter reads, without repeats, in order of first appearance: the index
   * of a name here is the index {@link Row#value} and {@link Row#compareString} are asked for.
   */
  public List<String> properties() {
    return properties;
  }

  /** Whether the filter reads a key or the timestamp, so a row must supply them. */
  public boolean readsSystem() {
    return readsSystem;
  }

  /** Whether the row's item matches. */
  public boolean matches(Row row) {
    return root.test(row);
  }

  /**
   * Whether an item given as a map matches: {@link Filters#matches}' contract ({@code
   * partitionKey}, {@code id}, {@code timestamp} may each be null, which counts as missing).
   */
  public boolean matches(
      String partitionKey, String id, Instant timestamp, Map<String, Value> properties) {
    return root.test(new MapRow(partitionKey, id, timestamp, properties, this.properties));
  }

  /**
   * One item as a filter reads it. The system accessors are called only when {@link #readsSystem()}
   * is true.
   */
  public interface Row {
    /** What {@link #compareString} returns when the property is absent or not a string. */
    int NOT_A_STRING = Integer.MIN_VALUE;

    /** The partition key, or null when the item has none to compare. */
    String partitionKey();

    /** The id, or null. */
    String id();

    /** The time of the last write, or null. */
    Instant timestamp();

    /**
     * The value of user property {@code index} of {@link #properties()}, or null (or {@link
     * Value.Null}) when the item has none.
     */
    Value value(int index);

    /**
     * The order of user property {@code index}'s value against a string literal's UTF-8 bytes, when
     * that value is a string: -1, 0 or 1, as {@link Filters#compareUtf8} decides it on the stored
     * bytes; {@link #NOT_A_STRING} otherwise, after which the filter reads {@link #value}. A row
     * that holds decoded values keeps this default.
     */
    default int compareString(int index, byte[] literalUtf8) {
      return NOT_A_STRING;
    }
  }

  /** A node of the prepared tree: the filter's own shape, names resolved. */
  private interface Node {
    boolean test(Row row);
  }

  private record And(Node left, Node right) implements Node {
    @Override
    public boolean test(Row row) {
      return left.test(row) && right.test(row);
    }
  }

  private record Or(Node left, Node right) implements Node {
    @Override
    public boolean test(Row row) {
      return left.test(row) || right.test(row);
    }
  }

  private record Not(Node inner) implements Node {
    @Override
    public boolean test(Row row) {
      return !inner.test(row);
    }
  }

  private record Constant(boolean value) implements Node {
    @Override
    public boolean test(Row row) {
      return value;
    }
  }

  /** A user property against a literal; a string literal is also held as UTF-8 bytes. */
  private record Compare(int index, Filter.Op op, Value literal, byte[] utf8) implements Node {
    @Override
    public boolean test(Row row) {
      if (utf8 != null) {
        int order = row.compareString(index, utf8);
        if (order != Row.NOT_A_STRING) {
          return ValueOrder.holds(op, order);
        }
      }
      return ValueOrder.test(row.value(index), op, literal);
    }
  }

  private record SystemCompare(SystemProperty property, Filter.Op op, Value literal)
      implements Node {
    @Override
    public boolean test(Row row) {
      return ValueOrder.test(systemValue(property, row), op, literal);
    }
  }

  private record Bool(int index) implements Node {
    @Override
    public boolean test(Row row) {
      return row.value(index) instanceof Value.Bool b && b.value();
    }
  }

  /** A bare system name: never a boolean, so never true. */
  private record SystemBool(SystemProperty property) implements Node {
    @Override
    public boolean test(Row row) {
      return systemValue(property, row) instanceof Value.Bool b && b.value();
    }
  }

  private static Value systemValue(SystemProperty property, Row row) {
    return switch (property) {
      case PARTITION_KEY -> row.partitionKey() == null ? null : new Value.Str(row.partitionKey());
      case ID -> row.id() == null ? null : new Value.Str(row.id());
      case TIMESTAMP -> row.timestamp() == null ? null : Value.DateTime.of(row.timestamp());
    };
  }

  /** Builds the tree, numbering user names as they first appear. */
  private static final class Builder {
    private final List<String> properties = new ArrayList<>();
    private final Map<String, Integer> indexes = new HashMap<>();
    private boolean readsSystem;

    Node node(Filter filter) {
      if (filter instanceof Filter.And and) {
        return new And(node(and.left()), node(and.right()));
      }
      if (filter instanceof Filter.Or or) {
        return new Or(node(or.left()), node(or.right()));
      }
      if (filter instanceof Filter.Not not) {
        return new Not(node(not.inner()));
      }
      if (filter instanceof Filter.Compare compare) {
        SystemProperty system = system(compare.property());
        if (system != null) {
          return new SystemCompare(system, compare.op(), compare.literal());
        }
        byte[] utf8 = compare.literal() instanceof Value.Str s ? wellFormedUtf8(s.value()) : null;
        return new Compare(index(compare.property()), compare.op(), compare.literal(), utf8);
      }
      if (filter instanceof Filter.BoolProperty bool) {
        SystemProperty system = system(bool.property());
        return system != null ? new SystemBool(system) : new Bool(index(bool.property()));
      }
      return new Constant(((Filter.Constant) filter).value());
    }

    /**
     * The UTF-8 bytes of a literal, or null when it holds an unpaired surrogate: UTF-8 has no bytes
     * for one (the encoder writes '?'), so such a literal is compared as a {@code String}.
     */
    private static byte[] wellFormedUtf8(String literal) {
      byte[] utf8 = literal.getBytes(StandardCharsets.UTF_8);
      return new String(utf8, StandardCharsets.UTF_8).equals(literal) ? utf8 : null;
    }

    private SystemProperty system(String name) {
      SystemProperty system = Filters.system(name).orElse(null);
      readsSystem |= system != null;
      return system;
    }

    private int index(String name) {
      return indexes.computeIfAbsent(
          name,
          n -> {
            properties.add(n);
            return properties.size() - 1;
          });
    }
  }

  /** A row of decoded values: a map, read by the prepared names. */
  private record MapRow(
      String partitionKey,
      String id,
      Instant timestamp,
      Map<String, Value> properties,
      List<String> names)
      implements Row {
    @Override
    public Value value(int index) {
      return properties == null ? null : properties.get(names.get(index));
    }
  }
}
