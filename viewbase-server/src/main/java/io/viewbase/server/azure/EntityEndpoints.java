package io.viewbase.server.azure;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.ItemMapping;
import io.viewbase.api.Page;
import io.viewbase.api.Query;
import io.viewbase.api.Table;
import io.viewbase.api.ViewbaseException;
import io.viewbase.filter.Filter;
import io.viewbase.filter.FilterDialect;
import io.viewbase.filter.Filters;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Entity operations: Insert, Get, Update, Merge, their upsert forms, Delete, and Query Entities,
 * each one call on the table's {@link Table}. The writes use the table's asynchronous calls and
 * answer with a future, so that the event loop can serve them without waiting for a log sync.
 *
 * <pre>
 * method            | If-Match   | Table call            | answer
 * ------------------+------------+-----------------------+--------------------------------------------
 * POST /t           | -          | insert                | 201 + entity (204 with return-no-content)
 * GET /t(pk,rk)     | -          | get                   | 200 + entity + ETag (404 ResourceNotFound)
 * PUT /t(pk,rk)     | none       | upsert                | 204 + ETag
 * PUT /t(pk,rk)     | * or ETag  | replace               | 204 (404 absent, 412 stale)
 * MERGE/PATCH       | none       | upsertMerge           | 204 + ETag
 * MERGE/PATCH       | * or ETag  | merge                 | 204 (404 absent, 412 stale)
 * DELETE /t(pk,rk)  | * or ETag  | delete                | 204 (404 absent, 412 stale)
 * GET /t()          | -          | query (one page)      | 200 + {value: [...]} + continuation header
 * </pre>
 *
 * Keys in the URL are the entity's identity; keys in a body that differ from them are refused.
 * Property names, in bodies, {@code $select} and {@code $filter}, are Azure's and map onto stored
 * names through {@link PropertyNames} ({@code id} is the stored {@code $id}).
 */
final class EntityEndpoints {
  static final String NEXT_PARTITION_KEY = "x-ms-continuation-NextPartitionKey";
  static final int MAX_PAGE = 1000;

  private final Database db;

  EntityEndpoints(Database db) {
    this.db = db;
  }

  Table table(String name) {
    return db.table(name);
  }

  /** Insert: the stored entity once the write is durable (the database's asynchronous write). */
  CompletableFuture<Item> insert(Call call) {
    String tableName = call.path().table();
    EntityReader.Entity e = EntityReader.read(call.request().body());
    AzureKeys.checkWritable("PartitionKey", e.partitionKey());
    AzureKeys.checkWritable("RowKey", e.rowKey());
    call.grant().checkEntity(Permission.INSERT, tableName, e.partitionKey(), e.rowKey());
    return table(tableName).insertAsync(item(e.partitionKey(), e.rowKey(), e));
  }

  /**
   * The answer to a single-entity write that stored {@code stored} (null: deleted): Insert's 201
   * with the entity (204 with return-no-content), 204 with the ETag for the others.
   */
  AzureResponse answer(Call call, Item stored) {
    if (stored == null) {
      return AzureResponse.empty(204);
    }
    String method = call.request().method();
    if (!method.equals("POST") || call.path().kind() != ResourcePath.Kind.ENTITIES) {
      return AzureResponse.empty(204).with("ETag", stored.etag());
    }
    Boolean noContent = call.prefersNoContent();
    if (Boolean.TRUE.equals(noContent)) {
      return AzureResponse.empty(204)
          .with("ETag", stored.etag())
          .with("Preference-Applied", "return-no-content");
    }
    byte[] body = EntityWriter.single(stored, shape(call, table(call.path().table()).name(), null));
    return AzureResponse.of(201, call.level().contentType(), body)
        .with("ETag", stored.etag())
        .with("Preference-Applied", noContent == null ? null : "return-content");
  }

  AzureResponse get(Call call) {
    ResourcePath path = call.path();
    call.grant().checkEntity(Permission.READ, path.table(), path.partitionKey(), path.rowKey());
    Table table = table(path.table());
    Optional<Rendered> entity =
        table.get(
            path.partitionKey(),
            path.rowKey(),
            new Rendering(shape(call, table.name(), select(call))));
    if (entity.isEmpty()) {
      throw ViewbaseException.of(
          ErrorCode.ItemNotFound,
          "Item not found",
          "table",
          table.name(),
          "partitionKey",
          path.partitionKey(),
          "id",
          path.rowKey());
    }
    return AzureResponse.of(200, call.level().contentType(), entity.get().body())
        .with("ETag", entity.get().etag());
  }

  /**
   * An entity as Get Entity answers it in one shape; while the database caches the entity, a repeat
   * read in the same shape sends the bytes rendered the first time.
   */
  private record Rendering(EntityWriter.Shape shape) implements ItemMapping<Rendered> {
    /**
     * Equal when the shapes are: every cache hit compares them, so not a record's generated equals.
     */
    @Override
    public boolean equals(Object other) {
      return other instanceof Rendering r && shape.equals(r.shape);
    }

    @Override
    public int hashCode() {
      return shape.hashCode();
    }

    @Override
    public Rendered map(Item item) {
      return new Rendered(EntityWriter.single(item, shape), item.etag());
    }

    @Override
    public long weight(Rendered r) {
      // the record, the body, the ETag string; and this mapping, which the cache keeps with it
      return 16
          + 16
          + r.body().length
          + 40
          + r.etag().length()
          + 16
          + 48
          + 3 * 40
          + shape.table().length()
          + shape.account().length()
          + shape.baseUrl().length();
    }
  }

