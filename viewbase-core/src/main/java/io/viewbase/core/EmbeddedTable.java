package io.viewbase.core;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.ItemCursor;
import io.viewbase.api.ItemMapping;
import io.viewbase.api.Page;
import io.viewbase.api.PagedCursor;
import io.viewbase.api.Query;
import io.viewbase.api.QueryPlan;
import io.viewbase.api.Table;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Derivation;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.ReadView;
import io.viewbase.storage.spi.StorageException;
import io.viewbase.storage.spi.Versioned;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * A table (or a view, read-only) of the embedded engine: validates, encodes and commits writes
 * with the storage conditions that make them safe under concurrency (see {@link Table} for the
 * behaviour table), and keeps the table's views in step inside the same atomic batch.
 *
 * <p>No write holds a lock across its read and its commit. On a table without views, insert,
 * replace, upsert and delete need no read at all: their rule is a storage condition (absent,
 * exists, at version). Otherwise the write reads the current item, decides, and commits on the
 * condition that nothing it read has changed, retrying when another writer got there first, so
 * no update is ever lost, on one process or many.
 */
final class EmbeddedTable implements Table {
  private static final int MAX_ATTEMPTS = 1000;

  private final EmbeddedDatabase db;
  private final TableEntry entry;

  EmbeddedTable(EmbeddedDatabase db, TableEntry entry) {
    this.db = db;
    this.entry = entry;
  }

  @Override
  public String name() {
    return entry.name();
  }

  @Override
  public Optional<Item> get(String partitionKey, String id) {
    Optional<Versioned> stored = pointRead(partitionKey, id, (partition, key) -> db.store().get(partition, key));
    return stored.map(v -> StoredItems.toItem(partitionKey, id, v.version(), v.value()));
  }

  /** Mapped point read: the store keeps the mapped result beside its cached entry, if it caches. */
  @Override
  public <T> Optional<T> get(String partitionKey, String id, ItemMapping<T> mapping) {
    return pointRead(partitionKey, id,
        (partition, key) -> db.store().get(partition, key, new MappedRead<>(partitionKey, id, mapping)));
  }

  /** A point read's checks, its storage key, and its storage errors translated; {@code lookup} reads. */
  private <T> Optional<T> pointRead(String partitionKey, String id,
      BiFunction<byte[], byte[], Optional<T>> lookup) {
    checkReadable();
    db.rules().checkKey("partitionKey", partitionKey);
    db.rules().checkKey("id", id);
    try {
      return lookup.apply(KeyLayout.partition(entry.id(), partitionKey), KeyLayout.sortKey(id));
    } catch (StorageException e) {
      throw EmbeddedDatabase.storageError(e);
    }
  }

  /**
   * A mapping as the store sees it: the partition key and id are the store key's, so the mapping
   * alone decides the result, and is what a cache keeps.
   */
  private record MappedRead<T>(String partitionKey, String id, ItemMapping<T> mapping) implements Derivation<T> {
    @Override
    public T derive(long version, byte[] value) {
      return mapping.map(StoredItems.toItem(partitionKey, id, version, value));
    }

    @Override
    public long weight(T result) {
      return mapping.weight(result);
    }

    @Override
    public Object key() {
      return mapping;
    }
  }

  @Override
  public Item insert(Item item) {
    return write(WriteKind.INSERT, item, null);
  }

  @Override
  public Item replace(Item item, String ifMatch) {
    return write(WriteKind.REPLACE, item, ifMatch);
  }

  @Override
  public Item upsert(Item item) {
    return write(WriteKind.UPSERT, item, null);
  }

  @Override
  public Item merge(Item item, String ifMatch) {
    return write(WriteKind.MERGE, item, ifMatch);
  }

  @Override
  public Item upsertMerge(Item item) {
    return write(WriteKind.UPSERT_MERGE, item, null);
  }

  @Override
  public void delete(String partitionKey, String id, String ifMatch) {
    write(WriteKind.DELETE, deletion(partitionKey, id), null, ifMatch);
  }

  /** What a delete writes, its keys checked: the item's identity, no properties. */
  private Item deletion(String partitionKey, String id) {
    checkWritable();
    db.rules().checkKey("partitionKey", partitionKey);
    db.rules().checkKey("id", id);
    return Item.of(partitionKey, id, Map.of());
  }

  @Override
  public Page query(Query query) {
    checkReadable();
    try {
      return db.queries().run(entry, query);
    } catch (StorageException e) {
      throw EmbeddedDatabase.storageError(e);
    }
  }

  @Override
  public QueryPlan explain(Query query) {
    checkReadable();
    return db.queries().explain(entry, query);
  }

  @Override
  public ItemCursor cursor(Query query) {
    return new PagedCursor(this, query);
  }

