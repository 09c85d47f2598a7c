package io.viewbase.core;

import io.viewbase.api.Batch;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Limits;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.Versioned;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The view entries a source write changes, as mutations for the source write's own batch, so a view
 * is updated atomically with its source. History and partitions views are below ({@link #record},
 * {@link #count}); a copy view's entries change so:
 *
 * <pre>
 * old key | new key    | mutations
 * --------+------------+---------------------------------------------------------------
 * none    | none       | nothing (the item is not in the view before or after)
 * any     | K          | put K: on condition ABSENT if K is free, or at K's version if K
 *         |            | already belongs to this source item; if K belongs to another
 *         |            | source item: 409 ViewKeyConflict, and nothing is written
 * K       | none, or L | delete K, at its version, if it belongs to this source item; if K
 *         |            | is absent, check that it stays absent (a backfill copying the old
 *         |            | item must not land after this write)
 * </pre>
 *
 * Every condition comes from a read, so if anything changed between the read and the commit the
 * commit fails and the write path re-reads and decides again.
 */
final class ViewMaintainer {
  private final ItemRules rules;

  ViewMaintainer(Limits limits) {
    this.rules = new ItemRules(limits);
  }

  /** What view maintenance needs of the write set it serves ({@link Draft}, one attempt at it). */
  interface Context {
    /** A key as the write set sees it: the store, with the set's earlier operations on top. */
    Optional<Versioned> get(byte[] partition, byte[] key);

    /**
     * Whether to decide without reading the view: a source item's own entry always carries the
     * source item's version (every writer, the backfill and repairs keep it so), so "rewrite my
     * entry" is a condition on that version (none at all once the view is ready and complete: the
     * source's condition implies it) and "claim a new key" is a condition on absence. If the guess
     * is wrong (a taken key, drift, a backfill still copying) the commit fails and the write set is
     * decided again with reads, which tell why.
     */
    boolean optimistic();

    /** Adds a mutation to the write set's commit. */
    void add(Mutation m);

    /**
     * Leaves a claim on a key another source item holds to the end of the write set, where it
     * stands if that item no longer maps to the key; false when no later operation can move it (a
     * write alone), and the conflict is final.
     */
    boolean defer(DeferredClaim claim);
  }

  /**
   * A view key claimed in a batch while another source item still held it; the claim stands only
   * if, by the end of the batch, that item no longer maps to the key.
   */
  record DeferredClaim(
      ViewHandle view, ViewSpec.ViewKey key, String ownerPartitionKey, String ownerId) {}

  /**
   * Adds to {@code context} the mutations that keep every maintained view of the source in step
   * with the decision.
   */
  void changes(Decision decision, Context context) {
    for (ViewHandle view : decision.write().table().views()) {
      if (view.isMaintained()) {
        switch (view.spec().kind()) {
          case COPY -> change(view, decision, context);
          case HISTORY -> record(view, decision, context);
          case PARTITIONS -> count(view, decision, context);
        }
      }
    }
  }

  /**
   * A history view's entries of one write: the item as written where it lands, and a tombstone
   * where it was and no longer is (deleted, out of where, or in another view partition now). Each
   * id is new (a version no earlier write had), so both are claims on an absent key and read
   * nothing; two items of one batch share the version but not the id, which ends with the source
   * identity.
   *
   * <pre>
   * before in partition | after in partition | entries at version#item
   * --------------------+--------------------+-----------------------------------------
   * none                | none               | nothing
   * any                 | Q                  | Q: the item (select applied), _operation
   * P                   | none, or Q != P    | P: a tombstone (_operation, _deleted: true)
   * </pre>
   */
  private void record(ViewHandle view, Decision d, Context context) {
    ViewSpec spec = view.spec();
    String pk = d.partitionKey();
    String id = d.id();
    String was = spec.historyPartition(pk, id, d.before());
    String is = spec.historyPartition(pk, id, d.after());
    if (was == null && is == null) {
      return;
    }
    String operation = d.write().expiry() ? "expire" : operation(d.write().kind());
    String historyId = ViewSpec.historyId(d.version(), pk, id);
    if (is != null) {
      put(
          view,
          new ViewSpec.ViewKey(is, historyId),
          d,
          spec.historyEntry(d.after(), operation),
          context);
    }
    if (was != null && !was.equals(is)) {
      put(view, new ViewSpec.ViewKey(was, historyId), d, ViewSpec.tombstone(operation), context);
    }
  }

  private void put(
      ViewHandle view,
      ViewSpec.ViewKey key,
      Decision d,
      Map<String, Value> properties,
      Context context) {
    checkKey(view, key);
    context.add(
        new Mutation.Put(
            KeyLayout.partition(view.table().id(), key.partitionKey()),
            KeyLayout.sortKey(key.id()),
            d.version(),
            ItemCodec.encodeView(d.partitionKey(), d.id(), properties),
            Condition.ABSENT));
  }

  /**
   * A history entry's {@code _operation}: the write's kind as batches name it ({@code expire} for
   * the removal of an expired item).
   */
  static String operation(Batch.Kind kind) {
    return switch (kind) {
      case INSERT -> "insert";
      case REPLACE -> "replace";
      case MERGE -> "merge";
      case UPSERT -> "upsert";
      case UPSERT_MERGE -> "upsertMerge";
      case DELETE -> "delete";
      case CHECK -> throw new IllegalStateException("a check writes nothing");
    };
  }

  /**
   * A partitions view's count of the write's source partition: read, then rewritten at the version
   * read (or claimed absent), so concurrent writers to one partition are serialized by the entry
   * and a batch's later operation counts on its earlier ones' ({@link Draft}).
   *
   * <p>An item state (its properties and version) is counted when it matches {@code where} and the
   * view is ready; while the view builds, writers count the states stored after {@link
   * ViewRecord#countsAfter()} and the backfill those at or before it, and an entry of a partition
   * the backfill is part-way through says how far it got ({@link ViewSpec#COUNTED_THROUGH}):
   *
   * <pre>
   * the entry                        | a state at or before countsAfter is counted
   * ---------------------------------+---------------------------------------------
   * absent, or _countedThrough null  | no: the backfill has not counted it yet
   * _countedThrough: id T            | if its source id sorts at or before T
   * no _countedThrough (complete)    | yes
   * </pre>
   *
   * A state after countsAfter is always counted. The count moves by counted(after) minus
   * counted(before); at 0 the entry is deleted (an absent entry and a count of 0 mean the same to
   * this table: a partition with no counted item has no uncounted one the backfill passed).
   */
  private void count(ViewHandle view, Decision d, Context context) {
    ViewSpec spec = view.spec();
    String pk = d.partitionKey();
    String id = d.id();
    boolean was = spec.matches(pk, id, d.before());
    boolean is = spec.matches(pk, id, d.after());
    boolean ready = view.isReady();
    if (was == is && (ready || !was)) {
      return; // counted before and after alike
    }
    ViewSpec.ViewKey key = new ViewSpec.ViewKey(spec.countPartition(pk), pk);
    checkKey(view, key);
    byte[] partition = KeyLayout.partition(view.table().id(), key.partitionKey());
    byte[] sortKey = KeyLayout.sortKey(key.id());
    Optional<Versioned> existing = context.get(partition, sortKey);
    Condition unchanged =
        existing.map(v -> Condition.version(v.version())).orElse(Condition.ABSENT);
    Counted entry = Counted.of(existing.map(Versioned::value).orElse(null));
    long after = d.version();
    long before = d.read() == null ? 0 : d.read().version();
    long countsAfter = view.record().countsAfter();
    int delta =
        (is && (ready || entry.counts(id, after, countsAfter)) ? 1 : 0)
            - (was && (ready || entry.counts(id, before, countsAfter)) ? 1 : 0);
    if (delta == 0) {
      // Still decided by the entry: if the backfill counts on meanwhile, decide again.
      context.add(new Mutation.Check(partition, sortKey, unchanged));
      return;
    }
    long next = entry.count() + delta;
    if (next <= 0) {
      context.add(
          existing.isPresent()
              ? new Mutation.Delete(partition, sortKey, unchanged)
              : new Mutation.Check(partition, sortKey, unchanged));
      return;
    }
    context.add(
        new Mutation.Put(
            partition,
            sortKey,
            d.version(),
            Counted.encode(pk, next, ready ? Counted.COMPLETE : entry.through()),
            unchanged));
  }

  /**
   * A partitions entry as stored: the count, and while the view builds how far the backfill has
   * counted the partition ({@link #through}: {@link #COMPLETE}, {@link #NOTHING} or a source id).
   */
  record Counted(long count, Value through) {
    /** The backfill has counted the whole partition (the entry has no {@code _countedThrough}). */
    static final Value COMPLETE = null;

    /** The backfill has counted none of the partition. */
    static final Value NOTHING = Value.Null.INSTANCE;

    /**
     * The stored entry (null: absent, which is a count of 0 with nothing counted by the backfill).
     */
    static Counted of(byte[] stored) {
      if (stored == null) {
        return new Counted(0, NOTHING);
      }
      Map<String, Value> p = ItemCodec.decodeView(stored).properties();
      long count = p.get(ViewSpec.COUNT) instanceof Value.Int64 n ? n.value() : 0;
      return new Counted(count, p.get(ViewSpec.COUNTED_THROUGH));
    }

    static byte[] encode(String sourcePartitionKey, long count, Value through) {
      Map<String, Value> p = new LinkedHashMap<>();
      p.put(ViewSpec.COUNT, Value.of(count));
      if (through != COMPLETE) {
        p.put(ViewSpec.COUNTED_THROUGH, through);
      }
      return ItemCodec.encodeView(sourcePartitionKey, "", p);
    }

    /** Whether the item state of {@code id} stored at {@code version} is in the count. */
    boolean counts(String id, long version, long countsAfter) {
      if (version > countsAfter || through == COMPLETE) {
        return true;
      }
      return through instanceof Value.Str last
          && Arrays.compareUnsigned(KeyLayout.sortKey(id), KeyLayout.sortKey(last.value())) <= 0;
    }
  }

  private void change(ViewHandle view, Decision d, Context context) {
    String partitionKey = d.partitionKey();
    String id = d.id();
    Map<String, Value> oldProperties = d.before();
    Map<String, Value> newProperties = d.after();
    long version = d.version();
    boolean optimistic = context.optimistic();
    ViewSpec spec = view.spec();
    // While a view builds, an entry may not have been copied yet: every guess is then checked.
    boolean ready = view.isReady();
    ViewSpec.ViewKey oldKey = spec.keyOf(partitionKey, id, oldProperties);
    ViewSpec.ViewKey newKey = spec.keyOf(partitionKey, id, newProperties);
    boolean sameKey = oldKey != null && oldKey.equals(newKey);
    if (newKey != null) {
      checkKey(view, newKey);
      byte[] partition = KeyLayout.partition(view.table().id(), newKey.partitionKey());
      byte[] key = KeyLayout.sortKey(newKey.id());
      Condition condition;
      if (optimistic) {
        // Claiming a key is always conditional: that is what makes view keys unique. Rewriting
        // our own entry of a ready view needs no condition: the source's own condition (unchanged
        // since read) already implies the entry is ours and current.
        condition =
            !sameKey
                ? Condition.ABSENT
                : ready ? Condition.NONE : Condition.version(d.read().version());
      } else {
        condition = Condition.ABSENT;
        Optional<Versioned> existing = context.get(partition, key);
        if (existing.isPresent()) {
          ItemCodec.ViewValue owner = ItemCodec.decodeView(existing.get().value());
          if (!owner.sourcePartitionKey().equals(partitionKey) || !owner.sourceId().equals(id)) {
            // In a batch, a later operation may still move or delete the owner: decide at the end.
            if (!context.defer(
                new DeferredClaim(view, newKey, owner.sourcePartitionKey(), owner.sourceId()))) {
              throw conflict(view, newKey, owner.sourcePartitionKey(), owner.sourceId());
            }
          }
          condition = Condition.version(existing.get().version());
        }
      }
      byte[] value = ItemCodec.encodeView(partitionKey, id, spec.project(newProperties));
      context.add(new Mutation.Put(partition, key, version, value, condition));
    }
    if (oldKey != null && !sameKey) {
      byte[] partition = KeyLayout.partition(view.table().id(), oldKey.partitionKey());
      byte[] key = KeyLayout.sortKey(oldKey.id());
      if (optimistic) {
        Condition mine = ready ? Condition.NONE : Condition.version(d.read().version());
        context.add(new Mutation.Delete(partition, key, mine));
        return;
      }
      Optional<Versioned> existing = context.get(partition, key);
      if (existing.isEmpty()) {
        // A backfill may be about to copy the old entry: if it lands first, this write must
        // re-decide.
        context.add(new Mutation.Check(partition, key, Condition.ABSENT));
      } else {
        ItemCodec.ViewValue owner = ItemCodec.decodeView(existing.get().value());
        Condition unchanged = Condition.version(existing.get().version());
        if (owner.sourcePartitionKey().equals(partitionKey) && owner.sourceId().equals(id)) {
          context.add(new Mutation.Delete(partition, key, unchanged));
        } else {
          context.add(new Mutation.Check(partition, key, unchanged));
        }
      }
    }
  }

  /** A rendered key must be a valid key; a write that would render an invalid one is refused. */
  private void checkKey(ViewHandle view, ViewSpec.ViewKey key) {
    try {
      rules.checkKey("view partitionKey", key.partitionKey());
      rules.checkKey("view id", key.id());
    } catch (ViewbaseException e) {
      throw new ViewbaseException(
          e.code(),
          e.getMessage() + " (rendered by view " + view.name() + ")",
          Map.of("view", view.name(), "viewPartitionKey", key.partitionKey(), "viewId", key.id()));
    }
  }

  static ViewbaseException conflict(
      ViewHandle view, ViewSpec.ViewKey key, String otherPartitionKey, String otherId) {
    return ViewbaseException.of(
        ErrorCode.ViewKeyConflict,
        "Another item already has this key in a unique view",
        "view",
        view.name(),
        "viewPartitionKey",
        key.partitionKey(),
        "viewId",
        key.id(),
        "conflictingPartitionKey",
        otherPartitionKey,
        "conflictingId",
        otherId);
  }
}
