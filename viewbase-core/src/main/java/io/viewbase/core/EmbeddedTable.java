package io.viewbase.core;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.ItemCursor;
import io.viewbase.api.Page;
import io.viewbase.api.Query;
import io.viewbase.api.Table;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.StorageException;
import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.Versioned;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A table of the embedded engine: validates, encodes and commits writes with the storage
 * conditions that make them safe under concurrency (see {@link Table} for the behaviour table).
 *
 * <p>No write holds a lock across its read and its commit. Insert, replace, upsert and delete need
 * no read at all: their rule is a storage condition (absent, exists, at version). Merge reads the
 * current version, merges, and commits on the condition that the version is unchanged, retrying
 * when another writer got there first, so no update is ever lost, on one process or many.
 */
final class EmbeddedTable implements Table {
  private static final int MAX_MERGE_ATTEMPTS = 1000;

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
    db.checkOpen();
    entry.checkLive();
    db.rules().checkKey("partitionKey", partitionKey);
    db.rules().checkKey("id", id);
    Optional<Versioned> stored = read(partitionKey, id);
    return stored.map(v -> StoredItems.toItem(partitionKey, id, v.version(), v.value()));
  }

  @Override
  public Item insert(Item item) {
    byte[] value = validate(item);
    return write(item, value, Condition.ABSENT, null);
  }

  @Override
  public Item replace(Item item, String ifMatch) {
    byte[] value = validate(item);
    return write(item, value, conditionFor(ifMatch), ifMatch);
  }

  @Override
  public Item upsert(Item item) {
    byte[] value = validate(item);
    return write(item, value, Condition.NONE, null);
  }

  @Override
  public Item merge(Item item, String ifMatch) {
    return mergeInto(item, ifMatch, false);
  }

  @Override
  public Item upsertMerge(Item item) {
    return mergeInto(item, null, true);
  }

  @Override
  public void delete(String partitionKey, String id, String ifMatch) {
    db.checkOpen();
    db.rules().checkKey("partitionKey", partitionKey);
    db.rules().checkKey("id", id);
    Condition condition = conditionFor(ifMatch);
    byte[] partition = KeyLayout.partition(entry.id(), partitionKey);
    byte[] key = KeyLayout.sortKey(id);
    entry.beginWrite();
    try {
      db.store().commit(List.of(new Mutation.Delete(partition, key, condition)));
    } catch (ConditionFailedException e) {
      throw conditionError(e, partitionKey, id);
    } catch (StorageException e) {
      throw EmbeddedDatabase.storageError(e);
    } finally {
      entry.endWrite();
    }
  }

  @Override
  public Page query(Query query) {
    db.checkOpen();
    entry.checkLive();
    try {
      return db.queries().run(entry, query);
    } catch (StorageException e) {
      throw EmbeddedDatabase.storageError(e);
    }
  }

  @Override
  public ItemCursor cursor(Query query) {
    return new PagedCursor(this, query);
  }

  private Item mergeInto(Item patch, String ifMatch, boolean upsert) {
    validate(patch);
    OptionalLong expected = expectedVersion(ifMatch);
    for (int attempt = 0; attempt < MAX_MERGE_ATTEMPTS; attempt++) {
      Optional<Versioned> current = read(patch.partitionKey(), patch.id());
      if (current.isEmpty()) {
        if (!upsert) {
          throw notFound(patch.partitionKey(), patch.id());
        }
        try {
          return writeOrThrow(patch, ItemCodec.encode(patch.properties()), Condition.ABSENT);
        } catch (ConditionFailedException e) {
          continue; // inserted meanwhile: merge into it
        }
      }
      Versioned stored = current.get();
      if (expected.isPresent() && expected.getAsLong() != stored.version()) {
        throw preconditionFailed(patch.partitionKey(), patch.id());
      }
      Map<String, Value> merged = new LinkedHashMap<>(ItemCodec.decode(stored.value()));
      merged.putAll(patch.properties());
      db.rules().checkProperties(merged);
      Item mergedItem = Item.stored(patch.partitionKey(), patch.id(), Collections.unmodifiableMap(merged), null, null);
      byte[] value = ItemCodec.encode(merged);
      db.rules().checkEncodedSize(value, patch.partitionKey(), patch.id());
      try {
        return writeOrThrow(mergedItem, value, Condition.version(stored.version()));
      } catch (ConditionFailedException e) {
        // Another writer changed the item between our read and commit: read again and re-decide.
      }
    }
    throw ViewbaseException.of(ErrorCode.StorageUnavailable,
        "The item is changing too fast to merge into; retry", "table", entry.name(),
        "partitionKey", patch.partitionKey(), "id", patch.id());
  }

  private Item write(Item item, byte[] value, Condition condition, String ifMatch) {
    try {
      return writeOrThrow(item, value, condition);
    } catch (ConditionFailedException e) {
      if (condition.kind() == Condition.Kind.ABSENT) {
        throw ViewbaseException.of(ErrorCode.ItemAlreadyExists, "An item with this partition key and id exists",
            "table", entry.name(), "partitionKey", item.partitionKey(), "id", item.id());
      }
      throw conditionError(e, item.partitionKey(), item.id());
    }
  }

  private Item writeOrThrow(Item item, byte[] value, Condition condition) throws ConditionFailedException {
    long version = db.clock().next();
    byte[] partition = KeyLayout.partition(entry.id(), item.partitionKey());
    byte[] key = KeyLayout.sortKey(item.id());
    entry.beginWrite();
    try {
      db.store().commit(List.of(new Mutation.Put(partition, key, version, value, condition)));
    } catch (StorageException e) {
      throw EmbeddedDatabase.storageError(e);
    } finally {
      entry.endWrite();
    }
    return Item.stored(item.partitionKey(), item.id(), item.properties(), Etags.of(version),
        new Value.DateTime(version).toInstant());
  }

  private Optional<Versioned> read(String partitionKey, String id) {
    try {
      return db.store().get(KeyLayout.partition(entry.id(), partitionKey), KeyLayout.sortKey(id));
    } catch (StorageException e) {
      throw EmbeddedDatabase.storageError(e);
    }
  }

  /** Checks the item against the rules and returns its encoded properties. */
  private byte[] validate(Item item) {
    db.checkOpen();
    entry.checkLive();
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

  private static OptionalLong expectedVersion(String ifMatch) {
    if (ifMatch == null || ifMatch.trim().equals(Etags.ANY)) {
      return OptionalLong.empty();
    }
    // An ETag we could never have issued matches no version: the write fails with 412 (or 404).
    return OptionalLong.of(Etags.parse(ifMatch).orElse(-1L));
  }

  private ViewbaseException conditionError(ConditionFailedException e, String partitionKey, String id) {
    return e.actualVersion() == null ? notFound(partitionKey, id) : preconditionFailed(partitionKey, id);
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