  private Item write(WriteKind kind, Item item, String ifMatch) {
    checkWritable();
    byte[] value = validate(item);
    return write(kind, item, value, ifMatch);
  }

  private Item write(WriteKind kind, Item item, byte[] value, String ifMatch) {
    entry.beginWrite();
    try {
      List<ViewHandle> views = entry.views();
      if (isBlind(kind, views, ifMatch)) {
        return writeBlind(kind, item, value, ifMatch);
      }
      return writeDecided(kind, item, value, ifMatch, views);
    } catch (StorageException e) {
      throw EmbeddedDatabase.storageError(e);
    } finally {
      entry.endWrite();
    }
  }

  /**
   * Whether the write's rule is one storage condition: no read, no retry. Not when its ETag names a
   * version ahead of this server's clock: the new version must exceed the one it replaces, and a
   * version from a request is a condition, never a clock input (a forged ETag would otherwise move
   * the clock, and every later timestamp with it). Such a write reads first, and only a version the
   * database itself stored moves the clock (another server's, on a shared store).
   */
  private boolean isBlind(WriteKind kind, List<ViewHandle> views, String ifMatch) {
    if (!views.isEmpty() || kind == WriteKind.MERGE || kind == WriteKind.UPSERT_MERGE) {
      return false;
    }
    OptionalLong expected = expectedVersion(ifMatch);
    return expected.isEmpty() || !db.clock().isAhead(expected.getAsLong());
  }

  @Override
  public CompletableFuture<Item> insertAsync(Item item) {
    return writeAsync(WriteKind.INSERT, item, null);
  }

  @Override
  public CompletableFuture<Item> replaceAsync(Item item, String ifMatch) {
    return writeAsync(WriteKind.REPLACE, item, ifMatch);
  }

  @Override
  public CompletableFuture<Item> upsertAsync(Item item) {
    return writeAsync(WriteKind.UPSERT, item, null);
  }

  @Override
  public CompletableFuture<Item> mergeAsync(Item item, String ifMatch) {
    return writeAsync(WriteKind.MERGE, item, ifMatch);
  }

  @Override
  public CompletableFuture<Item> upsertMergeAsync(Item item) {
    return writeAsync(WriteKind.UPSERT_MERGE, item, null);
  }

  @Override
  public CompletableFuture<Void> deleteAsync(String partitionKey, String id, String ifMatch) {
    Item deletion;
    try {
      deletion = deletion(partitionKey, id);
    } catch (ViewbaseException e) {
      return CompletableFuture.failedFuture(e);
    }
    return writeAsync(WriteKind.DELETE, deletion, null, ifMatch).thenApply(deleted -> null);
  }

  private CompletableFuture<Item> writeAsync(WriteKind kind, Item item, String ifMatch) {
    byte[] value;
    try {
      checkWritable();
      value = validate(item);
    } catch (ViewbaseException e) {
      return CompletableFuture.failedFuture(e);
    }
    return writeAsync(kind, item, value, ifMatch);
  }

  /**
   * A blind write on a store that commits without blocking is queued from the calling thread;
   * every other write runs, as its blocking namesake, on the database's writer threads.
   */
  private CompletableFuture<Item> writeAsync(WriteKind kind, Item item, byte[] value, String ifMatch) {
    try {
      if (db.store().commitsWithoutBlocking()) {
        entry.beginWrite();
        if (isBlind(kind, entry.views(), ifMatch)) {
          return writeBlindAsync(kind, item, value, ifMatch); // it ends the write
        }
        entry.endWrite();
      }
      return CompletableFuture.supplyAsync(() -> write(kind, item, value, ifMatch), db.writers());
    } catch (ViewbaseException e) {
      return CompletableFuture.failedFuture(e);
    } catch (StorageException e) {
      return CompletableFuture.failedFuture(EmbeddedDatabase.storageError(e));
    } catch (RejectedExecutionException e) {
      return CompletableFuture.failedFuture(new ViewbaseException(ErrorCode.ShuttingDown, "The database is closing"));
    }
  }

  /** One commit whose condition is the whole rule: no read, no retry. */
  private Item writeBlind(WriteKind kind, Item item, byte[] value, String ifMatch) {
    long version = db.clock().next();
    try {
      db.store().commit(List.of(blindMutation(kind, item, value, ifMatch, version)));
    } catch (ConditionFailedException e) {
      throw blindFailure(kind, item, e);
    }
    return stored(item.partitionKey(), item.id(), item.properties(), version);
  }

