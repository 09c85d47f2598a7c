package io.viewbase.server.dynamodb.expr;

import io.viewbase.api.Stability;
import io.viewbase.server.dynamodb.model.AttributeValue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A parsed ProjectionExpression (or legacy AttributesToGet): the paths of an item to return.
 *
 * <p>The projected item keeps only the projected parts, in their documents' shape, as DynamoDB
 * builds it: {@code a.b} of {@code {a: {b: 1, c: 2}}} is {@code {a: {b: 1}}}; list elements are
 * kept in index order and close up ({@code l[1], l[3]} of a five-element list is a two-element
 * list). A path that reaches no value contributes nothing.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class Projection {
  private final List<Path> paths;

  public Projection(List<Path> paths) {
    this.paths = List.copyOf(paths);
  }

  /** The paths, in the expression's order. */
  public List<Path> paths() {
    return paths;
  }

  /** The top-level attributes the projection reads (for a key-only or index projection check). */
  public List<String> attributes() {
    return paths.stream().map(Path::attribute).distinct().toList();
  }

  /** The projected item; an empty map when no path reaches a value. */
  public Map<String, AttributeValue> apply(Map<String, AttributeValue> item) {
    // A tree of what to keep: maps (LinkedHashMap) for names, sorted maps for list indexes; a
    // leaf is the value itself.
    Map<String, Object> kept = new LinkedHashMap<>();
    for (Path path : paths) {
      AttributeValue value = path.get(item).orElse(null);
      if (value == null) {
        continue;
      }
      Object node = kept;
      List<Path.Element> steps = path.elements();
      for (int i = 0; i < steps.size(); i++) {
        Object key =
            steps.get(i) instanceof Path.Name n ? n.name() : ((Path.Index) steps.get(i)).index();
        @SuppressWarnings("unchecked")
        Map<Object, Object> children = (Map<Object, Object>) node;
        if (i == steps.size() - 1) {
          children.put(key, value);
        } else {
          Object child = children.get(key);
          if (!(child instanceof Map)) {
            // Paths do not overlap, so no leaf stands where a parent must go.
            child = steps.get(i + 1) instanceof Path.Name ? new LinkedHashMap<>() : new TreeMap<>();
            children.put(key, child);
          }
          node = child;
        }
      }
    }
    Map<String, AttributeValue> result = new LinkedHashMap<>();
    kept.forEach((name, node) -> result.put(name, build(node)));
    return Collections.unmodifiableMap(result);
  }

  private static AttributeValue build(Object node) {
    if (node instanceof AttributeValue v) {
      return v;
    }
    if (node instanceof TreeMap<?, ?> elements) {
      List<AttributeValue> list = new ArrayList<>(elements.size());
      elements.values().forEach(child -> list.add(build(child)));
      return new AttributeValue.L(list);
    }
    Map<String, AttributeValue> map = new LinkedHashMap<>();
    ((Map<?, ?>) node).forEach((name, child) -> map.put((String) name, build(child)));
    return new AttributeValue.M(map);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Projection other && paths.equals(other.paths);
  }

  @Override
  public int hashCode() {
    return paths.hashCode();
  }

  @Override
  public String toString() {
    return "Projection" + paths;
  }
}
