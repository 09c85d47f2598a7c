package io.viewbase.core;

import io.viewbase.api.Batch;
import io.viewbase.api.ChangePage;
import io.viewbase.api.Item;
import io.viewbase.api.ItemCursor;
import io.viewbase.api.ItemMapping;
import io.viewbase.api.Page;
import io.viewbase.api.PagedCursor;
import io.viewbase.api.Query;
import io.viewbase.api.QueryPlan;
import io.viewbase.api.Table;
import io.viewbase.api.TimeToLive;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import io.viewbase.storage.spi.Derivation;
import io.viewbase.storage.spi.StorageException;
import io.viewbase.storage.spi.Versioned;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;

/**
 * A table (or a view, read-only) of the embedded engine: reads it, and turns each write of the
 * {@link Table} interface into a {@link Write} for the {@link WritePipeline}, which decides and
 * commits it (a single write is a batch of one) and keeps the table's views in step.
 */
final class EmbeddedTable implements Table {
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
    Optional<Versioned> stored =
        pointRead(partitionKey, id, (partition, key) -> db.store().get(partition, key));
    // An expired item (or view entry) is absent to every read, swept or not.
    return stored.flatMap(
        v -> {
          Item item = StoredItems.toItem(partitionKey, id, v.version(), v.value());
          return db.expiry().isExpired(entry, v.version(), item.properties())
              ? Optional.empty()
              : Optional.of(item);
        });
  }

  /**
   * Mapped point read: the store keeps the mapped result beside its cached entry, if it caches.
   * What it keeps holds the entry's version and {@code _ttl} too, so that whether the item has
   * expired is decided at each read, never cached.
   */
  @Override
  public <T> Optional<T> get(String partitionKey, String id, ItemMapping<T> mapping) {
    return pointRead(
            partitionKey,
            id,
            (partition, key) ->
                db.store().get(partition, key, new MappedRead<>(partitionKey, id, mapping)))
        .flatMap(
            m ->
                db.expiry().isExpired(entry, m.version(), m.ttl())
                    ? Optional.empty()
                    : Optional.ofNullable(m.result()));
  }

  /**
   * A mapped read's result (null if the mapping gave none) with what decides its expiry. A cache
   * keeps it with the entry and a hit reads it through each reference it holds, so it holds the
   * result itself, not in an {@code Optional}: one object less to fetch from memory per read.
   */
  private record Mapped<T>(long version, Value ttl, T result) {}

  /**
   * A point read's checks, its storage key, and its storage errors translated; {@code lookup}
   * reads.
   */
  private <T> Optional<T> pointRead(
      String partitionKey, String id, BiFunction<byte[], byte[], Optional<T>> lookup) {
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
  private record MappedRead<T>(String partitionKey, String id, ItemMapping<T> mapping)
      implements Derivation<Mapped<T>> {
    @Override
    public Mapped<T> derive(long version, byte[] value) {
      Item item = StoredItems.toItem(partitionKey, id, version, value);
      return new Mapped<>(version, item.properties().get(TimeToLive.PROPERTY), mapping.map(item));
    }

    @Override
    public long weight(Mapped<T> mapped) {
      return (mapped.result() == null ? 0 : mapping.weight(mapped.result())) + 32;
    }

    @Override
    public Object key() {
      return mapping;
    }
  }

  @Override
  public Item insert(Item item) {
    return write(Batch.Kind.INSERT, item, null);
  }

  @Override
  public Item replace(Item item, String ifMatch) {
    return write(Batch.Kind.REPLACE, item, ifMatch);
  }

  @Override
  public Item upsert(Item item) {
    return write(Batch.Kind.UPSERT, item, null);
  }

  @Override
  public Item merge(Item item, String ifMatch) {
    return write(Batch.Kind.MERGE, item, ifMatch);
  }

  @Override
  public Item upsertMerge(Item item) {
    return write(Batch.Kind.UPSERT_MERGE, item, null);
  }

  @Override
  public void delete(String partitionKey, String id, String ifMatch) {
    write(Batch.Kind.DELETE, deletion(partitionKey, id), ifMatch);
  }

  @Override
  public CompletableFuture<Item> insertAsync(Item item) {
    return writeAsync(Batch.Kind.INSERT, item, null);
  }

  @Override
  public CompletableFuture<Item> replaceAsync(Item item, String ifMatch) {
    return writeAsync(Batch.Kind.REPLACE, item, ifMatch);
  }

  @Override
  public CompletableFuture<Item> upsertAsync(Item item) {
    return writeAsync(Batch.Kind.UPSERT, item, null);
  }

  @Override
  public CompletableFuture<Item> mergeAsync(Item item, String ifMatch) {
    return writeAsync(Batch.Kind.MERGE, item, ifMatch);
  }

  @Override
  public CompletableFuture<Item> upsertMergeAsync(Item item) {
    return writeAsync(Batch.Kind.UPSERT_MERGE, item, null);
  }

  @Override
  public CompletableFuture<Void> deleteAsync(String partitionKey, String id, String ifMatch) {
    Item deletion;
    try {
      deletion = deletion(partitionKey, id);
    } catch (ViewbaseException e) {
      return CompletableFuture.failedFuture(e);
    }
    return writeAsync(Batch.Kind.DELETE, deletion, ifMatch).thenApply(deleted -> null);
  }

  /**
   * What a delete writes: the identity, no properties; a key that is no key fails here, not in
   * Item.
   */
  private Item deletion(String partitionKey, String id) {
    db.rules().checkKey("partitionKey", partitionKey);
    db.rules().checkKey("id", id);
    return Item.of(partitionKey, id, Map.of());
  }

  private Item write(Batch.Kind kind, Item item, String ifMatch) {
    WritePipeline pipeline = db.writes();
    return pipeline.write(pipeline.prepare(kind, entry, item, ifMatch));
  }

  private CompletableFuture<Item> writeAsync(Batch.Kind kind, Item item, String ifMatch) {
    WritePipeline pipeline = db.writes();
    Write write;
    try {
      write = pipeline.prepare(kind, entry, item, ifMatch);
    } catch (ViewbaseException e) {
      return CompletableFuture.failedFuture(e);
    }
    return pipeline.writeAsync(write);
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

  TableEntry entry() {
    return entry;
  }

  private void checkReadable() {
    db.checkOpen();
    entry.checkLive();
    ViewHandle view = entry.view();
    if (view != null) {
      view.checkReadable();
    }
  }

  @Override
  public ChangePage changes(long after, int limit, Duration wait) {
    return db.changes(entry, after, limit, wait);
  }
}
