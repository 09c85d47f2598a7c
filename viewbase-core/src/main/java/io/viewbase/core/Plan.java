package io.viewbase.core;

import io.viewbase.api.QueryPlan;
import java.util.List;

/**
 * How the executor answers one query: the planner's decision, executed by {@link QueryExecutor}.
 */
sealed interface Plan {
  QueryPlan describe();

  /** Reads nothing: the filter can never be true. */
  record Empty(QueryPlan description) implements Plan {
    @Override
    public QueryPlan describe() {
      return description;
    }
  }

  /**
   * Reads ordered segments of the source table, each a single partition with an id range, or a
   * range of partitions; segments are disjoint and sorted, so one position resumes them all.
   */
  record Keys(List<Segment> segments, boolean descending, QueryPlan description) implements Plan {
    @Override
    public QueryPlan describe() {
      return description;
    }
  }

  /**
   * Reads a ready view by lookup or id prefix and maps each entry back to its source item (or,
   * {@code covering}, answers from the view's copy).
   */
  record ViewRead(ViewHandle view, ViewKey key, boolean covering, QueryPlan description)
      implements Plan {
    @Override
    public QueryPlan describe() {
      return description;
    }
  }

  /**
   * The part of a view's key a filter fixes: the view partition, and its ids that are {@code
   * idPrefix} exactly ({@code exact}) or start with it.
   */
  record ViewKey(String partitionKey, String idPrefix, boolean exact) {}

  /**
   * A part of the key space: one partition ({@code partitionKey} non-null) with an id range, or
   * every partition in {@code partitionKeys} with the same id range.
   */
  record Segment(String partitionKey, KeySpace.Range partitionKeys, KeySpace.Range ids) {}
}
