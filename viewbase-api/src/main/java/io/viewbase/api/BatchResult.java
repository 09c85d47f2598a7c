package io.viewbase.api;

import java.util.List;

/**
 * What a committed batch wrote: for each operation in order, the stored item with its new ETag, or
 * null for delete and check.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record BatchResult(List<Item> items) {
  public BatchResult {
    items = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(items));
  }
}
