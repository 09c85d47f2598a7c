package io.viewbase.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An ordered list of up to 100 write operations over any items of any tables, committed by {@link
 * Database#commit} atomically: all or nothing, with every view kept in step, serializable against
 * other writes. An item may appear once per batch.
 *
 * <pre>
 * operation   | item must be                  | effect
 * ------------+-------------------------------+--------------------------------------------
 * insert      | absent                        | stores the item
 * replace     | present (at ifMatch if given) | replaces it
 * upsert      | anything                      | stores the item
 * merge       | present (at ifMatch if given) | merges the properties into it
 * upsertMerge | anything                      | merges, or stores if absent
 * delete      | present (at ifMatch if given) | deletes it
 * check       | at ifMatch (an ETag), present | nothing: only asserts
 *             | ("*"), or absent (null)       |
 * </pre>
 *
 * To move an item to a new partition key or id (identity never changes), insert the new item and
 * delete the old one at its ETag in one batch.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class Batch {
  /** Most operations in one batch. */
  public static final int MAX_OPERATIONS = 100;

  /** Most encoded bytes of the items in one batch. */
  public static final int MAX_BYTES = 4 << 20;

  /** The kinds of operation. */
  public enum Kind {
    INSERT,
    REPLACE,
    UPSERT,
    MERGE,
    UPSERT_MERGE,
    DELETE,
    CHECK
  }

  /**
   * One operation.
   *
   * @param kind what it does
   * @param table the table it writes
   * @param item the item (its identity; properties for writes)
   * @param ifMatch an ETag or "*" (replace, merge, delete, check); for check, null means "absent"
   */
  public record Operation(Kind kind, String table, Item item, String ifMatch) {
    public Operation {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(item, "item");
    }

    public String partitionKey() {
      return item.partitionKey();
    }

    public String id() {
      return item.id();
    }
  }

  private final List<Operation> operations;

  private Batch(List<Operation> operations) {
    this.operations = List.copyOf(operations);
  }

  public static Batch of(List<Operation> operations) {
    return new Batch(operations);
  }

  public static Builder builder() {
    return new Builder();
  }

  public List<Operation> operations() {
    return operations;
  }

  public int size() {
    return operations.size();
  }

  /** Collects operations in order. */
  public static final class Builder {
    private final List<Operation> operations = new ArrayList<>();

    public Builder insert(String table, Item item) {
      return add(Kind.INSERT, table, item, null);
    }

    public Builder replace(String table, Item item, String ifMatch) {
      return add(Kind.REPLACE, table, item, ifMatch);
    }

    public Builder upsert(String table, Item item) {
      return add(Kind.UPSERT, table, item, null);
    }

    public Builder merge(String table, Item item, String ifMatch) {
      return add(Kind.MERGE, table, item, ifMatch);
    }

    public Builder upsertMerge(String table, Item item) {
      return add(Kind.UPSERT_MERGE, table, item, null);
    }

    public Builder delete(String table, String partitionKey, String id, String ifMatch) {
      return add(Kind.DELETE, table, Item.of(partitionKey, id, java.util.Map.of()), ifMatch);
    }

    /** Asserts the item is at {@code ifMatch} (an ETag), present ("*"), or absent (null). */
    public Builder check(String table, String partitionKey, String id, String ifMatch) {
      return add(Kind.CHECK, table, Item.of(partitionKey, id, java.util.Map.of()), ifMatch);
    }

    public Builder add(Kind kind, String table, Item item, String ifMatch) {
      operations.add(new Operation(kind, table, item, ifMatch));
      return this;
    }

    public Batch build() {
      return new Batch(operations);
    }
  }
}
