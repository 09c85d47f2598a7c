package io.viewbase.server.azure;

import io.viewbase.api.Value;
import io.viewbase.filter.Filter;
import io.viewbase.filter.Filters;
import java.util.Map;
import java.util.Objects;

/**
 * The entities a service SAS may touch: from {@code (spk, srk)} to {@code (epk, erk)}, both ends
 * inclusive, ordered by partition key and then row key. A null bound is open.
 *
 * <p>The range is held as a parsed filter, and that filter is the one rule: a point read, a write
 * or a batch operation is inside when the filter matches its keys, and a query runs the client's
 * filter AND this one as two trees (never as joined text, which a filter such as {@code x) or (x}
 * could escape). Both use the filter language's string order, which is the engine's key order.
 */
final class KeyRange {
  static final KeyRange ALL = new KeyRange(null, null, null, null);

  private final String startPartitionKey;
  private final String startRowKey;
  private final String endPartitionKey;
  private final String endRowKey;

  /** Null when the range is unbounded. */
  private final Filter filter;

  KeyRange(String startPartitionKey, String startRowKey, String endPartitionKey, String endRowKey) {
    this.startPartitionKey = startPartitionKey;
    this.startRowKey = startPartitionKey == null ? null : startRowKey;
    this.endPartitionKey = endPartitionKey;
    this.endRowKey = endPartitionKey == null ? null : endRowKey;
    this.filter =
        Filters.and(
            bound(this.startPartitionKey, this.startRowKey, Filter.Op.GT, Filter.Op.GE),
            bound(this.endPartitionKey, this.endRowKey, Filter.Op.LT, Filter.Op.LE));
  }

  /**
   * One end: {@code PartitionKey ge pk} without a row key, else {@code PartitionKey gt pk or
   * (PartitionKey eq pk and RowKey ge rk)} (with lt and le for the end).
   */
  private static Filter bound(String pk, String rk, Filter.Op beyond, Filter.Op inclusive) {
    if (pk == null) {
      return null;
    }
    if (rk == null) {
      return new Filter.Compare("PartitionKey", inclusive, Value.of(pk));
    }
    return new Filter.Or(
        new Filter.Compare("PartitionKey", beyond, Value.of(pk)),
        new Filter.And(
            new Filter.Compare("PartitionKey", Filter.Op.EQ, Value.of(pk)),
            new Filter.Compare("RowKey", inclusive, Value.of(rk))));
  }

  boolean contains(String partitionKey, String rowKey) {
    return filter == null || Filters.matches(filter, partitionKey, rowKey, null, Map.of());
  }

  /** The range as a filter, or null when it is unbounded. */
  Filter asFilter() {
    return filter;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyRange r
        && Objects.equals(startPartitionKey, r.startPartitionKey)
        && Objects.equals(startRowKey, r.startRowKey)
        && Objects.equals(endPartitionKey, r.endPartitionKey)
        && Objects.equals(endRowKey, r.endRowKey);
  }

  @Override
  public int hashCode() {
    return Objects.hash(startPartitionKey, startRowKey, endPartitionKey, endRowKey);
  }

  @Override
  public String toString() {
    return filter == null ? "all keys" : Filters.print(filter);
  }
}
