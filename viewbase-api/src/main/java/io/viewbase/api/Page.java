package io.viewbase.api;

import java.util.List;

/**
 * One page of a query: at most the query's limit of items, and the token that continues after the
 * last of them (null when the query is complete). A page holds no native resources.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record Page(List<Item> items, String continuation) {
  public Page {
    items = List.copyOf(items);
  }

  public boolean hasMore() {
    return continuation != null;
  }
}
