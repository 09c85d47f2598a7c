package io.viewbase.core;

import io.viewbase.api.Batch;
import io.viewbase.api.BatchResult;
import io.viewbase.api.Change;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.TimeToLive;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.StorageException;
import io.viewbase.storage.spi.Versioned;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;

/**
 * The write path. Every write is a list of {@link Write}s, a single write a list of one, and goes
 * through the same steps:
 *
 * <ol>
 *   <li><b>prepare</b>: check each operation (the database open, the table live and not a view,
 *       keys, properties, sizes; a batch's shape) and encode its item;
 *   <li><b>enter</b> the write gates of its tables in table-id order, so two batches never wait on
 *       each other's, and hold them to the end: a drop or a new view waits for the write;
 *   <li><b>decide</b> each operation, in order, into mutations ({@link Draft}):
 *       <ul>
 *         <li><em>by its condition</em>, with no read, when its rule is one storage condition
 *             ({@link Write}'s table): a check always; a write alone, on a table without views,
 *             that is not a merge, and whose ETag is not ahead of the clock (below);
 *         <li><em>by reading</em> otherwise: read the item, refuse if the rule fails, compute the
 *             item after ({@link Write}'s table again), make a {@link Decision}; its mutation and
 *             its views' ({@link ViewMaintainer}) are all conditional on what was read;
 *       </ul>
 *   <li><b>commit</b> them as one storage batch: {@code Store.commit}, or {@code Store.commitAsync}
 *       for an asynchronous write on a store that commits without blocking;
 *   <li>if a condition failed: the operation's rule is refused through {@link #refusal} (the one
 *       table from a failed rule to an error, whether the read or the store found it); anything
 *       else read has changed, so decide again from fresh reads, {@value #MAX_ATTEMPTS} attempts in
 *       all, then {@code WriteConflict}.
 * </ol>
 *
 * <p><b>Clock.</b> Each attempt takes one version from the {@link VersionClock} for everything it
 * writes. A version must exceed the one it replaces: a read that finds a version at or after the
 * attempt's (another server, on a shared store, whose clock is ahead) moves the clock past it and
 * decides again ({@link ClockBehind}). A version a request names (an ETag) is a condition, never a
 * clock input: a forged ETag would otherwise move the clock, and every later timestamp with it. A
 * write whose ETag is ahead of the clock ({@link VersionClock#isAhead}) is therefore decided by
 * reading, so that only a version the database stored can move the clock.
 *
 * <p><b>Asynchronous writes</b> that are decided by their condition on a store that commits without
 * blocking run on the caller's thread up to {@code commitAsync}, the gate held until its outcome
 * (the gate is not owned by a thread); every other asynchronous write, which reads or blocks, runs
 * as a blocking one on the database's writer threads.
 *
 * <p>A batch of several is decided by reading throughout (checks aside), as a whole, against the
 * store and its own earlier operations; an operation that fails its rule fails the batch with its
 * {@code operationIndex}, and nothing is written.
 */
final class WritePipeline {
  /** Attempts at a write set whose reads keep changing before it commits. */
  static final int MAX_ATTEMPTS = 1000;

  private final EmbeddedDatabase db;

  WritePipeline(EmbeddedDatabase db) {
    this.db = db;
  }

  /** Checks one operation and encodes its item; {@code ifMatch} is an ETag, "*" or null. */
  Write prepare(Batch.Kind kind, TableEntry table, Item item, String ifMatch) {
    db.checkOpen();
    table.checkLive();
    if (table.isView()) {
      throw ViewbaseException.of(
          ErrorCode.ViewIsReadOnly,
          "Views are read-only; write to the source table",
          "view",
          table.name(),
          "source",
          table.view().source().name());
    }
    ItemRules rules = db.rules();
    rules.checkKey("partitionKey", item.partitionKey());
    rules.checkKey("id", item.id());
    byte[] value = null;
    if (Write.storesItem(kind)) {
      rules.checkProperties(item.properties());
      if (item.properties().containsKey(TimeToLive.PROPERTY)) {
        db.expiry().noteItemTtl(table); // before the item: see Expiry
      }
      value = ItemCodec.encode(item.properties());
      rules.checkEncodedSize(value, item.partitionKey(), item.id());
    }
    return new Write(kind, table, item, value, Write.expectation(kind, ifMatch), false);
  }

