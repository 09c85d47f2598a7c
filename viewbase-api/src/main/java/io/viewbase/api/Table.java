package io.viewbase.api;

import java.util.Optional;

/**
 * A named set of items addressed by partition key and id.
 *
 * <p>Writes, by whether the item exists and by {@code ifMatch} (null = unconditional, {@code "*"} =
 * any version, otherwise an ETag):
 *
 * <pre>
 * operation     | absent                | present, ifMatch null/"*" | present, ifMatch = current | ifMatch stale
 * --------------+-----------------------+---------------------------+----------------------------+-------------------
 * insert        | stored                | 409 ItemAlreadyExists     | n/a                        | n/a
 * replace       | 404 ItemNotFound      | replaced                  | replaced                   | 412 PreconditionFailed
 * upsert        | stored                | replaced                  | n/a                        | n/a
 * merge         | 404 ItemNotFound      | properties merged         | properties merged          | 412 PreconditionFailed
 * upsertMerge   | stored                | properties merged         | n/a                        | n/a
 * delete        | 404 ItemNotFound      | deleted                   | deleted                    | 412 PreconditionFailed
 * </pre>
 *
 * A write that needs the item to exist fails with 404 when it is absent, whatever {@code ifMatch}
 * says (as Azure does). An {@code ifMatch} that is not an ETag this database issued matches no
 * version. Every write returns the stored
 * item with its new {@code etag} and {@code timestamp}; each is durable when it returns unless the
 * database was opened with {@code sync=false}.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public interface Table {
  String name();

  /** Point read: one storage lookup. */
  Optional<Item> get(String partitionKey, String id);

  /**
   * Point read, mapped: what {@code get(partitionKey, id).map(mapping::map)} returns, except that a
   * database that caches recent reads may keep the result beside the cached item and answer a
   * later read of the same, unchanged item with an equal mapping by that result, without decoding
   * the item or mapping it again. Never a result of a version older than the last acknowledged
   * write of the item.
   */
  default <T> Optional<T> get(String partitionKey, String id, ItemMapping<T> mapping) {
    return get(partitionKey, id).map(mapping::map);
  }

  Item insert(Item item);

  Item replace(Item item, String ifMatch);

  Item upsert(Item item);

  Item merge(Item item, String ifMatch);

  Item upsertMerge(Item item);

  void delete(String partitionKey, String id, String ifMatch);

  /** One page of a partition query or table scan. */
  Page query(Query query);

  /** Every item the query matches, page after page; close it. */
  ItemCursor cursor(Query query);

  /** How {@link #query} would answer this query, and why; reads no items. */
  default QueryPlan explain(Query query) {
    throw new ViewbaseException(ErrorCode.NotImplemented, "explain is not supported by this table");
  }
}
