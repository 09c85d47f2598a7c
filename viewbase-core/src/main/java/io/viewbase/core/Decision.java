package io.viewbase.core;

import io.viewbase.api.Value;
import io.viewbase.storage.spi.Versioned;
import java.util.Map;

/**
 * What deciding one write against the item it read found and chose: the item before and after, and
 * the version the write stores. The write's own mutation and its views' ({@link ViewMaintainer})
 * are made from it.
 *
 * @param write the operation (its table, the item's partition key and id)
 * @param read the stored entry read (null: the item was absent); every mutation is conditional on
 *     it
 * @param before its properties (null: absent)
 * @param after the properties after the write (null: deleted)
 * @param version the version the write stores
 */
record Decision(
    Write write,
    Versioned read,
    Map<String, Value> before,
    Map<String, Value> after,
    long version) {
  String partitionKey() {
    return write.item().partitionKey();
  }

  String id() {
    return write.item().id();
  }
}
