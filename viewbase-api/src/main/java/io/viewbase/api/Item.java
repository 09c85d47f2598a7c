package io.viewbase.api;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * An immutable JSON item: its identity {@code (partitionKey, id)}, its typed properties, and, once
 * stored, the system properties {@code _etag} and {@code _timestamp}. Identity never changes: an
 * item with another partition key or id is another item.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class Item {
  private final String partitionKey;
  private final String id;
  private final Map<String, Value> properties;
  private final String etag;
  private final Instant timestamp;
  private final String sourcePartitionKey;
  private final String sourceId;

  private Item(
      String partitionKey,
      String id,
      Map<String, Value> properties,
      String etag,
      Instant timestamp,
      String sourcePartitionKey,
      String sourceId) {
    this.partitionKey = Objects.requireNonNull(partitionKey, "partitionKey");
    this.id = Objects.requireNonNull(id, "id");
    this.properties = properties;
    this.etag = etag;
    this.timestamp = timestamp;
    this.sourcePartitionKey = sourcePartitionKey;
    this.sourceId = sourceId;
  }

  /** An item with the given identity and properties and no system properties (not yet stored). */
  public static Item of(String partitionKey, String id, Map<String, Value> properties) {
    return new Item(
        partitionKey,
        id,
        Collections.unmodifiableMap(new LinkedHashMap<>(properties)),
        null,
        null,
        null,
        null);
  }

  /** A stored item: for engines and codecs, which have already copied the property map. */
  @Stability(Stability.Level.INTERNAL)
  public static Item stored(
      String partitionKey,
      String id,
      Map<String, Value> unmodifiableProperties,
      String etag,
      Instant timestamp) {
    return new Item(partitionKey, id, unmodifiableProperties, etag, timestamp, null, null);
  }

  /** A stored view item, which records the identity of the source item it was copied from. */
  @Stability(Stability.Level.INTERNAL)
  public static Item storedView(
      String partitionKey,
      String id,
      Map<String, Value> unmodifiableProperties,
      String etag,
      Instant timestamp,
      String sourcePartitionKey,
      String sourceId) {
    return new Item(
        partitionKey, id, unmodifiableProperties, etag, timestamp, sourcePartitionKey, sourceId);
  }

  public static Builder builder(String partitionKey, String id) {
    return new Builder(partitionKey, id);
  }

  public String partitionKey() {
    return partitionKey;
  }

  public String id() {
    return id;
  }

  /** The user properties in their stored order (system properties are not among them). */
  public Map<String, Value> properties() {
    return properties;
  }

  public Optional<Value> get(String property) {
    return Optional.ofNullable(properties.get(property));
  }

  /** The current ETag, or null for an item that was never stored. */
  public String etag() {
    return etag;
  }

  /** Server time of the last write, or null for an item that was never stored. */
  public Instant timestamp() {
    return timestamp;
  }

  /**
   * For an item read from a view: the partition key of the source item it copies; otherwise null.
   */
  public String sourcePartitionKey() {
    return sourcePartitionKey;
  }

  /** For an item read from a view: the id of the source item it copies; otherwise null. */
  public String sourceId() {
    return sourceId;
  }

  /** The same identity and system properties with other user properties. */
  public Item withProperties(Map<String, Value> newProperties) {
    return new Item(
        partitionKey,
        id,
        Collections.unmodifiableMap(new LinkedHashMap<>(newProperties)),
        etag,
        timestamp,
        sourcePartitionKey,
        sourceId);
  }

  /** A builder preloaded with this item's identity and properties. */
  public Builder toBuilder() {
    Builder b = new Builder(partitionKey, id);
    b.properties.putAll(properties);
    return b;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Item other
        && partitionKey.equals(other.partitionKey)
        && id.equals(other.id)
        && properties.equals(other.properties)
        && Objects.equals(etag, other.etag)
        && Objects.equals(timestamp, other.timestamp)
        && Objects.equals(sourcePartitionKey, other.sourcePartitionKey)
        && Objects.equals(sourceId, other.sourceId);
  }

  @Override
  public int hashCode() {
    return Objects.hash(partitionKey, id, properties, etag);
  }

  @Override
  public String toString() {
    return "Item["
        + partitionKey
        + "/"
        + id
        + " "
        + properties
        + (etag == null ? "" : " etag=" + etag)
        + (sourceId == null ? "" : " source=" + sourcePartitionKey + "/" + sourceId)
        + "]";
  }

  /** Collects properties for a new item. */
  public static final class Builder {
    private final String partitionKey;
    private final String id;
    private final Map<String, Value> properties = new LinkedHashMap<>();

    private Builder(String partitionKey, String id) {
      this.partitionKey = partitionKey;
      this.id = id;
    }

    public Builder put(String name, Value value) {
      properties.put(name, Objects.requireNonNull(value, "value"));
      return this;
    }

    public Builder put(String name, String value) {
      return put(name, Value.of(value));
    }

    public Builder put(String name, boolean value) {
      return put(name, Value.of(value));
    }

    public Builder put(String name, int value) {
      return put(name, Value.of(value));
    }

    public Builder put(String name, long value) {
      return put(name, Value.of(value));
    }

    public Builder put(String name, double value) {
      return put(name, Value.of(value));
    }

    /** A decimal, exactly ({@link Value.Decimal}). */
    public Builder put(String name, BigDecimal value) {
      return put(name, Value.of(value));
    }

    public Builder put(String name, Instant value) {
      return put(name, Value.of(value));
    }

    public Builder put(String name, UUID value) {
      return put(name, Value.of(value));
    }

    public Builder put(String name, byte[] value) {
      return put(name, Value.of(value));
    }

    public Builder remove(String name) {
      properties.remove(name);
      return this;
    }

    public Item build() {
      return Item.of(partitionKey, id, properties);
    }
  }
}
