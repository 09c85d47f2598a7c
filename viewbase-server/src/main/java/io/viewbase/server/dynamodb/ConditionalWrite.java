package io.viewbase.server.dynamodb;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Table;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.dynamodb.model.AttributeValue;
import java.util.Map;
import java.util.Optional;

/**
 * A write of one item that depends on the item as it is — a condition, an update expression, old
 * values to return — made atomic by optimistic concurrency: read the item, decide, and write on the
 * condition that the item is still what was read (its ETag, or its absence); if another writer got
 * there first, read again and decide again. A write that depends on nothing skips the read.
 *
 * <pre>
 * the item read | the decision        | written as
 * --------------+---------------------+---------------------------------------------------
 * absent        | put (the new item)  | insert: fails if another writer created it
 * present       | put                 | replace at the read ETag
 * present       | delete              | delete at the read ETag
 * absent        | delete, or nothing  | nothing (DynamoDB's delete of an absent item succeeds)
 * </pre>
 *
 * A lost race is {@code ItemAlreadyExists}, {@code PreconditionFailed} or {@code ItemNotFound} from
 * the engine; each sends the write round again, at most {@link #ROUNDS} times, then answers {@code
 * WriteConflict} (a retry-now error).
 */
final class ConditionalWrite {
  static final int ROUNDS = 100;

  /** What to do with the item, given it as it is (null when absent). */
  interface Decision {
    /**
     * The item to store, or null to delete it (or leave it absent).
     *
     * @throws ViewbaseException ConditionalCheckFailed when the request's condition fails
     */
    Map<String, AttributeValue> decide(Map<String, AttributeValue> current);
  }

  /** The outcome: the item before the write (null if absent) and after it (null if none). */
  record Outcome(Map<String, AttributeValue> before, Map<String, AttributeValue> after) {}

  private ConditionalWrite() {}

  /** Runs the decision against the current item until it writes without a race. */
  static Outcome run(
      DynamoDbTable table, Table items, Map<String, AttributeValue> key, Decision d) {
    DynamoDbKeys.Identity identity = DynamoDbKeys.identity(table, key);
    String pk = identity.partitionKey();
    String id = identity.id();
    for (int round = 0; round < ROUNDS; round++) {
      Optional<Item> read = items.get(pk, id);
      Map<String, AttributeValue> before = read.map(StoredItems::fromItem).orElse(null);
      Map<String, AttributeValue> after = d.decide(before);
      try {
        if (after != null) {
          StoredItems.checkItem(table, after);
          Item next = StoredItems.toItem(table, after);
          if (read.isPresent()) {
            items.replace(next, read.get().etag());
          } else {
            items.insert(next);
          }
        } else if (read.isPresent()) {
          items.delete(pk, id, read.get().etag());
        }
        return new Outcome(before, after);
      } catch (ViewbaseException e) {
        if (!lostRace(e)) {
          throw e;
        }
      }
    }
    throw ViewbaseException.of(
        ErrorCode.WriteConflict,
        "The item changed under " + ROUNDS + " attempts to write it; try again");
  }

  /** Whether the engine refused the write because the item changed since it was read. */
  static boolean lostRace(ViewbaseException e) {
    return e.code() == ErrorCode.ItemAlreadyExists
        || e.code() == ErrorCode.PreconditionFailed
        || e.code() == ErrorCode.ItemNotFound;
  }
}
