package io.viewbase.server.dynamodb.expr;

import io.viewbase.api.Stability;
import io.viewbase.server.dynamodb.model.AttributeValue;
import io.viewbase.server.dynamodb.model.ItemSize;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a condition compares: an attribute at a path, a value from ExpressionAttributeValues (or a
 * legacy AttributeValueList), or {@code size(...)} of one of these.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public sealed interface Operand permits Operand.Attribute, Operand.Constant, Operand.Size {

  /** The operand's value in an item, or null when the item has none there. */
  AttributeValue evaluate(Map<String, AttributeValue> item);

  /** Adds the top-level attribute the operand reads, if it reads one. */
  default void collect(Set<String> attributes) {
    if (this instanceof Attribute a) {
      attributes.add(a.path().attribute());
    } else if (this instanceof Size s) {
      s.of().collect(attributes);
    }
  }

  /** The item's value at a path. */
  record Attribute(Path path) implements Operand {
    public Attribute {
      Objects.requireNonNull(path, "path");
    }

    @Override
    public AttributeValue evaluate(Map<String, AttributeValue> item) {
      return path.get(item).orElse(null);
    }
  }

  /** A value given in the request. */
  record Constant(AttributeValue value) implements Operand {
    public Constant {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public AttributeValue evaluate(Map<String, AttributeValue> item) {
      return value;
    }
  }

  /**
   * {@code size(x)}: a string's length in UTF-8 bytes, a binary's in bytes, the number of members
   * of a set, of elements of a list, of entries of a map. Numbers, booleans and nulls have no size:
   * the operand is then absent, and every comparison with it false.
   */
  record Size(Operand of) implements Operand {
    public Size {
      Objects.requireNonNull(of, "of");
    }

    @Override
    public AttributeValue evaluate(Map<String, AttributeValue> item) {
      AttributeValue v = of.evaluate(item);
      long size;
      if (v instanceof AttributeValue.S s) {
        size = ItemSize.utf8Length(s.value());
      } else if (v instanceof AttributeValue.B b) {
        size = b.length();
      } else if (v instanceof AttributeValue.SS ss) {
        size = ss.value().size();
      } else if (v instanceof AttributeValue.NS ns) {
        size = ns.value().size();
      } else if (v instanceof AttributeValue.BS bs) {
        size = bs.value().size();
      } else if (v instanceof AttributeValue.L l) {
        size = l.value().size();
      } else if (v instanceof AttributeValue.M m) {
        size = m.value().size();
      } else {
        return null;
      }
      return AttributeValue.N.of(size);
    }
  }
}
