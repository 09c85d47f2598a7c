package io.viewbase.entity;

import io.viewbase.api.Batch;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.ItemCursor;
import io.viewbase.api.Query;
import io.viewbase.api.Stability;
import io.viewbase.api.TableInfo;
import io.viewbase.api.Value;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import io.viewbase.api.ViewbaseException;
import io.viewbase.filter.Filter;
import io.viewbase.filter.Filters;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Moving a service's table to its current definitions, online. Each secondary index is a view whose
 * name carries a hash of everything it is built from, so a new entity version or a changed index is
 * a new view: it is created beside the old one and backfilled by the database while writes go on
 * (every write maintains it from the moment it exists). Old and new views coexist — code still on
 * the old definitions reads the old views — until {@link #dropObsolete} once the new ones are
 * ready.
 *
 * <pre>
 * step              | what happens
 * ------------------+----------------------------------------------------------------------
 * migrate()         | creates every missing view; names the obsolete ones (this service's
 *                   | views on the table that no current index needs)
 * progress()        | each new view's state and backfill progress (done/total, rate, ETA)
 * awaitReady(t)     | waits until every current view is ready; a failed one (two items with
 *                   | one key of a unique index) is an error naming its conflicts
 * rekeyItems()      | moves items whose primary key changed (a version bump) to their new key
 * dropObsolete()    | after the switch: drops the old views
 * </pre>
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class Migration {
  private final ServiceTable bound;
  private final List<String> created;
  private final List<String> obsolete;

  private Migration(ServiceTable bound, List<String> created, List<String> obsolete) {
    this.bound = bound;
    this.created = List.copyOf(created);
    this.obsolete = List.copyOf(obsolete);
  }

  static Migration start(ServiceTable bound) {
    Database db = bound.database();
    List<String> existing = new ArrayList<>();
    for (TableInfo info : db.listTables()) {
      if (TableInfo.VIEW.equals(info.kind()) && bound.table().equalsIgnoreCase(info.source())) {
        existing.add(info.name());
      }
    }
    List<String> created = new ArrayList<>();
    List<String> wanted = new ArrayList<>();
    for (ViewDefinition view : bound.views()) {
      wanted.add(view.name());
      if (existing.stream().noneMatch(view.name()::equalsIgnoreCase)) {
        try {
          db.createView(view);
          created.add(view.name());
        } catch (ViewbaseException e) {
          if (e.code() != ErrorCode.TableAlreadyExists) { // another process created it first
            throw e;
          }
        }
      }
    }
    List<String> obsolete = new ArrayList<>();
    for (String name : existing) {
      if (wanted.stream().noneMatch(name::equalsIgnoreCase)
          && isOfService(db.viewStatus(name).definition().where(), bound.service().name())) {
        obsolete.add(name);
      }
    }
    return new Migration(bound, created, obsolete);
  }

  /**
   * Whether a view's where is an entity's of this service: its first condition is {@code vb_service
   * eq 'name'}.
   */
  private static boolean isOfService(String where, String service) {
    if (where == null) {
      return false;
    }
    Filter first;
    try {
      first = Filters.parse(where);
    } catch (ViewbaseException notOurs) {
      return false;
    }
    while (first instanceof Filter.And and) {
      first = and.left();
    }
    return first.equals(new Filter.Compare(Entity.SERVICE_FIELD, Filter.Op.EQ, Value.of(service)));
  }

  /** The views this migration created (empty when everything already existed). */
  public List<String> created() {
    return created;
  }

  /** This service's views on the table that the current definitions no longer use. */
  public List<String> obsolete() {
    return obsolete;
  }

  /** Each current view's state and backfill progress, by view name. */
  public Map<String, ViewStatus> progress() {
    Map<String, ViewStatus> out = new LinkedHashMap<>();
    for (ViewDefinition view : bound.views()) {
      out.put(view.name(), bound.database().viewStatus(view.name()));
    }
    return out;
  }

  /** Whether every current view is ready; a failed view is an error. */
  public boolean isReady() {
    boolean ready = true;
    for (Map.Entry<String, ViewStatus> e : progress().entrySet()) {
      ViewStatus s = e.getValue();
      if (ViewStatus.FAILED.equals(s.state())) {
        throw ViewbaseException.of(
            ErrorCode.ViewKeyConflict,
            "The view "
                + e.getKey()
                + " failed to build: "
                + "items share a key of a unique index; fix them, drop the view and migrate again",
            "view",
            e.getKey(),
            "conflicts",
            s.conflicts().toString());
      }
      ready &= s.isReady();
    }
    return ready;
  }

  /**
   * Waits until every current view is ready; a view not ready in time (or an interrupt) is a
   * Timeout error.
   */
  public Migration awaitReady(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!isReady()) {
      if (System.nanoTime() > deadline) {
        throw ViewbaseException.of(
            ErrorCode.Timeout,
            "The views were not ready within " + timeout,
            "table",
            bound.table());
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw ViewbaseException.of(
            ErrorCode.Timeout, "Interrupted while waiting for views", "table", bound.table());
      }
    }
    return this;
  }

  /** Drops the obsolete views: the switch is done. Refused while a current view is not ready. */
  public void dropObsolete() {
    if (!isReady()) {
      throw ViewbaseException.of(
          ErrorCode.ViewNotReady,
          "The new views are not ready yet; the old ones are still " + "the only complete indexes",
          "table",
          bound.table());
    }
    for (String name : obsolete) {
      bound.database().dropView(name);
    }
  }

  /**
   * Moves every item whose primary key is not the one its entity's current definition gives (after
   * a version bump, or a changed primary index) to that key: one batch per item inserts the new
   * item and deletes the old one at the ETag read, so a concurrent write is never lost (the item is
   * then read again and moved on a later pass). Secondary views follow each move in the same
   * commit. An item whose new key is already taken is left where it is and counted.
   */
  public RekeyReport rekeyItems() {
    long examined = 0;
    long moved = 0;
    long taken = 0;
    for (Entity<?> entity : bound.service().entities()) {
      Query all = Query.all().withFilter(entity.identityFilter());
      List<Item> stale = new ArrayList<>();
      try (ItemCursor items = bound.database().table(bound.table()).cursor(all)) {
        while (items.hasNext()) {
          Item item = items.next();
          examined++;
          if (newKey(entity, item) != null) {
            stale.add(item);
          }
        }
      }
      for (Item item : stale) {
        Item target = newKey(entity, item);
        if (target == null) {
          continue;
        }
        try {
          bound
              .database()
              .commit(
                  Batch.builder()
                      .insert(bound.table(), target)
                      .delete(bound.table(), item.partitionKey(), item.id(), item.etag())
                      .build());
          moved++;
        } catch (ViewbaseException e) {
          if (e.code() == ErrorCode.ItemAlreadyExists) {
            taken++;
          } else if (e.code() != ErrorCode.PreconditionFailed
              && e.code() != ErrorCode.ItemNotFound) {
            throw bound.translate(e);
          }
        }
      }
    }
    return new RekeyReport(examined, moved, taken);
  }

  /** The item at its current key with the current version, or null if it is already there. */
  private static Item newKey(Entity<?> entity, Item item) {
    Map<String, Value> byName = entity.mapper().storedByName(item);
    String pk = entity.primary().pk().render(byName);
    String id = entity.primary().sk().render(byName);
    if (pk == null || id == null || pk.equals(item.partitionKey()) && id.equals(item.id())) {
      return null;
    }
    Map<String, Value> props = new LinkedHashMap<>(item.properties());
    props.putAll(entity.mapper().markers());
    return Item.of(pk, id, props);
  }

  /**
   * What {@link #rekeyItems} did.
   *
   * @param examined items of the service's entities read
   * @param moved items moved to their new key
   * @param taken items left in place because their new key held another item
   */
  public record RekeyReport(long examined, long moved, long taken) {}
}
