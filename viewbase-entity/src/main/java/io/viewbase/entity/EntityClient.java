package io.viewbase.entity;

import io.viewbase.api.Batch;
import io.viewbase.api.Batch.Kind;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Page;
import io.viewbase.api.Query;
import io.viewbase.api.Stability;
import io.viewbase.api.Table;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import io.viewbase.filter.Filter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The operations on one entity of a bound service. Keys are given as attribute maps ({@code
 * Map.of("organizationId", "293819")}); callers never write key text, namespaces or labels.
 *
 * <pre>
 * operation | item absent          | item present                 | sends
 * ----------+----------------------+------------------------------+---------------------------------------
 * create    | stored               | 409 ItemAlreadyExists        | the whole item (defaults, required)
 * put       | stored               | replaced                     | the whole item
 * upsert    | stored (as create)   | given attributes merged      | the whole item / the given attributes
 * patch     | 404 ItemNotFound     | given attributes merged      | only the changes
 * update    | stored (key + changes) | given attributes merged    | only the changes
 * delete    | false                | deleted, true                |
 * remove    | 404 ItemNotFound     | deleted                      |
 * </pre>
 *
 * A {@link Condition} makes put, patch and remove conditional (412 PreconditionFailed when it does
 * not hold). A duplicate in a unique index is 409 ViewKeyConflict naming the entity, index and
 * attributes; every other refusal is the database's own error. A refused write writes nothing.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class EntityClient<T> {
  /** Read-modify-write operations retry this often when another writer got in between. */
  private static final int ATTEMPTS = 16;

  private final ServiceTable bound;
  private final Entity<T> entity;
  private final ItemMapper<T> mapper;

  EntityClient(ServiceTable bound, Entity<T> entity) {
    this.bound = bound;
    this.entity = entity;
    this.mapper = entity.mapper();
  }

  public Entity<T> entity() {
    return entity;
  }

  public Optional<T> get(Map<String, ?> key) {
    return read(key).map(Stored::value);
  }

  /** The item with its ETag, for a later conditional write. */
  public Optional<Stored<T>> read(Map<String, ?> key) {
    Identity id = identity(key);
    return table().get(id.partitionKey(), id.id()).map(this::stored);
  }

  /** Point reads of many keys; the items found, in the order of the keys. */
  public List<T> batchGet(List<? extends Map<String, ?>> keys) {
    List<T> out = new ArrayList<>();
    for (Map<String, ?> key : keys) {
      get(key).ifPresent(out::add);
    }
    return out;
  }

  public Stored<T> create(T value) {
    return execute(createOperation(value));
  }

  public Stored<T> put(T value) {
    return put(value, Condition.NONE);
  }

  public Stored<T> put(T value, Condition condition) {
    return execute(putOperation(value, condition));
  }

  public Stored<T> upsert(T value) {
    return retrying(() -> upsertOperation(value));
  }

  public Stored<T> patch(Map<String, ?> key, Changes changes) {
    return patch(key, changes, Condition.NONE);
  }

  public Stored<T> patch(Map<String, ?> key, Changes changes, Condition condition) {
    if (changes.removals().isEmpty() || !condition.none()) {
      return execute(patchOperation(key, changes, condition));
    }
    return retrying(() -> patchOperation(key, changes, condition));
  }

  public Stored<T> update(Map<String, ?> key, Changes changes) {
    if (changes.removals().isEmpty()) {
      return execute(updateOperation(key, changes));
    }
    return retrying(() -> updateOperation(key, changes));
  }

  /** Deletes the item if it is there; whether it was. */
  public boolean delete(Map<String, ?> key) {
    try {
      remove(key);
      return true;
    } catch (ViewbaseException e) {
      if (e.code() == ErrorCode.ItemNotFound) {
        return false;
      }
      throw e;
    }
  }

  /** Deletes the item; 404 ItemNotFound if it is not there. */
  public void remove(Map<String, ?> key) {
    remove(key, Condition.NONE);
  }

  public void remove(Map<String, ?> key, Condition condition) {
    execute(deleteOperation(key, condition));
  }

  /** Puts many items, at most 100 to a database batch (each batch atomic, the whole not). */
  public int batchPut(List<T> values) {
    List<Batch.Operation> ops = new ArrayList<>();
    for (T v : values) {
      ops.add(putOperation(v, Condition.NONE));
    }
    return commitChunks(ops);
  }

  /**
   * Deletes many items, at most 100 to a database batch; absent ones are refused with ItemNotFound.
   */
  public int batchDelete(List<? extends Map<String, ?>> keys) {
    List<Batch.Operation> ops = new ArrayList<>();
    for (Map<String, ?> k : keys) {
      ops.add(deleteOperation(k, Condition.NONE));
    }
    return commitChunks(ops);
  }

  /**
   * A query of an index; {@code key} gives every partition-key attribute and, optionally, leading
   * sort-key attributes.
   */
  public EntityQuery<T> query(String index, Map<String, ?> key) {
    return new EntityQuery<>(this, entity.layout(index), mapper.keyValues(key));
  }

  // ---- operations, shared with transactions ----

  Batch.Operation createOperation(T value) {
    return new Batch.Operation(Kind.INSERT, bound.table(), wholeItem(value), null);
  }

  Batch.Operation putOperation(T value, Condition condition) {
    Item item = wholeItem(value);
    if (condition.none()) {
      return new Batch.Operation(Kind.UPSERT, bound.table(), item, null);
    }
    return new Batch.Operation(
        Kind.REPLACE, bound.table(), item, ifMatch(identityOf(item), condition));
  }

  Batch.Operation upsertOperation(T value) {
    Item whole = wholeItem(value);
    Optional<Item> current = table().get(whole.partitionKey(), whole.id());
    if (current.isEmpty()) {
      return new Batch.Operation(Kind.INSERT, bound.table(), whole, null);
    }
    // An existing item keeps what only a create sets: read-only attributes and defaults.
    Map<String, Object> given = mapper.attributesOf(value);
    Map<String, Object> settable = new LinkedHashMap<>();
    given.forEach(
        (name, v) -> {
          Attribute a = declared(name);
          if (a == null || !a.isReadOnly() && !isPrimaryComposite(a)) {
            settable.put(name, v);
          }
        });
    Map<String, Value> props = mapper.stored(mapper.changes(settable, List.of()));
    return new Batch.Operation(
        Kind.MERGE,
        bound.table(),
        Item.of(whole.partitionKey(), whole.id(), props),
        current.get().etag());
  }

  Batch.Operation patchOperation(Map<String, ?> key, Changes changes, Condition condition) {
    Identity id = identity(key);
    Map<String, Value> props = mapper.stored(mapper.changes(changes.sets(), changes.removals()));
    if (changes.removals().isEmpty()) {
      return new Batch.Operation(
          Kind.MERGE,
          bound.table(),
          Item.of(id.partitionKey(), id.id(), props),
          condition.none() ? null : ifMatch(id, condition));
    }
    Item current = table().get(id.partitionKey(), id.id()).orElseThrow(() -> notFound(id));
    String etag = condition.none() ? current.etag() : ifMatch(id, condition);
    return new Batch.Operation(
        Kind.REPLACE, bound.table(), withChanges(current, props, changes), etag);
  }

  Batch.Operation updateOperation(Map<String, ?> key, Changes changes) {
    Identity id = identity(key);
    Map<String, Value> props = new LinkedHashMap<>(mapper.stored(mapper.keyValues(key)));
    props.putAll(mapper.markers());
    props.putAll(mapper.stored(mapper.changes(changes.sets(), changes.removals())));
    if (changes.removals().isEmpty()) {
      return new Batch.Operation(
          Kind.UPSERT_MERGE, bound.table(), Item.of(id.partitionKey(), id.id(), props), null);
    }
    Optional<Item> current = table().get(id.partitionKey(), id.id());
    if (current.isEmpty()) {
      return new Batch.Operation(
          Kind.INSERT, bound.table(), Item.of(id.partitionKey(), id.id(), props), null);
    }
    return new Batch.Operation(
        Kind.REPLACE,
        bound.table(),
        withChanges(current.get(), props, changes),
        current.get().etag());
  }

  Batch.Operation deleteOperation(Map<String, ?> key, Condition condition) {
    Identity id = identity(key);
    return new Batch.Operation(
        Kind.DELETE,
        bound.table(),
        Item.of(id.partitionKey(), id.id(), Map.of()),
        condition.none() ? null : ifMatch(id, condition));
  }

  Batch.Operation checkOperation(Map<String, ?> key, String etag) {
    Identity id = identity(key);
    return new Batch.Operation(
        Kind.CHECK, bound.table(), Item.of(id.partitionKey(), id.id(), Map.of()), etag);
  }

  Stored<T> stored(Item item) {
    return new Stored<>(mapper.toJava(mapper.read(item)), item.etag(), item);
  }

  T value(Item item) {
    return mapper.toJava(mapper.read(item));
  }

  ServiceTable bound() {
    return bound;
  }

  // ---- helpers ----

  /** The item's identity: the primary index's partition key and sort key. */
  record Identity(String partitionKey, String id) {}

  Identity identity(Map<String, ?> key) {
    Map<String, Value> values = mapper.keyValues(key);
    return identityOf(values);
  }

  private Identity identityOf(Map<String, Value> values) {
    IndexLayout primary = entity.primary();
    String pk = primary.pk().render(values);
    String id = primary.sk().render(values);
    if (pk == null || id == null) {
      List<String> missing = new ArrayList<>();
      missing.addAll(primary.pk().missing(values));
      missing.addAll(primary.sk().missing(values));
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "The key of '"
              + entity.name()
              + "' needs the attributes "
              + missing
              + " of its primary index '"
              + primary.index().name()
              + "'",
          "entity",
          entity.name(),
          "missing",
          String.join(", ", missing));
    }
    return new Identity(pk, id);
  }

  private static Identity identityOf(Item item) {
    return new Identity(item.partitionKey(), item.id());
  }

  private Item wholeItem(T value) {
    Map<String, Value> attrs = mapper.whole(mapper.attributesOf(value));
    Identity id = identityOf(attrs);
    Map<String, Value> props = mapper.stored(attrs);
    props.putAll(mapper.markers());
    return Item.of(id.partitionKey(), id.id(), props);
  }

  private Item withChanges(Item current, Map<String, Value> props, Changes changes) {
    Map<String, Value> next = new LinkedHashMap<>(current.properties());
    for (String name : changes.removals()) {
      Attribute a = declared(name);
      next.remove(a == null ? name : a.field());
    }
    next.putAll(props);
    return Item.of(current.partitionKey(), current.id(), next);
  }

  private Attribute declared(String name) {
    for (Attribute a : entity.attributes()) {
      if (a.name().equals(name)) {
        return a;
      }
    }
    return null;
  }

  private boolean isPrimaryComposite(Attribute a) {
    return entity.primary().pk().composites().contains(a)
        || entity.primary().sk().composites().contains(a);
  }

  /**
   * The ETag a conditional write must match: the given one, or the one read together with the where
   * filter.
   */
  private String ifMatch(Identity id, Condition condition) {
    if (condition.ifMatch() != null) {
      return condition.ifMatch();
    }
    String filter =
        Entity.allOf(
            new Filter.Compare("RowKey", Filter.Op.EQ, Value.of(id.id())), condition.where());
    Page page = table().query(Query.partition(id.partitionKey()).withFilter(filter).withLimit(1));
    if (page.items().isEmpty()) {
      if (table().get(id.partitionKey(), id.id()).isEmpty()) {
        throw notFound(id);
      }
      throw ViewbaseException.of(
          ErrorCode.PreconditionFailed,
          "The item of '" + entity.name() + "' does not match the write's condition",
          "entity",
          entity.name(),
          "partitionKey",
          id.partitionKey(),
          "id",
          id.id(),
          "condition",
          condition.where());
    }
    return page.items().get(0).etag();
  }

  private ViewbaseException notFound(Identity id) {
    return ViewbaseException.of(
        ErrorCode.ItemNotFound,
        "No item of '" + entity.name() + "' has this key",
        "entity",
        entity.name(),
        "partitionKey",
        id.partitionKey(),
        "id",
        id.id());
  }

  private Stored<T> retrying(java.util.function.Supplier<Batch.Operation> operation) {
    for (int attempt = 1; ; attempt++) {
      try {
        return execute(operation.get());
      } catch (ViewbaseException e) {
        boolean raced =
            e.code() == ErrorCode.PreconditionFailed || e.code() == ErrorCode.ItemAlreadyExists;
        if (!raced || attempt >= ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  private Stored<T> execute(Batch.Operation op) {
    Table t = table();
    Item item = op.item();
    try {
      Item result =
          switch (op.kind()) {
            case INSERT -> t.insert(item);
            case REPLACE -> t.replace(item, op.ifMatch());
            case UPSERT -> t.upsert(item);
            case MERGE -> t.merge(item, op.ifMatch());
            case UPSERT_MERGE -> t.upsertMerge(item);
            case DELETE -> {
              t.delete(item.partitionKey(), item.id(), op.ifMatch());
              yield null;
            }
            case CHECK ->
                throw new IllegalArgumentException("a check is only part of a transaction");
          };
      return result == null ? null : stored(result);
    } catch (ViewbaseException e) {
      throw bound.translate(e);
    }
  }

  private int commitChunks(List<Batch.Operation> ops) {
    for (int from = 0; from < ops.size(); from += Batch.MAX_OPERATIONS) {
      List<Batch.Operation> chunk =
          ops.subList(from, Math.min(ops.size(), from + Batch.MAX_OPERATIONS));
      try {
        bound.database().commit(Batch.of(chunk));
      } catch (ViewbaseException e) {
        throw bound.translate(e);
      }
    }
    return ops.size();
  }

  private Table table() {
    return bound.database().table(bound.table());
  }
}
