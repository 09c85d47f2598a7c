package io.viewbase.entity;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Stability;
import io.viewbase.api.Table;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewbaseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A service on one table of a database, embedded or remote: the entry point to its entities,
 * collections, transactions and migrations. Holds no state of its own beyond the names it derives.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class ServiceTable {
  private final Service service;
  private final Database db;
  private final String table;
  private final Map<String, Target> viewsByName = new LinkedHashMap<>();

  /** A view and the index it keeps. */
  record Target(Entity<?> entity, IndexLayout layout, ViewDefinition view) {}

  ServiceTable(Service service, Database db, String table) {
    this.service = service;
    this.db = db;
    this.table = table;
    try {
      db.createTable(table);
    } catch (ViewbaseException e) {
      if (e.code() != ErrorCode.TableAlreadyExists) {
        throw e;
      }
    }
    for (Entity<?> entity : service.entities()) {
      for (IndexLayout layout : entity.layouts()) {
        if (!layout.index().primary()) {
          ViewDefinition view = layout.view(table, entity.name());
          viewsByName.put(view.name(), new Target(entity, layout, view));
        }
      }
    }
  }

  public Service service() {
    return service;
  }

  public Database database() {
    return db;
  }

  public String table() {
    return table;
  }

  /** The operations of one entity of this service. */
  public <T> EntityClient<T> entity(Entity<T> entity) {
    if (!service.contains(entity)) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "The entity '"
              + entity.name()
              + "' is not part of the "
              + "service '"
              + service.name()
              + "'",
          "service",
          service.name(),
          "entity",
          entity.name());
    }
    return new EntityClient<>(this, entity);
  }

  /**
   * A query of a collection: every member entity's items under one partition key, grouped by
   * entity.
   */
  public CollectionQuery collection(String name, Map<String, ?> partitionKey) {
    return new CollectionQuery(this, name, service.members(name), partitionKey);
  }

  /** A transaction: writes to items of any entities, committed together or not at all. */
  public EntityTransaction transaction() {
    return new EntityTransaction(this);
  }

  /**
   * Creates the view of every secondary index that does not exist yet (they backfill online: the
   * database maintains them from every write while copying existing items), and names the views of
   * earlier definitions, which stay until {@link Migration#dropObsolete}.
   */
  public Migration migrate() {
    return Migration.start(this);
  }

  /** The views the current definitions need, one per secondary index. */
  public List<ViewDefinition> views() {
    List<ViewDefinition> out = new ArrayList<>();
    viewsByName.values().forEach(t -> out.add(t.view()));
    return out;
  }

  /** The view name of an entity's secondary index on this table. */
  public String viewName(Entity<?> entity, String index) {
    return entity.layout(index).view(table, entity.name()).name();
  }

  Table tableFor(Entity<?> entity, IndexLayout layout) {
    return layout.index().primary()
        ? db.table(table)
        : db.table(layout.view(table, entity.name()).name());
  }

  /**
   * A clearer error for a duplicate in a unique index: the database names the view and key; the
   * caller wants the entity, the index and the attributes.
   */
  RuntimeException translate(ViewbaseException e) {
    if (e.code() != ErrorCode.ViewKeyConflict) {
      return e;
    }
    Target t = viewsByName.get(String.valueOf(e.context().get("view")));
    if (t == null || !t.layout().unique()) {
      return e;
    }
    List<String> attributes = new ArrayList<>();
    t.layout().pk().composites().forEach(a -> attributes.add(a.name()));
    t.layout().sk().composites().forEach(a -> attributes.add(a.name()));
    Map<String, Object> context = new LinkedHashMap<>(e.context());
    context.put("entity", t.entity().name());
    context.put("index", t.layout().index().name());
    context.put("attributes", String.join(", ", attributes));
    return new ViewbaseException(
        ErrorCode.ViewKeyConflict,
        "Another '"
            + t.entity().name()
            + "' already has this "
            + String.join(", ", attributes)
            + " (unique index '"
            + t.layout().index().name()
            + "')",
        context,
        e);
  }
}
