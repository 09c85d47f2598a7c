package io.viewbase.entity;

import io.viewbase.api.Stability;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a patch or update changes: attributes to set and attributes to remove. Only these are sent;
 * the database re-derives every index from the whole stored item, so a change that gives only one
 * attribute of an index key still moves the item in that index.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class Changes {
  private final Map<String, Object> set = new LinkedHashMap<>();
  private final List<String> remove = new ArrayList<>();

  private Changes() {}

  public static Changes set(String attribute, Object value) {
    return new Changes().and(attribute, value);
  }

  public static Changes set(Map<String, ?> attributes) {
    Changes c = new Changes();
    c.set.putAll(attributes);
    return c;
  }

  public static Changes remove(String... attributes) {
    return new Changes().andRemove(attributes);
  }

  public Changes and(String attribute, Object value) {
    set.put(attribute, value);
    return this;
  }

  public Changes andRemove(String... attributes) {
    remove.addAll(List.of(attributes));
    return this;
  }

  Map<String, Object> sets() {
    return set;
  }

  List<String> removals() {
    return remove;
  }
}
