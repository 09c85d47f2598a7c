package io.viewbase.entity;

import io.viewbase.api.Stability;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One page of a collection query: the items found, grouped by entity name, and the cursor that
 * continues (null when every member is done).
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record CollectionPage(Map<String, List<Object>> byEntity, String cursor) {
  public CollectionPage {
    Map<String, List<Object>> copy = new LinkedHashMap<>();
    byEntity.forEach((k, v) -> copy.put(k, List.copyOf(v)));
    byEntity = Collections.unmodifiableMap(copy);
  }

  /** The items of one member entity, as its type. */
  @SuppressWarnings("unchecked")
  public <T> List<T> items(Entity<T> entity) {
    return (List<T>) byEntity.getOrDefault(entity.name(), List.of());
  }
}
