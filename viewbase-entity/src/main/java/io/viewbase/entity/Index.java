package io.viewbase.entity;

import io.viewbase.api.Stability;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * An access pattern of an entity. The primary index is the item's own identity: its partition key
 * is the item's partition key and its sort key the item's id. Every other index is a Viewbase view
 * that the database derives from the whole stored item, so an update can never leave its key stale.
 *
 * @param name the index's name, used in queries ({@code users.query("byOrg", ...)})
 * @param primary whether this is the item's identity
 * @param pk the partition key
 * @param sk the sort key
 * @param namespace static parts placed after {@code $service} in the partition key; callers never
 *     give them
 * @param collection the collection this index joins: entities whose indexes share a collection name
 *     share a partition-key format and are queried together
 * @param condition an OData $filter over stored fields; only items matching it are in the index
 *     (sparse)
 * @param isUnique the index's key identifies one item across the whole table: a second item with
 *     the same key is refused (409 ViewKeyConflict)
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record Index(
    String name,
    boolean primary,
    KeyDefinition pk,
    KeyDefinition sk,
    List<String> namespace,
    String collection,
    String condition,
    boolean isUnique) {

  public Index {
    Objects.requireNonNull(name, "name");
    pk = pk == null ? KeyDefinition.NONE : pk;
    sk = sk == null ? KeyDefinition.NONE : sk;
    namespace = namespace == null ? List.of() : List.copyOf(namespace);
  }

  /** The primary index: the item's partition key and id. */
  public static Index primary(String name) {
    return new Index(name, true, null, null, null, null, null, false);
  }

  /** A secondary index, kept by a view. */
  public static Index secondary(String name) {
    return new Index(name, false, null, null, null, null, null, false);
  }

  public Index pk(String... composite) {
    return pk(new KeyDefinition(Arrays.asList(composite), null, pk.casing()));
  }

  public Index pk(KeyDefinition key) {
    return new Index(name, primary, key, sk, namespace, collection, condition, isUnique);
  }

  public Index sk(String... composite) {
    return sk(new KeyDefinition(Arrays.asList(composite), null, sk.casing()));
  }

  public Index sk(KeyDefinition key) {
    return new Index(name, primary, pk, key, namespace, collection, condition, isUnique);
  }

  /** Cases both keys. */
  public Index casing(Casing casing) {
    return new Index(
        name,
        primary,
        pk.withCasing(casing),
        sk.withCasing(casing),
        namespace,
        collection,
        condition,
        isUnique);
  }

  public Index namespace(String... parts) {
    return new Index(name, primary, pk, sk, Arrays.asList(parts), collection, condition, isUnique);
  }

  public Index collection(String collectionName) {
    return new Index(name, primary, pk, sk, namespace, collectionName, condition, isUnique);
  }

  public Index condition(String odataFilter) {
    return new Index(name, primary, pk, sk, namespace, collection, odataFilter, isUnique);
  }

  public Index unique() {
    return new Index(name, primary, pk, sk, namespace, collection, condition, true);
  }
}
