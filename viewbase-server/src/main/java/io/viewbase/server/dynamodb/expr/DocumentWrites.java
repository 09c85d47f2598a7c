package io.viewbase.server.dynamodb.expr;

import io.viewbase.server.dynamodb.model.AttributeValue;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes into documents by path, copying each map and list on the way down (values are immutable),
 * with DynamoDB's rules for parents that are missing or of the wrong type: a write below one is
 * refused ("The document path provided in the update expression is invalid for update"), a removal
 * of an absent last step is no error.
 */
final class DocumentWrites {
  private DocumentWrites() {}

  /** Writes a value at a path, the parents of which must exist. */
  static void setAt(Map<String, AttributeValue> item, Path path, AttributeValue value) {
    String top = path.attribute();
    if (path.isTopLevel()) {
      item.put(top, value);
      return;
    }
    AttributeValue root = item.get(top);
    if (root == null) {
      throw Update.invalid(Update.INVALID_PATH);
    }
    item.put(top, setIn(root, path.elements(), 1, value));
  }

  private static AttributeValue setIn(
      AttributeValue current, List<Path.Element> steps, int i, AttributeValue value) {
    Path.Element step = steps.get(i);
    boolean last = i == steps.size() - 1;
    if (step instanceof Path.Name name) {
      if (!(current instanceof AttributeValue.M m)) {
        throw Update.invalid(Update.INVALID_PATH);
      }
      Map<String, AttributeValue> copy = new LinkedHashMap<>(m.value());
      if (last) {
        copy.put(name.name(), value);
      } else {
        AttributeValue child = copy.get(name.name());
        if (child == null) {
          throw Update.invalid(Update.INVALID_PATH);
        }
        copy.put(name.name(), setIn(child, steps, i + 1, value));
      }
      return new AttributeValue.M(copy);
    }
    int index = ((Path.Index) step).index();
    if (!(current instanceof AttributeValue.L l)) {
      throw Update.invalid(Update.INVALID_PATH);
    }
    List<AttributeValue> copy = new ArrayList<>(l.value());
    if (last) {
      if (index < copy.size()) {
        copy.set(index, value);
      } else {
        copy.add(value);
      }
    } else {
      if (index >= copy.size()) {
        throw Update.invalid(Update.INVALID_PATH);
      }
      copy.set(index, setIn(copy.get(index), steps, i + 1, value));
    }
    return new AttributeValue.L(copy);
  }

  /** Removes the value at a path; an absent last step is no error, an absent parent is. */
  static void removeAt(Map<String, AttributeValue> item, Path path, boolean itemExists) {
    String top = path.attribute();
    if (path.isTopLevel()) {
      item.remove(top);
      return;
    }
    if (!itemExists) {
      return;
    }
    AttributeValue root = item.get(top);
    if (root == null) {
      throw Update.invalid(Update.INVALID_PATH);
    }
    item.put(top, removeIn(root, path.elements(), 1));
  }

  private static AttributeValue removeIn(AttributeValue current, List<Path.Element> steps, int i) {
    Path.Element step = steps.get(i);
    boolean last = i == steps.size() - 1;
    if (step instanceof Path.Name name) {
      if (!(current instanceof AttributeValue.M m)) {
        throw Update.invalid(Update.INVALID_PATH);
      }
      AttributeValue child = m.value().get(name.name());
      if (child == null) {
        if (last) {
          return current;
        }
        throw Update.invalid(Update.INVALID_PATH);
      }
      Map<String, AttributeValue> copy = new LinkedHashMap<>(m.value());
      if (last) {
        copy.remove(name.name());
      } else {
        copy.put(name.name(), removeIn(child, steps, i + 1));
      }
      return new AttributeValue.M(copy);
    }
    int index = ((Path.Index) step).index();
    if (!(current instanceof AttributeValue.L l)) {
      throw Update.invalid(Update.INVALID_PATH);
    }
    if (index >= l.value().size()) {
      if (last) {
        return current;
      }
      throw Update.invalid(Update.INVALID_PATH);
    }
    List<AttributeValue> copy = new ArrayList<>(l.value());
    if (last) {
      copy.remove(index);
    } else {
      copy.set(index, removeIn(copy.get(index), steps, i + 1));
    }
    return new AttributeValue.L(copy);
  }

  /**
   * A total order of paths: names by their text, indexes by number (descending when asked), a name
   * before an index.
   */
  static Comparator<Path> pathOrder(boolean indexesDescending) {
    return (a, b) -> {
      List<Path.Element> x = a.elements();
      List<Path.Element> y = b.elements();
      for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
        Path.Element p = x.get(i);
        Path.Element q = y.get(i);
        int c;
        if (p instanceof Path.Name n && q instanceof Path.Name m) {
          c = n.name().compareTo(m.name());
        } else if (p instanceof Path.Index n && q instanceof Path.Index m) {
          c =
              indexesDescending
                  ? Integer.compare(m.index(), n.index())
                  : Integer.compare(n.index(), m.index());
        } else {
          c = p instanceof Path.Name ? -1 : 1;
        }
        if (c != 0) {
          return c;
        }
      }
      return Integer.compare(x.size(), y.size());
    };
  }

  /** A value's nesting: 1 for a scalar or a set, one more per map or list around it. */
  static int depth(AttributeValue value) {
    int deepest = 0;
    if (value instanceof AttributeValue.M m) {
      for (AttributeValue v : m.value().values()) {
        deepest = Math.max(deepest, depth(v));
      }
    } else if (value instanceof AttributeValue.L l) {
      for (AttributeValue v : l.value()) {
        deepest = Math.max(deepest, depth(v));
      }
    }
    return 1 + deepest;
  }
}