  /**
   * Removes an item whose time-to-live ran out, with its view entries, if it is still at {@code
   * version} (a write since then gave it a new life): the change feed records an expiry.
   *
   * @return whether the item was removed; false if it changed or went since it was read
   */
  boolean expire(TableEntry table, String partitionKey, String id, long version) {
    Write write =
        new Write(
            Batch.Kind.DELETE,
            table,
            Item.of(partitionKey, id, Map.of()),
            null,
            Condition.version(version),
            true);
    table.beginWrite();
    try {
      commit(List.of(write));
      return true;
    } catch (Refused refused) {
      return false; // changed (412) or gone (404) since the sweep read it
    } catch (StorageException e) {
      throw EmbeddedDatabase.storageError(e);
    } finally {
      table.endWrite();
    }
  }

  /** A write alone, blocking: returns the stored item, or null for a delete. */
  Item write(Write write) {
    TableEntry table = write.table();
    table.beginWrite();
    try {
      return commit(List.of(write)).result(0);
    } catch (Refused refused) {
      throw refused.error();
    } catch (StorageException e) {
      throw EmbeddedDatabase.storageError(e);
    } finally {
      table.endWrite();
    }
  }

  /**
   * A write alone, asynchronously: the future completes as {@link #write} would return or throw.
   */
  CompletableFuture<Item> writeAsync(Write write) {
    if (!db.store().commitsWithoutBlocking()) {
      return onWriterThread(write);
    }
    TableEntry table = write.table();
    Draft draft;
    CompletableFuture<Void> committed;
    try {
      table.beginWrite();
    } catch (ViewbaseException e) {
      return CompletableFuture.failedFuture(e);
    }
    try {
      if (!decidesByCondition(write, true)) {
        table.endWrite();
        return onWriterThread(write);
      }
      draft = decide(List.of(write), 0); // no read: decided by its condition, on this thread
      committed = db.store().commitAsync(draft.batch());
    } catch (RuntimeException | Error e) {
      table.endWrite();
      return CompletableFuture.failedFuture(
          e instanceof StorageException s
              ? EmbeddedDatabase.storageError(s)
              : e instanceof Refused r ? r.error() : e);
    }
    // runs on the store's committer, whose time is the whole pipeline's: the result is built
    // already
    return committed.handle(
        (ok, failure) -> {
          table.endWrite();
          if (failure == null) {
            return draft.result(0);
          }
          Throwable cause =
              failure instanceof CompletionException && failure.getCause() != null
                  ? failure.getCause()
                  : failure;
          if (cause instanceof ConditionFailedException e) {
            throw refusal(write, e.actualVersion() != null); // its one mutation is its rule
          }
          if (cause instanceof StorageException e) {
            throw EmbeddedDatabase.storageError(e);
          }
          throw cause instanceof RuntimeException r ? r : new CompletionException(cause);
        });
  }

  private CompletableFuture<Item> onWriterThread(Write write) {
    try {
      return CompletableFuture.supplyAsync(() -> write(write), db.writers());
    } catch (RejectedExecutionException e) {
      // accepted while the database was open, refused by the writer threads it is stopping
      return CompletableFuture.failedFuture(
          new ViewbaseException(ErrorCode.ShuttingDown, "The database is closing"));
    }
  }

  /** A batch: all its operations or none, each failure naming its operation. */
  BatchResult commit(Batch batch) {
    List<Write> writes = prepare(batch);
    List<TableEntry> gates = enter(writes);
    try {
      return new BatchResult(commit(writes).results());
    } catch (Refused refused) {
      throw inBatch(refused.error(), refused.operation, batch.operations().get(refused.operation));
    } catch (StorageException e) {
      throw EmbeddedDatabase.storageError(e);
    } finally {
      for (TableEntry gate : gates) {
        gate.endWrite();
      }
    }
  }