  /**
   * {@link #writeBlind}, asynchronously, entered in the table's write gate: the gate is held until
   * the commit's outcome is known (it is not owned by a thread), so a drop or a new view waits for
   * the write as it waits for a blocking one; this ends the write however it goes.
   */
  private CompletableFuture<Item> writeBlindAsync(WriteKind kind, Item item, byte[] value, String ifMatch) {
    Item result;
    CompletableFuture<Void> committed;
    try {
      long version = db.clock().next();
      // built here, not in the completion: that runs on the store's committer, whose time is the
      // whole pipeline's
      result = stored(item.partitionKey(), item.id(), item.properties(), version);
      committed = db.store().commitAsync(List.of(blindMutation(kind, item, value, ifMatch, version)));
    } catch (RuntimeException | Error e) {
      entry.endWrite();
      throw e;
    }
    return committed.handle((ok, failure) -> {
      entry.endWrite();
      if (failure == null) {
        return result;
      }
      Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause()
          : failure;
      if (cause instanceof ConditionFailedException) {
        throw blindFailure(kind, item, (ConditionFailedException) cause);
      }
      if (cause instanceof StorageException) {
        throw EmbeddedDatabase.storageError((StorageException) cause);
      }
      throw cause instanceof RuntimeException ? (RuntimeException) cause : new CompletionException(cause);
    });
  }


  /** The one mutation of a blind write: its condition is the write's whole rule. */
  private Mutation blindMutation(WriteKind kind, Item item, byte[] value, String ifMatch, long version) {
    Condition condition = switch (kind) {
      case INSERT -> Condition.ABSENT;
      case UPSERT -> Condition.NONE;
      default -> conditionFor(ifMatch);
    };
    byte[] partition = KeyLayout.partition(entry.id(), item.partitionKey());
    byte[] key = KeyLayout.sortKey(item.id());
    return kind == WriteKind.DELETE ? new Mutation.Delete(partition, key, condition)
        : new Mutation.Put(partition, key, version, value, condition);
  }

  /** What a blind write whose condition failed tells its caller. */
  private ViewbaseException blindFailure(WriteKind kind, Item item, ConditionFailedException e) {
    if (kind == WriteKind.INSERT) {
      return alreadyExists(item);
    }
    return e.actualVersion() == null ? notFound(item.partitionKey(), item.id())
        : preconditionFailed(item.partitionKey(), item.id());
  }

