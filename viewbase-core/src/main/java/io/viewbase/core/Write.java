package io.viewbase.core;

import io.viewbase.api.Batch;
import io.viewbase.api.Item;
import io.viewbase.storage.spi.Condition;

/**
 * One write operation, checked and encoded: what every single write and every operation of a batch
 * becomes before {@link WritePipeline} decides and commits it.
 *
 * <p>{@code expected} is the operation's rule as a storage condition on its item, which is what
 * makes a write with no read possible and gives every refusal its error in one place ({@link
 * WritePipeline}):
 *
 * <pre>
 * kind         | ifMatch absent | ifMatch "*" | ifMatch an ETag | after the write
 * -------------+----------------+-------------+-----------------+---------------------------------
 * INSERT       | ABSENT         | (refused)   | (refused)       | the item
 * REPLACE      | EXISTS         | EXISTS      | VERSION v       | the item
 * UPSERT       | NONE           | (refused)   | (refused)       | the item
 * MERGE        | EXISTS         | EXISTS      | VERSION v       | the stored item, the item's properties merged in
 * UPSERT_MERGE | NONE           | (refused)   | (refused)       | as MERGE if present, else the item
 * DELETE       | EXISTS         | EXISTS      | VERSION v       | nothing
 * CHECK        | ABSENT         | EXISTS      | VERSION v       | unchanged (writes nothing)
 * </pre>
 *
 * "(refused)": a batch refuses an ifMatch there (400 InvalidInput); the {@code Table} methods take
 * none. An ETag this database could never have issued expects version -1, which no item has.
 *
 * @param kind what the operation does
 * @param table the table it writes (a table, never a view)
 * @param item its identity and, but for DELETE and CHECK, the properties it writes
 * @param value {@code item}'s properties encoded (null for DELETE and CHECK)
 * @param expected what the item must be for the operation to apply
 * @param expiry whether the write is the removal of an item whose time-to-live ran out (a DELETE
 *     expecting the expired version), which the change feed records as such
 */
record Write(
    Batch.Kind kind,
    TableEntry table,
    Item item,
    byte[] value,
    Condition expected,
    boolean expiry) {
  /** Whether the operation stores an item (every kind but DELETE and CHECK). */
  boolean storesItem() {
    return storesItem(kind);
  }

  static boolean storesItem(Batch.Kind kind) {
    return kind != Batch.Kind.DELETE && kind != Batch.Kind.CHECK;
  }

  /** Whether the item after the write depends on its properties before. */
  boolean merges() {
    return kind == Batch.Kind.MERGE || kind == Batch.Kind.UPSERT_MERGE;
  }

  /** The condition {@code ifMatch} sets for {@code kind}, by the table above. */
  static Condition expectation(Batch.Kind kind, String ifMatch) {
    return switch (kind) {
      case INSERT -> Condition.ABSENT;
      case UPSERT, UPSERT_MERGE -> Condition.NONE;
      case REPLACE, MERGE, DELETE ->
          ifMatch == null || isAny(ifMatch) ? Condition.EXISTS : atVersion(ifMatch);
      case CHECK ->
          ifMatch == null
              ? Condition.ABSENT
              : isAny(ifMatch) ? Condition.EXISTS : atVersion(ifMatch);
    };
  }

  private static boolean isAny(String ifMatch) {
    return ifMatch.trim().equals(Etags.ANY);
  }

  private static Condition atVersion(String etag) {
    return Condition.version(Etags.parse(etag).orElse(-1L));
  }

  /** The removal of this write's item as expired (what the change feed records for it). */
  Write asExpiry() {
    return new Write(Batch.Kind.DELETE, table, item, null, expected, true);
  }
}
