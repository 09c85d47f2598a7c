package io.viewbase.api;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.function.Supplier;

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
 * version. Every write returns the stored item with its new {@code etag} and {@code timestamp};
 * each is durable when it returns unless the database was opened with {@code sync=false}.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public interface Table {
  String name();

  /** Point read: one storage lookup. */
  Optional<Item> get(String partitionKey, String id);

  /**
   * Point read, mapped: what {@code get(partitionKey, id).map(mapping::map)} returns, except that a
   * database that caches recent reads may keep the result beside the cached item and answer a later
   * read of the same, unchanged item with an equal mapping by that result, without decoding the
   * item or mapping it again. Never a result of a version older than the last acknowledged write of
   * the item.
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

  /**
   * Asynchronous writes: each does what its blocking namesake does and completes the future with
   * its result, or exceptionally with the {@link ViewbaseException} it would have thrown. The
   * embedded database returns at once: a write that needs no read (insert, replace, upsert and
   * delete on a table without views) goes straight to the store's commit queue, and the future
   * completes on the store's committing thread once the write is durable, so dependent actions must
   * not block there (hand them to an executor with the {@code ...Async} stages of {@link
   * CompletableFuture}); other writes run on the database's writer threads. Writes in flight
   * together may land in any order: wait for one before starting another that must follow it. The
   * defaults here write on the calling thread.
   */
  default CompletableFuture<Item> insertAsync(Item item) {
    return completed(() -> insert(item));
  }

  /** {@link #replace}, asynchronously: see {@link #insertAsync}. */
  default CompletableFuture<Item> replaceAsync(Item item, String ifMatch) {
    return completed(() -> replace(item, ifMatch));
  }

  /** {@link #upsert}, asynchronously: see {@link #insertAsync}. */
  default CompletableFuture<Item> upsertAsync(Item item) {
    return completed(() -> upsert(item));
  }

  /** {@link #merge}, asynchronously: see {@link #insertAsync}. */
  default CompletableFuture<Item> mergeAsync(Item item, String ifMatch) {
    return completed(() -> merge(item, ifMatch));
  }

  /** {@link #upsertMerge}, asynchronously: see {@link #insertAsync}. */
  default CompletableFuture<Item> upsertMergeAsync(Item item) {
    return completed(() -> upsertMerge(item));
  }

  /** {@link #delete}, asynchronously: see {@link #insertAsync}. */
  default CompletableFuture<Void> deleteAsync(String partitionKey, String id, String ifMatch) {
    return completed(
        () -> {
          delete(partitionKey, id, ifMatch);
          return null;
        });
  }

  /** Runs {@code write} on the calling thread; its outcome as a completed future. */
  private static <T> CompletableFuture<T> completed(Supplier<T> write) {
    try {
      return CompletableFuture.completedFuture(write.get());
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** One page of a partition query or table scan. */
  Page query(Query query);

  /** Every item the query matches, page after page; close it. */
  ItemCursor cursor(Query query);

  /** How {@link #query} would answer this query, and why; reads no items. */
  default QueryPlan explain(Query query) {
    throw new ViewbaseException(ErrorCode.NotImplemented, "explain is not supported by this table");
  }

  /**
   * The entries of this table's change feed after sequence number {@code after}, oldest first: at
   * most {@code limit} (1 to {@link ChangePage#MAX_LIMIT}). When there are none yet, waits up to
   * {@code wait} for the first to commit (long-polling; {@link Duration#ZERO}: answers at once).
   *
   * @throws ViewbaseException {@link ErrorCode#ChangeFeedDisabled} if the table keeps no feed;
   *     {@link ErrorCode#ChangesExpired} if entries after {@code after} have already been dropped
   *     by the feed's retention (its context names {@code oldest}); {@link ErrorCode#InvalidInput}
   *     for a negative position, a limit out of range or a wait over {@link #MAX_CHANGES_WAIT}
   */
  default ChangePage changes(long after, int limit, Duration wait) {
    throw new ViewbaseException(
        ErrorCode.NotImplemented, "Change feeds are not supported by this database");
  }

  /** The longest a {@link #changes} call may wait for an entry. */
  Duration MAX_CHANGES_WAIT = Duration.ofSeconds(60);

  /** {@link #changes(long, int, Duration)} without waiting. */
  default ChangePage changes(long after, int limit) {
    return changes(after, limit, Duration.ZERO);
  }

  /**
   * Follows the change feed from after sequence {@code after}: each subscriber receives every later
   * entry once, in order, as it commits, at the pace it requests ({@link
   * Flow.Subscription#request}; nothing is read ahead of demand beyond one page). The subscription
   * ends with {@code onError} if the feed fails (a {@link ViewbaseException}: {@link
   * ErrorCode#ChangesExpired} when the subscriber fell behind the feed's retention), and never
   * completes on its own: cancel it. Each subscription reads on a thread of its own.
   */
  default Flow.Publisher<Change> follow(long after) {
    return new ChangeFollower(this, after);
  }
}
