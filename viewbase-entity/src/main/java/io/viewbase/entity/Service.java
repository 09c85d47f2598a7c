package io.viewbase.entity;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Stability;
import io.viewbase.api.ViewbaseException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A service: the entities that share one table, and the collections that join them. Built once,
 * checked once: an entity of another service, two entities of one name, or a collection whose
 * members do not share a partition-key format fails here, before any data is touched.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class Service {
  /** One entity's index in a collection. */
  record Member(Entity<?> entity, IndexLayout layout) {}

  private final String name;
  private final Map<String, Entity<?>> entities;
  private final Map<String, List<Member>> collections;

  private Service(
      String name, Map<String, Entity<?>> entities, Map<String, List<Member>> collections) {
    this.name = name;
    this.entities = entities;
    this.collections = collections;
  }

  public static Builder define(String name) {
    return new Builder(name);
  }

  public String name() {
    return name;
  }

  public List<Entity<?>> entities() {
    return List.copyOf(entities.values());
  }

  /** The names of the collections, each joining the indexes of several entities. */
  public List<String> collections() {
    return List.copyOf(collections.keySet());
  }

  List<Member> members(String collection) {
    List<Member> members = collections.get(collection);
    if (members == null) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "The service '" + name + "' has no collection '" + collection + "'",
          "service",
          name,
          "collection",
          collection);
    }
    return members;
  }

  boolean contains(Entity<?> entity) {
    return entities.get(entity.name()) == entity;
  }

  /**
   * This service on a table of a database (the table is created if absent; views are not touched).
   */
  public ServiceTable bind(Database db, String table) {
    return new ServiceTable(this, db, table);
  }

  /**
   * Binds, creates every index's view that is missing, and waits until all are ready: for a new
   * table, or tests. For a table with data, {@link ServiceTable#migrate} builds views online
   * instead.
   */
  public ServiceTable open(Database db, String table, Duration timeout) {
    ServiceTable bound = bind(db, table);
    bound.migrate().awaitReady(timeout);
    return bound;
  }

  /** Collects entities. */
  public static final class Builder {
    private final String name;
    private final Map<String, Entity<?>> entities = new LinkedHashMap<>();

    private Builder(String name) {
      this.name = name;
    }

    public Builder entity(Entity<?> entity) {
      if (!entity.service().equals(name)) {
        throw ViewbaseException.of(
            ErrorCode.InvalidInput,
            "The entity '"
                + entity.name()
                + "' belongs to the service '"
                + entity.service()
                + "', not '"
                + name
                + "'",
            "service",
            name,
            "entity",
            entity.name());
      }
      if (entities.putIfAbsent(entity.name(), entity) != null) {
        throw ViewbaseException.of(
            ErrorCode.InvalidInput,
            "The service '" + name + "' has two entities named '" + entity.name() + "'",
            "service",
            name,
            "entity",
            entity.name());
      }
      return this;
    }

    public Service build() {
      Map<String, List<Member>> collections = new LinkedHashMap<>();
      for (Entity<?> e : entities.values()) {
        for (IndexLayout layout : e.layouts()) {
          String c = layout.index().collection();
          if (c != null) {
            List<Member> members = collections.computeIfAbsent(c, k -> new ArrayList<>());
            if (!members.isEmpty()) {
              checkSamePartitionKey(c, members.get(0), new Member(e, layout));
            }
            if (members.stream().anyMatch(m -> m.entity() == e)) {
              throw ViewbaseException.of(
                  ErrorCode.InvalidInput,
                  "The entity '" + e.name() + "' joins the collection '" + c + "' with two indexes",
                  "service",
                  name,
                  "collection",
                  c,
                  "entity",
                  e.name());
            }
            members.add(new Member(e, layout));
          }
        }
      }
      collections.replaceAll((k, v) -> List.copyOf(v));
      return new Service(
          name,
          java.util.Collections.unmodifiableMap(new LinkedHashMap<>(entities)),
          java.util.Collections.unmodifiableMap(collections));
    }

    /**
     * The members of a collection are read with one partition key, so their partition keys must be
     * built alike: the same namespace, the same composite labels in the same order, the same
     * casing.
     */
    private void checkSamePartitionKey(String collection, Member first, Member next) {
      Index a = first.layout().index();
      Index b = next.layout().index();
      String entities = first.entity().name() + ", " + next.entity().name();
      if (!a.namespace().equals(b.namespace())) {
        throw ViewbaseException.of(
            ErrorCode.InvalidInput,
            "The collection '"
                + collection
                + "' joins entities whose "
                + "partition-key namespaces differ: '"
                + first.entity().name()
                + "' (index '"
                + a.name()
                + "') has "
                + a.namespace()
                + " and '"
                + next.entity().name()
                + "' (index '"
                + b.name()
                + "') has "
                + b.namespace()
                + "; members of a collection are read with one partition key, so give them the same namespace",
            "service",
            name,
            "collection",
            collection,
            "entities",
            entities,
            "namespaces",
            a.namespace() + " vs " + b.namespace());
      }
      List<String> labelsA =
          first.layout().pk().composites().stream().map(Attribute::label).toList();
      List<String> labelsB =
          next.layout().pk().composites().stream().map(Attribute::label).toList();
      if (!labelsA.equals(labelsB)
          || a.pk().casing() != b.pk().casing()
          || !java.util.Objects.equals(a.pk().template(), b.pk().template())) {
        throw ViewbaseException.of(
            ErrorCode.InvalidInput,
            "The collection '"
                + collection
                + "' joins entities whose "
                + "partition keys are built differently: '"
                + first.entity().name()
                + "' has "
                + labelsA
                + " ("
                + a.pk().casing()
                + ") and '"
                + next.entity().name()
                + "' has "
                + labelsB
                + " ("
                + b.pk().casing()
                + ")",
            "service",
            name,
            "collection",
            collection,
            "entities",
            entities);
      }
    }
  }
}
