package io.viewbase.core;

import io.viewbase.api.Batch;
import io.viewbase.api.BatchResult;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.ViewbaseException;
import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.StorageException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Commits a {@link Batch}: every operation is read and decided against the store plus the
 * batch's earlier operations ({@link BatchOverlay}), their item and view mutations become one
 * storage batch, each conditional on what was read, and the store applies it all or nothing.
 *
 * <p>Isolation is serializable: the store (RocksDB's group-commit leader, one at a time) checks
 * every condition and applies the batch as one step, so every item and view entry the batch read
 * is unchanged when it commits. If one changed meanwhile the batch is decided again from fresh
 * reads; an operation that then fails its own rule (a stale ETag, an existing item, a taken view
 * key, a failed check) fails the batch with its {@code operationIndex}, and nothing is written.
 */
final class BatchWriter {
  private static final int MAX_ATTEMPTS = 100;

  private final EmbeddedDatabase db;

  BatchWriter(EmbeddedDatabase db) {
    this.db = db;
  }

  BatchResult commit(Batch batch) {
    List<Batch.Operation> ops = batch.operations();
    if (ops.isEmpty()) {
      throw new ViewbaseException(ErrorCode.InvalidInput, "A batch needs at least one operation");
    }
    if (ops.size() > Batch.MAX_OPERATIONS) {
      throw ViewbaseException.of(ErrorCode.InvalidInput,
          "A batch has at most " + Batch.MAX_OPERATIONS + " operations", "operations", ops.size());
    }
    List<EmbeddedTable> tables = new ArrayList<>(ops.size());
    List<byte[]> values = new ArrayList<>(ops.size());
    Set<String> seen = new HashSet<>();
    long bytes = 0;
    for (int i = 0; i < ops.size(); i++) {
      Batch.Operation op = ops.get(i);
      try {
        if (op.ifMatch() != null && (op.kind() == Batch.Kind.INSERT || op.kind() == Batch.Kind.UPSERT
            || op.kind() == Batch.Kind.UPSERT_MERGE)) {
          throw new ViewbaseException(ErrorCode.InvalidInput, "ifMatch applies to replace, merge, delete and check");
        }
        EmbeddedTable table = (EmbeddedTable) db.table(op.table());
        byte[] value = table.validateForBatch(kindOf(op), op.item());
        bytes += value == null ? 0 : value.length;
        if (!seen.add(table.entry().id() + "\u0000" + op.partitionKey() + "\u0000" + op.id())) {
          throw new ViewbaseException(ErrorCode.InvalidInput, "An item may appear once per batch");
        }
        tables.add(table);
        values.add(value);
      } catch (ViewbaseException e) {
        throw failed(e, i, op);
      }
    }
    if (bytes > Batch.MAX_BYTES) {
      throw ViewbaseException.of(ErrorCode.InvalidInput,
          "A batch holds at most " + Batch.MAX_BYTES + " bytes of items", "bytes", bytes);
    }
    List<TableEntry> gates = tables.stream().map(EmbeddedTable::entry).distinct()
        .sorted(Comparator.comparingInt(TableEntry::id)).toList();
    List<TableEntry> entered = new ArrayList<>(gates.size());
    try {
      for (TableEntry gate : gates) {
        gate.beginWrite(); // in id order, so two batches never wait on each other's gates
        entered.add(gate);
      }
      return commitEntered(ops, tables, values);
    } catch (StorageException e) {
      throw EmbeddedDatabase.storageError(e);
    } finally {
      for (TableEntry gate : entered) {
        gate.endWrite();
      }
    }
  }

  private BatchResult commitEntered(List<Batch.Operation> ops, List<EmbeddedTable> tables, List<byte[]> values) {
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      BatchOverlay overlay = new BatchOverlay(db.store());
      List<Item> results = new ArrayList<>(ops.size());
      List<Integer> claimOps = new ArrayList<>();
      List<ViewMaintainer.DeferredClaim> claims = new ArrayList<>();
      long version = db.clock().next();
      try {
        decideAll(ops, tables, values, overlay, version, results, claimOps, claims);
      } catch (ClockBehind behind) {
        continue;
      }
      for (int c = 0; c < claims.size(); c++) {
        ViewMaintainer.DeferredClaim claim = claims.get(c);
        if (stillOwns(overlay, claim)) {
          int i = claimOps.get(c);
          throw failed(ViewMaintainer.conflict(claim.view(), claim.key(), claim.ownerPartitionKey(), claim.ownerId()),
              i, ops.get(i));
        }
      }
      List<Mutation> mutations = overlay.mutations();
      try {
        db.store().commit(mutations);
        return new BatchResult(results);
      } catch (ConditionFailedException e) {
        if (overlay.isAsserted(e.index())) {
          int i = overlay.operationOf(e.index());
          throw failed(checkFailure(e), i, ops.get(i));
        }
        // Something this batch read changed before it committed: decide again from fresh reads.
      }
    }
    throw new ViewbaseException(ErrorCode.WriteConflict,
        "The items of this batch are changing too fast to commit it; retry");
  }

  /** Decides every operation into the overlay, in order; the results, claims and their operations go to the lists. */
  private void decideAll(List<Batch.Operation> ops, List<EmbeddedTable> tables, List<byte[]> values,
      BatchOverlay overlay, long version, List<Item> results, List<Integer> claimOps,
      List<ViewMaintainer.DeferredClaim> claims) {
    for (int i = 0; i < ops.size(); i++) {
      Batch.Operation op = ops.get(i);
      int index = i;
      try {
        if (op.kind() == Batch.Kind.CHECK) {
          TableEntry entry = tables.get(i).entry();
          overlay.add(new Mutation.Check(KeyLayout.partition(entry.id(), op.partitionKey()),
              KeyLayout.sortKey(op.id()), checkCondition(op.ifMatch())), i, true);
          results.add(null);
          continue;
        }
        EmbeddedTable table = tables.get(i);
        OptionalLong expected = EmbeddedTable.expectedVersion(op.ifMatch());
        results.add(table.decideInto(kindOf(op), op.item(), values.get(i), expected, overlay, version, false,
            table.entry().views(), m -> overlay.add(m, index, false), claim -> {
              claims.add(claim);
              claimOps.add(index);
            }));
      } catch (ViewbaseException e) {
        throw failed(e, i, op);
      }
    }
  }

  /** Whether the item that held a claimed view key still maps to it when the batch is done. */
  private static boolean stillOwns(BatchOverlay overlay, ViewMaintainer.DeferredClaim claim) {
    TableEntry source = claim.view().source();
    return overlay.get(KeyLayout.partition(source.id(), claim.ownerPartitionKey()), KeyLayout.sortKey(claim.ownerId()))
        .map(v -> claim.key().equals(claim.view().spec().keyOf(claim.ownerPartitionKey(), claim.ownerId(),
            ItemCodec.decode(v.value()))))
        .orElse(false);
  }

  /** A check's ifMatch: an ETag (at that version), "*" (present), null (absent). */
  private static Condition checkCondition(String ifMatch) {
    if (ifMatch == null) {
      return Condition.ABSENT;
    }
    OptionalLong version = EmbeddedTable.expectedVersion(ifMatch);
    return version.isPresent() ? Condition.version(version.getAsLong()) : Condition.EXISTS;
  }

  private static ViewbaseException checkFailure(ConditionFailedException e) {
    if (e.condition().kind() == Condition.Kind.ABSENT) {
      return new ViewbaseException(ErrorCode.ItemAlreadyExists, "The check asked for an absent item, and it exists");
    }
    if (e.actualVersion() == null) {
      return new ViewbaseException(ErrorCode.ItemNotFound, "The check asked for an item that does not exist");
    }
    return new ViewbaseException(ErrorCode.PreconditionFailed,
        "The item has changed since the ETag given to the check was issued");
  }

  /** The operation's error, naming its index and item. */
  private static ViewbaseException failed(ViewbaseException e, int index, Batch.Operation op) {
    Map<String, Object> context = new LinkedHashMap<>();
    context.put("operationIndex", index);
    context.put("operation", switch (op.kind()) {
      case UPSERT_MERGE -> "upsertMerge";
      default -> op.kind().name().toLowerCase(Locale.ROOT);
    });
    if (op.table() != null) {
      context.put("table", op.table());
    }
    context.put("partitionKey", op.partitionKey());
    context.put("id", op.id());
    e.context().forEach(context::putIfAbsent);
    return new ViewbaseException(e.code(), "Operation " + index + " of the batch failed: " + e.getMessage(), context,
        e);
  }

  private static WriteKind kindOf(Batch.Operation op) {
    return switch (op.kind()) {
      case INSERT -> WriteKind.INSERT;
      case REPLACE -> WriteKind.REPLACE;
      case UPSERT -> WriteKind.UPSERT;
      case MERGE -> WriteKind.MERGE;
      case UPSERT_MERGE -> WriteKind.UPSERT_MERGE;
      case DELETE -> WriteKind.DELETE;
      case CHECK -> WriteKind.DELETE; // validated like a delete: identity only
    };
  }
}
