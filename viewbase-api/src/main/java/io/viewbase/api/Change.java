package io.viewbase.api;

import java.time.Instant;

/**
 * One entry of a table's change feed: a committed write of one item.
 *
 * <p>Sequence numbers are per table, start at 1, and are assigned in the write's own atomic commit,
 * in commit order and without holes: once a reader sees entry n, every entry before it is there (or
 * has expired from the feed). The entries of one transaction (a batch; a write alone is a
 * transaction of one) are contiguous: {@code transaction} is the sequence number of its first entry
 * in this table's feed, and {@code transactionSize} how many entries it has here.
 *
 * @param sequence the entry's number in its table's feed
 * @param kind what the write did to the item
 * @param partitionKey the item's partition key
 * @param id the item's id
 * @param etag the ETag the write gave the item (of the deleted version, for a delete)
 * @param timestamp when the write committed (the version's time)
 * @param item the item after the write; null for a delete or an expiry
 * @param before the item before the write, where the table keeps before-images; else null
 * @param transaction the sequence number of the transaction's first entry in this feed
 * @param transactionSize how many entries of this feed the transaction has
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record Change(
    long sequence,
    Kind kind,
    String partitionKey,
    String id,
    String etag,
    Instant timestamp,
    Item item,
    Item before,
    long transaction,
    int transactionSize) {

  /** What a write did to its item. */
  public enum Kind {
    /** The item did not exist and now does. */
    INSERT,
    /** The item existed and was replaced or merged. */
    UPDATE,
    /** The item was deleted by a write. */
    DELETE,
    /** The item was deleted because its time-to-live ran out. */
    EXPIRE
  }

  /** Whether this is the last entry of its transaction in this feed. */
  public boolean endsTransaction() {
    return sequence == transaction + transactionSize - 1;
  }
}
