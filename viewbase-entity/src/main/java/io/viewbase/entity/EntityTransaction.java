package io.viewbase.entity;

import io.viewbase.api.Batch;
import io.viewbase.api.BatchResult;
import io.viewbase.api.Item;
import io.viewbase.api.Stability;
import io.viewbase.api.ViewbaseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes to items of any entities of a service, committed by {@code Database.commit} as one batch:
 * all of them with every index in step, or none (up to 100 operations). Each operation is checked
 * and keyed as its single-write form is; an operation that needs a read (a where condition, a
 * removal, an upsert) reads when it is added, and the batch commits only if that item is still as
 * read. A failure names the failing operation's {@code operationIndex}.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class EntityTransaction {
  private final ServiceTable bound;
  private final List<Batch.Operation> operations = new ArrayList<>();
  private final List<EntityClient<?>> clients = new ArrayList<>();

  EntityTransaction(ServiceTable bound) {
    this.bound = bound;
  }

  public <T> EntityTransaction create(Entity<T> entity, T value) {
    EntityClient<T> c = bound.entity(entity);
    return add(c, c.createOperation(value));
  }

  public <T> EntityTransaction put(Entity<T> entity, T value) {
    return put(entity, value, Condition.NONE);
  }

  public <T> EntityTransaction put(Entity<T> entity, T value, Condition condition) {
    EntityClient<T> c = bound.entity(entity);
    return add(c, c.putOperation(value, condition));
  }

  public <T> EntityTransaction upsert(Entity<T> entity, T value) {
    EntityClient<T> c = bound.entity(entity);
    return add(c, c.upsertOperation(value));
  }

  public EntityTransaction patch(
      Entity<?> entity, Map<String, ?> key, Changes changes, Condition condition) {
    EntityClient<?> c = bound.entity(entity);
    return add(c, c.patchOperation(key, changes, condition));
  }

  public EntityTransaction update(Entity<?> entity, Map<String, ?> key, Changes changes) {
    EntityClient<?> c = bound.entity(entity);
    return add(c, c.updateOperation(key, changes));
  }

  public EntityTransaction remove(Entity<?> entity, Map<String, ?> key, Condition condition) {
    EntityClient<?> c = bound.entity(entity);
    return add(c, c.deleteOperation(key, condition));
  }

  /**
   * Commits only if the item is at {@code etag} (an ETag), present ("*"), or absent (null); writes
   * nothing to it.
   */
  public EntityTransaction check(Entity<?> entity, Map<String, ?> key, String etag) {
    EntityClient<?> c = bound.entity(entity);
    return add(c, c.checkOperation(key, etag));
  }

  /** Commits; for each operation in order, the stored item (null for remove and check). */
  public List<Stored<?>> commit() {
    BatchResult result;
    try {
      result = bound.database().commit(Batch.of(operations));
    } catch (ViewbaseException e) {
      throw bound.translate(e);
    }
    List<Stored<?>> out = new ArrayList<>();
    for (int i = 0; i < result.items().size(); i++) {
      Item item = result.items().get(i);
      out.add(item == null ? null : clients.get(i).stored(item));
    }
    return out;
  }

  private EntityTransaction add(EntityClient<?> client, Batch.Operation op) {
    clients.add(client);
    operations.add(op);
    return this;
  }
}