  private List<Write> prepare(Batch batch) {
    List<Batch.Operation> ops = batch.operations();
    if (ops.isEmpty()) {
      throw new ViewbaseException(ErrorCode.InvalidInput, "A batch needs at least one operation");
    }
    if (ops.size() > Batch.MAX_OPERATIONS) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "A batch has at most " + Batch.MAX_OPERATIONS + " operations",
          "operations",
          ops.size());
    }
    List<Write> writes = new ArrayList<>(ops.size());
    Set<String> seen = new HashSet<>();
    long bytes = 0;
    for (int i = 0; i < ops.size(); i++) {
      Batch.Operation op = ops.get(i);
      try {
        if (op.ifMatch() != null
            && (op.kind() == Batch.Kind.INSERT
                || op.kind() == Batch.Kind.UPSERT
                || op.kind() == Batch.Kind.UPSERT_MERGE)) {
          throw new ViewbaseException(
              ErrorCode.InvalidInput, "ifMatch applies to replace, merge, delete and check");
        }
        Write write = prepare(op.kind(), db.entry(op.table()), op.item(), op.ifMatch());
        bytes += write.value() == null ? 0 : write.value().length;
        if (!seen.add(write.table().id() + "\u0000" + op.partitionKey() + "\u0000" + op.id())) {
          throw new ViewbaseException(ErrorCode.InvalidInput, "An item may appear once per batch");
        }
        writes.add(write);
      } catch (ViewbaseException e) {
        throw inBatch(e, i, op);
      }
    }
    if (bytes > Batch.MAX_BYTES) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "A batch holds at most " + Batch.MAX_BYTES + " bytes of items",
          "bytes",
          bytes);
    }
    return writes;
  }

  /**
   * Enters the gates of the writes' tables in id order and returns them; leave them in any order.
   */
  private static List<TableEntry> enter(List<Write> writes) {
    List<TableEntry> gates =
        writes.stream()
            .map(Write::table)
            .distinct()
            .sorted(Comparator.comparingInt(TableEntry::id))
            .toList();
    for (int i = 0; i < gates.size(); i++) {
      try {
        gates.get(i).beginWrite();
      } catch (RuntimeException e) {
        for (int j = 0; j < i; j++) {
          gates.get(j).endWrite();
        }
        throw e;
      }
    }
    return gates;
  }

  /** Decides and commits the writes, their gates entered: the loop of attempts. */
  private Draft commit(List<Write> writes) {
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      Draft draft = decide(writes, attempt);
      if (draft == null) {
        continue; // the clock was behind a version read: it has caught up
      }
      try {
        db.store().commit(draft.batch());
        db.changeFeed().committed(draft.recorded());
        return draft;
      } catch (ConditionFailedException e) {
        if (draft.isRule(e.index())) {
          int operation = draft.operationOf(e.index());
          throw new Refused(operation, refusal(writes.get(operation), e.actualVersion() != null));
        }
        // Something read changed before the commit: decide again from fresh reads.
      }
    }
    Item item = writes.get(0).item();
    throw writes.size() == 1
        ? ViewbaseException.of(
            ErrorCode.WriteConflict,
            "The item is changing too fast to write; retry",
            "table",
            writes.get(0).table().name(),
            "partitionKey",
            item.partitionKey(),
            "id",
            item.id())
        : new ViewbaseException(
            ErrorCode.WriteConflict,
            "The items of this batch are changing too fast to commit it; retry");
  }

  /** One attempt's decisions, or null if the clock must catch up first. */
  private Draft decide(List<Write> writes, int attempt) {
    long version = db.clock().next();
    Draft draft = Draft.of(db.store(), writes.size(), attempt, version);
    for (int i = 0; i < writes.size(); i++) {
      draft.begin(i);
      try {
        decide(writes.get(i), draft);
      } catch (ClockBehind behind) {
        return null;
      } catch (ViewbaseException e) {
        throw new Refused(i, e);
      }
    }
    for (Draft.Claim c : draft.claims()) {
      ViewMaintainer.DeferredClaim claim = c.claim();
      if (stillOwns(draft, claim)) {
        throw new Refused(
            c.operation(),
            ViewMaintainer.conflict(
                claim.view(), claim.key(), claim.ownerPartitionKey(), claim.ownerId()));
      }
    }
    return draft;
  }

  /**
   * Whether the write's rule is the whole of it, so that it needs no read: one storage condition
   * and no retry. Not when its ETag names a version ahead of the clock (see the class comment). Not
   * either, on a table whose items may expire, when the rule is about the item's presence: an
   * expired item is absent to every rule, but its entry is still stored, which the condition would
   * see (an insert over it must succeed, a replace of it must not).
   */
  private boolean decidesByCondition(Write write, boolean alone) {
    boolean presence = write.expected().kind() != Condition.Kind.NONE;
    if (presence && !write.expiry() && db.expiry().mayExpire(write.table())) {
      return false;
    }
    if (write.kind() == Batch.Kind.CHECK) {
      return true;
    }
    if (!alone
        || write.merges()
        || !write.table().views().isEmpty()
        || write.table().recordsChanges()) {
      return false; // the views, the merge or the feed need the item before
    }
    Condition expected = write.expected();
    return expected.kind() != Condition.Kind.VERSION || !db.clock().isAhead(expected.version());
  }

  /** Decides one write into the draft, by the behaviour table of {@link Write}. */
  private void decide(Write write, Draft draft) {
    long version = draft.version;
    Item item = write.item();
    byte[] partition = KeyLayout.partition(write.table().id(), item.partitionKey());
    byte[] key = KeyLayout.sortKey(item.id());
    if (decidesByCondition(write, draft.isAlone())) {
      Condition rule = write.expected();
      draft.addRule(
          switch (write.kind()) {
            case DELETE -> new Mutation.Delete(partition, key, rule);
            case CHECK -> new Mutation.Check(partition, key, rule);
            default -> new Mutation.Put(partition, key, version, write.value(), rule);
          });
      draft.result(write.storesItem() ? stored(item, item.properties(), version) : null);
      return;
    }
    Versioned read = draft.get(partition, key).orElse(null);
    if (read != null && read.version() >= version) {
      // Written by another server whose clock is ahead of ours (a shared store): a new version must
      // exceed the one it replaces, so catch up and decide again with a later version.
      db.clock().observe(read.version());
      throw ClockBehind.INSTANCE;
    }
    Map<String, Value> before = read == null ? null : ItemCodec.decode(read.value());
    // An expired item is absent to the rule and to a merge (docs/ttl.md), but its entry and its
    // view entries are still stored: the mutations stay conditional on them, and views drop them.
    // The removal of an expired item (an expiry) is the one write that sees it.
    boolean present =
        read != null
            && (write.expiry() || !db.expiry().isExpired(write.table(), read.version(), before));
    if (!holds(write.expected(), present ? read : null)) {
      throw refusal(write, present);
    }
    Condition unchanged = read == null ? Condition.ABSENT : Condition.version(read.version());
    if (write.kind() == Batch.Kind.CHECK) {
      draft.add(new Mutation.Check(partition, key, unchanged)); // decided by reading: see above
      draft.result(null);
      return;
    }
    Map<String, Value> after = after(write, present ? before : null);
    byte[] value = null;
    if (after == null) {
      draft.add(new Mutation.Delete(partition, key, unchanged));
    } else {
      value = after == item.properties() ? write.value() : encodeMerged(after, item);
      draft.add(new Mutation.Put(partition, key, version, value, unchanged));
    }
    db.viewMaintainer().changes(new Decision(write, read, before, after, version), draft);
    if (write.table().recordsChanges()) {
      if (read != null && !present) {
        // written over an expired item the sweep had not removed yet: the feed says both, so that
        // a replay holds what a read does
        draft.record(recorded(write.asExpiry(), read, null));
        draft.record(recorded(write, null, value));
      } else {
        draft.record(recorded(write, read, value));
      }
    }
    draft.result(after == null ? null : stored(item, after, version));
  }

  /** What a decided write puts in its table's change feed; {@code after} null for a delete. */
  private static ChangeFeed.Recorded recorded(Write write, Versioned read, byte[] after) {
    Change.Kind kind =
        after != null
            ? read == null ? Change.Kind.INSERT : Change.Kind.UPDATE
            : write.expiry() ? Change.Kind.EXPIRE : Change.Kind.DELETE;
    boolean beforeImage = read != null && write.table().options().changeFeed().beforeImages();
    return new ChangeFeed.Recorded(
        write.table(),
        kind,
        write.item().partitionKey(),
        write.item().id(),
        read == null ? 0 : read.version(),
        after,
        beforeImage ? read.value() : null);
  }

  /** The item's properties after the write (null: deleted), its rule having held. */
  private Map<String, Value> after(Write write, Map<String, Value> before) {
    Map<String, Value> given = write.item().properties();
    return switch (write.kind()) {
      case INSERT, REPLACE, UPSERT -> given;
      case MERGE -> merged(before, given);
      case UPSERT_MERGE -> before == null ? given : merged(before, given);
      case DELETE -> null;
      case CHECK -> throw new IllegalStateException("a check writes nothing");
    };
  }

  /** Whether the stored entry (null: absent) meets the condition. */
  private static boolean holds(Condition condition, Versioned read) {
    return switch (condition.kind()) {
      case NONE -> true;
      case ABSENT -> read == null;
      case EXISTS -> read != null;
      case VERSION -> read != null && read.version() == condition.version();
    };
  }

  /**
   * The error of a write whose rule did not hold, found by its read or by the store's check of its
   * condition; the one such table:
   *
   * <pre>
   * the write expected      | the item was    | error
   * ------------------------+-----------------+-------------------------
   * absent (insert, check)  | present         | 409 ItemAlreadyExists
   * present, at any version | absent          | 404 ItemNotFound
   *   or at an ETag's       |                 |
   * present at an ETag's    | at another one  | 412 PreconditionFailed
   * </pre>
   */
  static ViewbaseException refusal(Write write, boolean found) {
    Item item = write.item();
    String table = write.table().name();
    if (write.expected().kind() == Condition.Kind.ABSENT) {
      return ViewbaseException.of(
          ErrorCode.ItemAlreadyExists,
          "An item with this partition key and id exists",
          "table",
          table,
          "partitionKey",
          item.partitionKey(),
          "id",
          item.id());
    }
    if (!found) {
      return ViewbaseException.of(
          ErrorCode.ItemNotFound,
          "No item has this partition key and id",
          "table",
          table,
          "partitionKey",
          item.partitionKey(),
          "id",
          item.id());
    }
    return ViewbaseException.of(
        ErrorCode.PreconditionFailed,
        "The item has changed since the ETag given in If-Match was issued",
        "table",
        table,
        "partitionKey",
        item.partitionKey(),
        "id",
        item.id());
  }

  /** Whether the item that held a claimed view key still maps to it when the set is decided. */
  private static boolean stillOwns(Draft draft, ViewMaintainer.DeferredClaim claim) {
    TableEntry source = claim.view().source();
    return draft
        .get(
            KeyLayout.partition(source.id(), claim.ownerPartitionKey()),
            KeyLayout.sortKey(claim.ownerId()))
        .map(
            v ->
                claim
                    .key()
                    .equals(
                        claim
                            .view()
                            .spec()
                            .keyOf(
                                claim.ownerPartitionKey(),
                                claim.ownerId(),
                                ItemCodec.decode(v.value()))))
        .orElse(false);
  }

  private Map<String, Value> merged(Map<String, Value> before, Map<String, Value> patch) {
    Map<String, Value> merged = new LinkedHashMap<>(before);
    merged.putAll(patch);
    db.rules().checkProperties(merged);
    return Collections.unmodifiableMap(merged);
  }

  private byte[] encodeMerged(Map<String, Value> merged, Item item) {
    byte[] value = ItemCodec.encode(merged);
    db.rules().checkEncodedSize(value, item.partitionKey(), item.id());
    return value;
  }

  private static Item stored(Item item, Map<String, Value> properties, long version) {
    return Item.stored(
        item.partitionKey(),
        item.id(),
        properties,
        Etags.of(version),
        new Value.DateTime(version).toInstant());
  }

  /** The operation's error, naming its index and item. */
  private static ViewbaseException inBatch(ViewbaseException e, int index, Batch.Operation op) {
    Map<String, Object> context = new LinkedHashMap<>();
    context.put("operationIndex", index);
    context.put(
        "operation",
        switch (op.kind()) {
          case UPSERT_MERGE -> "upsertMerge";
          default -> op.kind().name().toLowerCase(Locale.ROOT);
        });
    if (op.table() != null) {
      context.put("table", op.table());
    }
    context.put("partitionKey", op.partitionKey());
    context.put("id", op.id());
    e.context().forEach(context::putIfAbsent);
    return new ViewbaseException(
        e.code(), "Operation " + index + " of the batch failed: " + e.getMessage(), context, e);
  }

  /**
   * An operation's error on its way out of the loop of attempts, to the entry point that reports
   * it: a write alone as it is, a batch naming the operation. Control flow only: no stack trace.
   */
  private static final class Refused extends RuntimeException {
    private static final long serialVersionUID = 1L;

    final int operation;

    Refused(int operation, ViewbaseException error) {
      super(error.getMessage(), error, false, false);
      this.operation = operation;
    }

    ViewbaseException error() {
      return (ViewbaseException) getCause();
    }
  }
}
