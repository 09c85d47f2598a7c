package io.viewbase.entity;

import io.viewbase.api.Stability;
import java.util.List;

/**
 * One page of an index query.
 *
 * @param items the items, in key order (or reverse order for a descending query)
 * @param cursor pass it to the same query's {@code page(cursor)} for the next page; null when done
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record EntityPage<T>(List<T> items, String cursor) {
  public EntityPage {
    items = List.copyOf(items);
  }
}