  /** A rendered entity: never changed once made, since the body may go to many connections. */
  private record Rendered(byte[] body, String etag) {}

  /** PUT: replace (with If-Match) or insert-or-replace (without); the stored entity. */
  CompletableFuture<Item> update(Call call) {
    return write(call, false);
  }

  /** MERGE or PATCH: merge (with If-Match) or insert-or-merge (without); the stored entity. */
  CompletableFuture<Item> merge(Call call) {
    return write(call, true);
  }

  private CompletableFuture<Item> write(Call call, boolean merge) {
    ResourcePath path = call.path();
    Item item = addressed(path, EntityReader.read(call.request().body()));
    String ifMatch = AzureKeys.checkIfMatch(call.header("if-match"));
    call.grant()
        .checkEntity(
            ifMatch == null ? Permission.UPSERT : Permission.UPDATE,
            path.table(),
            path.partitionKey(),
            path.rowKey());
    Table table = table(path.table());
    if (ifMatch == null) {
      return merge ? table.upsertMergeAsync(item) : table.upsertAsync(item);
    }
    return merge ? table.mergeAsync(item, ifMatch) : table.replaceAsync(item, ifMatch);
  }

  /** The entity a write addresses: the URL's keys with the body's properties. */
  static Item addressed(ResourcePath path, EntityReader.Entity e) {
    AzureKeys.checkWritable("PartitionKey", path.partitionKey());
    AzureKeys.checkWritable("RowKey", path.rowKey());
    if ((e.partitionKey() != null && !e.partitionKey().equals(path.partitionKey()))
        || (e.rowKey() != null && !e.rowKey().equals(path.rowKey()))) {
      throw new ViewbaseException(
          ErrorCode.KeyMismatch,
          "The PartitionKey and RowKey in the body differ from those "
              + "in the URL; an entity's keys never change (insert the new entity and delete the old one in a batch).");
    }
    return item(path.partitionKey(), path.rowKey(), e);
  }

  /** The item an entity write stores, once its size is within Azure's limit. */
  static Item item(String partitionKey, String rowKey, EntityReader.Entity e) {
    EntitySize.check(partitionKey, rowKey, e.properties());
    return Item.of(partitionKey, rowKey, e.properties());
  }

  /** Delete; completes with null once the entity is deleted. */
  CompletableFuture<Item> delete(Call call) {
    ResourcePath path = call.path();
    String ifMatch = AzureKeys.checkIfMatch(call.header("if-match"));
    call.grant().checkEntity(Permission.DELETE, path.table(), path.partitionKey(), path.rowKey());
    return table(path.table())
        .deleteAsync(path.partitionKey(), path.rowKey(), ifMatch)
        .thenApply(deleted -> null);
  }

  AzureResponse query(Call call) {
    String tableName = call.path().table();
    call.grant().check(Permission.READ, tableName);
    Table table = table(tableName);
    QueryString q = call.query();
    int top = top(q.get("$top"));
    Set<String> select = select(call);
    // The client's filter and the grant's key range meet as parsed trees, so no text can escape the
    // range.
    Filter restricted = call.grant().restrict(PropertyNames.parseFilter(q.get("$filter")));
    String filter = restricted == null ? null : Filters.print(restricted);
    if (top == 0) {
      return AzureResponse.of(
          200,
          call.level().contentType(),
          EntityWriter.page(List.of(), shape(call, table.name(), select)));
    }
    Query query =
        Query.all()
            .withFilter(filter)
            .withLimit(top)
            .withContinuation(emptyToNull(q.get("NextPartitionKey")));
    if (select != null) {
      List<String> properties = new ArrayList<>();
      for (String name : select) {
        if (!name.equals("PartitionKey")
            && !name.equals("RowKey")
            && !name.equals("Timestamp")
            && !name.startsWith(FilterDialect.ESCAPE)) {
          properties.add(PropertyNames.stored(name));
        }
      }
      if (!properties.isEmpty()) {
        query = query.withSelect(properties);
      }
    }
    Page page = table.query(query);
    byte[] body = EntityWriter.page(page.items(), shape(call, table.name(), select));
    // Viewbase's continuation token is opaque, URL-safe base64 without ';': it travels whole as
    // NextPartitionKey and comes back as that query parameter.
    return AzureResponse.of(200, call.level().contentType(), body)
        .with(NEXT_PARTITION_KEY, page.continuation());
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }

  private static int top(String text) {
    if (text == null) {
      return MAX_PAGE;
    }
    try {
      int top = Integer.parseInt(text.trim());
      if (top < 0) {
        throw new NumberFormatException();
      }
      return Math.min(top, MAX_PAGE);
    } catch (NumberFormatException e) {
      throw ViewbaseException.of(
          ErrorCode.InvalidQuery,
          "$top must be a whole number from 0 to 1000",
          "parameter",
          "$top",
          "value",
          text);
    }
  }

  /** The {@code $select} names, or null for every property. */
  static Set<String> select(Call call) {
    String text = call.query().get("$select");
    if (text == null || text.isBlank() || text.trim().equals("*")) {
      return null;
    }
    Set<String> names = new LinkedHashSet<>();
    for (String name : text.split(",")) {
      if (!name.isBlank()) {
        names.add(name.trim());
      }
    }
    return names;
  }

  static EntityWriter.Shape shape(Call call, String table, Set<String> select) {
    return new EntityWriter.Shape(
        table, call.path().account(), call.path().baseUrl(), call.level(), select);
  }
}
