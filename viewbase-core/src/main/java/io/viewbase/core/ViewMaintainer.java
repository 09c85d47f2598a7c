package io.viewbase.core;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Limits;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.Versioned;
import java.util.Map;
import java.util.Optional;

/**
 * The view entries a source write changes, as mutations for the source write's own batch, so a view
 * is updated atomically with its source.
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
        change(view, decision, context);
      }
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
