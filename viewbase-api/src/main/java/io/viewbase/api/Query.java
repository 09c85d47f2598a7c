package io.viewbase.api;

import java.util.List;

/**
 * A read of many items of one table or view: one partition (optionally an id range or prefix), or,
 * with no partition key, the whole table. Pages never exceed {@link Limits#maxPageSize()}.
 *
 * @param partitionKey the partition to read, or null to read across partitions (a scan)
 * @param from lowest id, inclusive (null: from the start)
 * @param to highest id, exclusive (null: to the end)
 * @param prefix only ids starting with this text (null: all)
 * @param descending read ids from highest to lowest (partition queries only)
 * @param select properties to return (null or empty: all)
 * @param filter an OData $filter expression (null: none)
 * @param limit largest page wanted, 1..1000
 * @param continuation the token returned with the previous page, or null for the first
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record Query(
    String partitionKey,
    String from,
    String to,
    String prefix,
    boolean descending,
    List<String> select,
    String filter,
    int limit,
    String continuation) {

  public static final int DEFAULT_LIMIT = 1000;

  public Query {
    select = select == null ? List.of() : List.copyOf(select);
  }

  /** All items of one partition, ascending by id. */
  public static Query partition(String partitionKey) {
    return new Query(partitionKey, null, null, null, false, List.of(), null, DEFAULT_LIMIT, null);
  }

  /** All items of the table, across partitions. */
  public static Query all() {
    return new Query(null, null, null, null, false, List.of(), null, DEFAULT_LIMIT, null);
  }

  public Query withRange(String fromInclusive, String toExclusive) {
    return new Query(
        partitionKey,
        fromInclusive,
        toExclusive,
        prefix,
        descending,
        select,
        filter,
        limit,
        continuation);
  }

  public Query withPrefix(String idPrefix) {
    return new Query(
        partitionKey, from, to, idPrefix, descending, select, filter, limit, continuation);
  }

  public Query descending(boolean desc) {
    return new Query(partitionKey, from, to, prefix, desc, select, filter, limit, continuation);
  }

  public Query withSelect(List<String> properties) {
    return new Query(
        partitionKey, from, to, prefix, descending, properties, filter, limit, continuation);
  }

  public Query withFilter(String odataFilter) {
    return new Query(
        partitionKey, from, to, prefix, descending, select, odataFilter, limit, continuation);
  }

  public Query withLimit(int pageSize) {
    return new Query(
        partitionKey, from, to, prefix, descending, select, filter, pageSize, continuation);
  }

  public Query withContinuation(String token) {
    return new Query(partitionKey, from, to, prefix, descending, select, filter, limit, token);
  }
}
