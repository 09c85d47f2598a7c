package io.viewbase.core;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Limits;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.ReadView;
import io.viewbase.storage.spi.Versioned;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The view entries a source write changes, as mutations for the source write's own batch, so a
 * view is updated atomically with its source.
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
 * Every condition comes from a read, so if anything changed between the read and the commit
 * the commit fails and the write path re-reads and decides again.
 */
final class ViewMaintainer {
  private final ItemRules rules;

  ViewMaintainer(Limits limits) {
    this.rules = new ItemRules(limits);
  }

  /**
   * Adds the mutations that keep {@code view} in step with one source write.
   *
   * @param oldVersion the source item's version before the write (null if it was absent)
   * @param optimistic decide without reading the view: a source item's own entry always carries
   *                   the source item's version (every writer, the backfill and repairs keep it so),
   *                   so "rewrite my entry" is a condition on that version (none at all once the view
   *                   is ready and complete: the source's condition implies it) and "claim a new key"
   *                   is a condition on absence. If the guess is wrong (a taken key, drift, a backfill
   *                   still copying) the commit fails and the caller retries with reads, which tell why.
   */
  void changes(ReadView store, ViewHandle view, String partitionKey, String id, Map<String, Value> oldProperties,
      Long oldVersion, Map<String, Value> newProperties, long version, boolean optimistic, Consumer<Mutation> out) {
    changes(store, view, partitionKey, id, oldProperties, oldVersion, newProperties, version, optimistic, out, null);
  }

  /**
   * A view key claimed in a batch while another source item still held it; the claim stands only
   * if, by the end of the batch, that item no longer maps to the key.
   */
  record DeferredClaim(ViewHandle view, ViewSpec.ViewKey key, String ownerPartitionKey, String ownerId) {
  }

  void changes(ReadView store, ViewHandle view, String partitionKey, String id, Map<String, Value> oldProperties,
      Long oldVersion, Map<String, Value> newProperties, long version, boolean optimistic, Consumer<Mutation> out,
      Consumer<DeferredClaim> deferred) {
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
        condition = !sameKey ? Condition.ABSENT : ready ? Condition.NONE : Condition.version(oldVersion);
      } else {
        condition = Condition.ABSENT;
        Optional<Versioned> existing = store.get(partition, key);
        if (existing.isPresent()) {
          ItemCodec.ViewValue owner = ItemCodec.decodeView(existing.get().value());
          if (!owner.sourcePartitionKey().equals(partitionKey) || !owner.sourceId().equals(id)) {
            if (deferred == null) {
              throw conflict(view, newKey, owner.sourcePartitionKey(), owner.sourceId());
            }
            // In a batch, a later operation may still move or delete the owner: decide at the end.
            deferred.accept(new DeferredClaim(view, newKey, owner.sourcePartitionKey(), owner.sourceId()));
          }
          condition = Condition.version(existing.get().version());
        }
      }
      byte[] value = ItemCodec.encodeView(partitionKey, id, spec.project(newProperties));
      out.accept(new Mutation.Put(partition, key, version, value, condition));
    }
    if (oldKey != null && !sameKey) {
      byte[] partition = KeyLayout.partition(view.table().id(), oldKey.partitionKey());
      byte[] key = KeyLayout.sortKey(oldKey.id());
      if (optimistic) {
        out.accept(new Mutation.Delete(partition, key, ready ? Condition.NONE : Condition.version(oldVersion)));
        return;
      }
      Optional<Versioned> existing = store.get(partition, key);
      if (existing.isEmpty()) {
        // A backfill may be about to copy the old entry: if it lands first, this write must re-decide.
        out.accept(new Mutation.Check(partition, key, Condition.ABSENT));
      } else {
        ItemCodec.ViewValue owner = ItemCodec.decodeView(existing.get().value());
        Condition unchanged = Condition.version(existing.get().version());
        if (owner.sourcePartitionKey().equals(partitionKey) && owner.sourceId().equals(id)) {
          out.accept(new Mutation.Delete(partition, key, unchanged));
        } else {
          out.accept(new Mutation.Check(partition, key, unchanged));
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
      throw new ViewbaseException(e.code(), e.getMessage() + " (rendered by view " + view.name() + ")",
          Map.of("view", view.name(), "viewPartitionKey", key.partitionKey(), "viewId", key.id()));
    }
  }

  static ViewbaseException conflict(ViewHandle view, ViewSpec.ViewKey key, String otherPartitionKey, String otherId) {
    return ViewbaseException.of(ErrorCode.ViewKeyConflict,
        "Another item already has this key in a unique view", "view", view.name(),
        "viewPartitionKey", key.partitionKey(), "viewId", key.id(),
        "conflictingPartitionKey", otherPartitionKey, "conflictingId", otherId);
  }
}