  /** Read, decide, commit on the condition that nothing read has changed; retry if it has. */
  private Item writeDecided(WriteKind kind, Item item, byte[] value, String ifMatch, List<ViewHandle> views) {
    OptionalLong expected = expectedVersion(ifMatch);
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      List<Mutation> batch = new ArrayList<>(1 + 2 * views.size());
      long version = db.clock().next();
      Item result;
      try {
        result = decideInto(kind, item, value, expected, db.store(), version, attempt == 0, views, batch::add);
      } catch (ClockBehind behind) {
        continue;
      }
      try {
        db.store().commit(batch);
        return result;
      } catch (ConditionFailedException e) {
        // Something read above changed before the commit: read again and decide again.
      }
    }
    throw ViewbaseException.of(ErrorCode.WriteConflict,
        "The item is changing too fast to write; retry", "table", entry.name(), "partitionKey", item.partitionKey(),
        "id", item.id());
  }

  /**
   * Reads the item through {@code reads}, decides the write by the behaviour table, and hands the
   * mutations (the item's, and its views') to {@code out}, each conditional on what was read.
   * Returns the stored item, or null for a delete. Shared by single writes and batches.
   */
  Item decideInto(WriteKind kind, Item item, byte[] value, OptionalLong expected, ReadView reads, long version,
      boolean optimistic, List<ViewHandle> views, Consumer<Mutation> out) {
    return decideInto(kind, item, value, expected, reads, version, optimistic, views, out, null);
  }

  Item decideInto(WriteKind kind, Item item, byte[] value, OptionalLong expected, ReadView reads, long version,
      boolean optimistic, List<ViewHandle> views, Consumer<Mutation> out,
      Consumer<ViewMaintainer.DeferredClaim> deferred) {
    String pk = item.partitionKey();
    String id = item.id();
    byte[] partition = KeyLayout.partition(entry.id(), pk);
    byte[] key = KeyLayout.sortKey(id);
    Optional<Versioned> current = reads.get(partition, key);
    if (current.isPresent() && current.get().version() > version) {
      // Written by another server whose clock is ahead of ours (a shared store): a new version must
      // exceed the one it replaces, so catch up and decide again with a later version.
      db.clock().observe(current.get().version());
      throw ClockBehind.INSTANCE;
    }
    Map<String, Value> old = current.map(v -> ItemCodec.decode(v.value())).orElse(null);
    Map<String, Value> next = decide(kind, item, current, old, expected);
    Condition unchanged = current.map(v -> Condition.version(v.version())).orElse(Condition.ABSENT);
    if (next == null) {
      out.accept(new Mutation.Delete(partition, key, unchanged));
    } else {
      byte[] encoded = next == item.properties() ? value : encodeMerged(next, item);
      out.accept(new Mutation.Put(partition, key, version, encoded, unchanged));
    }
    Long oldVersion = current.map(Versioned::version).orElse(null);
    for (ViewHandle view : views) {
      if (view.isMaintained()) {
        db.viewMaintainer().changes(reads, view, pk, id, old, oldVersion, next, version, optimistic, out, deferred);
      }
    }
    return next == null ? null : stored(pk, id, next, version);
  }

  TableEntry entry() {
    return entry;
  }

  /** Checks a write's item for a batch and returns its encoded properties; also refuses views. */
  byte[] validateForBatch(WriteKind kind, Item item) {
    checkWritable();
    if (kind == WriteKind.DELETE) {
      db.rules().checkKey("partitionKey", item.partitionKey());
      db.rules().checkKey("id", item.id());
      return null;
    }
    return validate(item);
  }

  /** The item's properties after the write (null: deleted), or the error the behaviour table names. */
  private Map<String, Value> decide(WriteKind kind, Item item, Optional<Versioned> current, Map<String, Value> old,
      OptionalLong expected) {
    boolean present = current.isPresent();
    boolean stale = present && expected.isPresent() && expected.getAsLong() != current.get().version();
    switch (kind) {
      case INSERT -> {
        if (present) {
          throw alreadyExists(item);
        }
        return item.properties();
      }
      case UPSERT -> {
        return item.properties();
      }
      case UPSERT_MERGE -> {
        return present ? merged(old, item) : item.properties();
      }
      default -> {
        if (!present) {
          throw notFound(item.partitionKey(), item.id());
        }
        if (stale) {
          throw preconditionFailed(item.partitionKey(), item.id());
        }
        return switch (kind) {
          case REPLACE -> item.properties();
          case MERGE -> merged(old, item);
          default -> null;
        };
      }
    }
  }

  private Map<String, Value> merged(Map<String, Value> old, Item patch) {
    Map<String, Value> merged = new LinkedHashMap<>(old);
    merged.putAll(patch.properties());
    db.rules().checkProperties(merged);
    return Collections.unmodifiableMap(merged);
  }

  private byte[] encodeMerged(Map<String, Value> merged, Item item) {
    byte[] value = ItemCodec.encode(merged);
    db.rules().checkEncodedSize(value, item.partitionKey(), item.id());
    return value;
  }

  private static Item stored(String pk, String id, Map<String, Value> properties, long version) {
    return Item.stored(pk, id, properties, Etags.of(version), new Value.DateTime(version).toInstant());
  }

  private void checkReadable() {
    db.checkOpen();
    entry.checkLive();
    ViewHandle view = entry.view();
    if (view != null) {
      view.checkReadable();
    }
  }

  private void checkWritable() {
    db.checkOpen();
    entry.checkLive();
    if (entry.isView()) {
      throw ViewbaseException.of(ErrorCode.ViewIsReadOnly,
          "Views are read-only; write to the source table", "view", entry.name(),
          "source", entry.view().source().name());
    }
  }

  /** Checks the item against the rules and returns its encoded properties. */
  private byte[] validate(Item item) {
    db.rules().checkKey("partitionKey", item.partitionKey());
    db.rules().checkKey("id", item.id());
    db.rules().checkProperties(item.properties());
    byte[] value = ItemCodec.encode(item.properties());
    db.rules().checkEncodedSize(value, item.partitionKey(), item.id());
    return value;
  }

  /** null or "*": the item must exist; an ETag: it must exist at that version. */
  private static Condition conditionFor(String ifMatch) {
    OptionalLong version = expectedVersion(ifMatch);
    return version.isPresent() ? Condition.version(version.getAsLong()) : Condition.EXISTS;
  }

  static OptionalLong expectedVersion(String ifMatch) {
    if (ifMatch == null || ifMatch.trim().equals(Etags.ANY)) {
      return OptionalLong.empty();
    }
    // An ETag we could never have issued matches no version: the write fails with 412 (or 404).
    return OptionalLong.of(Etags.parse(ifMatch).orElse(-1L));
  }

  private ViewbaseException alreadyExists(Item item) {
    return ViewbaseException.of(ErrorCode.ItemAlreadyExists, "An item with this partition key and id exists",
        "table", entry.name(), "partitionKey", item.partitionKey(), "id", item.id());
  }

  private ViewbaseException notFound(String partitionKey, String id) {
    return ViewbaseException.of(ErrorCode.ItemNotFound, "No item has this partition key and id",
        "table", entry.name(), "partitionKey", partitionKey, "id", id);
  }

  private ViewbaseException preconditionFailed(String partitionKey, String id) {
    return ViewbaseException.of(ErrorCode.PreconditionFailed,
        "The item has changed since the ETag given in If-Match was issued", "table", entry.name(),
        "partitionKey", partitionKey, "id", id);
  }
}
