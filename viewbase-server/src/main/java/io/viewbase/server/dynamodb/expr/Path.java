package io.viewbase.server.dynamodb.expr;

import io.viewbase.api.Stability;
import io.viewbase.server.dynamodb.model.AttributeValue;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A document path: a top-level attribute name followed by map keys and list indexes, as in {@code
 * a.b[2].c}. Names are final (placeholders already substituted), so {@code #n} naming {@code "x.y"}
 * is one name with a dot in it, not two.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record Path(List<Element> elements) {
  /** One step of a path. */
  public sealed interface Element permits Name, Index {}

  /** A map key (or, first, the attribute name). */
  public record Name(String name) implements Element {
    public Name {
      Objects.requireNonNull(name, "name");
    }
  }

  /** A list index. */
  public record Index(int index) implements Element {
    public Index {
      if (index < 0) {
        throw new IllegalArgumentException("A list index is not negative");
      }
    }
  }

  public Path {
    elements = List.copyOf(elements);
    if (elements.isEmpty() || !(elements.get(0) instanceof Name)) {
      throw new IllegalArgumentException("A path begins with an attribute name");
    }
  }

  /** A path of the top-level attribute {@code name}. */
  public static Path attribute(String name) {
    return new Path(List.of(new Name(name)));
  }

  /** The top-level attribute the path starts at. */
  public String attribute() {
    return ((Name) elements.get(0)).name();
  }

  /** Whether the path names a top-level attribute only. */
  public boolean isTopLevel() {
    return elements.size() == 1;
  }

  /** The value at this path in an item, if every step exists and has the right type. */
  public Optional<AttributeValue> get(Map<String, AttributeValue> item) {
    AttributeValue current = item.get(attribute());
    for (int i = 1; i < elements.size() && current != null; i++) {
      current = step(current, elements.get(i));
    }
    return Optional.ofNullable(current);
  }

  /** The child of a value one step down, or null. */
  static AttributeValue step(AttributeValue value, Element element) {
    if (element instanceof Name name) {
      return value instanceof AttributeValue.M m ? m.value().get(name.name()) : null;
    }
    int index = ((Index) element).index();
    return value instanceof AttributeValue.L l && index < l.value().size()
        ? l.value().get(index)
        : null;
  }

  /** The path as DynamoDB prints it in messages: {@code [a, b, [2]]}. */
  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("[");
    for (int i = 0; i < elements.size(); i++) {
      if (i > 0) {
        s.append(", ");
      }
      Element e = elements.get(i);
      s.append(e instanceof Name n ? n.name() : "[" + ((Index) e).index() + "]");
    }
    return s.append(']').toString();
  }
}
