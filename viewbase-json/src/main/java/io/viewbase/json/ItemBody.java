package io.viewbase.json;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;

/**
 * An item as read from JSON: its user properties, and whatever identity and system properties the
 * JSON carried (each null when absent). A request body's system properties are informational only.
 *
 * @param partitionKey the body's {@code partitionKey}, or null
 * @param id the body's {@code id}, or null
 * @param properties the user properties, in body order
 * @param etag the body's {@code _etag}, or null
 * @param timestamp the body's {@code _timestamp}, or null (also when it does not parse)
 * @param sourcePartitionKey the body's {@code _sourcePartitionKey} (a view item's origin), or null
 * @param sourceId the body's {@code _sourceId} (a view item's origin), or null
 */
public record ItemBody(
    String partitionKey,
    String id,
    Map<String, Value> properties,
    String etag,
    Instant timestamp,
    String sourcePartitionKey,
    String sourceId) {
  public ItemBody {
    properties = Collections.unmodifiableMap(properties);
  }

  /**
   * The item to write at this address. A body that names another partition key or id fails with
   * {@link ErrorCode#KeyMismatch}: identity never changes, so such a write is never what was meant.
   */
  public Item addressedTo(String addressPartitionKey, String addressId) {
    if (partitionKey != null && !partitionKey.equals(addressPartitionKey)) {
      throw ViewbaseException.of(
          ErrorCode.KeyMismatch,
          "The body's partitionKey differs from the address",
          "field",
          "partitionKey",
          "address",
          addressPartitionKey,
          "body",
          partitionKey);
    }
    if (id != null && !id.equals(addressId)) {
      throw ViewbaseException.of(
          ErrorCode.KeyMismatch,
          "The body's id differs from the address",
          "field",
          "id",
          "address",
          addressId,
          "body",
          id);
    }
    return Item.of(addressPartitionKey, addressId, properties);
  }

  /**
   * The stored item this JSON describes (as a server sends it); it must carry its identity. An item
   * that names its source is a view item and keeps that origin.
   */
  public Item toStoredItem() {
    if (partitionKey == null || id == null) {
      throw ViewbaseException.of(
          ErrorCode.InvalidJson, "A stored item must carry partitionKey and id");
    }
    if (sourcePartitionKey != null && sourceId != null) {
      return Item.storedView(
          partitionKey, id, properties, etag, timestamp, sourcePartitionKey, sourceId);
    }
    return Item.stored(partitionKey, id, properties, etag, timestamp);
  }
}
