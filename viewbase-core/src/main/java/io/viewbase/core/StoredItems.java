package io.viewbase.core;

import io.viewbase.api.Item;
import io.viewbase.api.Value;

/** Turns a stored entry (identity, version, encoded properties) back into an {@link Item}. */
final class StoredItems {
  private StoredItems() {}

  static Item toItem(String partitionKey, String id, long version, byte[] value) {
    if (ItemCodec.isView(value)) {
      ItemCodec.ViewValue v = ItemCodec.decodeView(value);
      return Item.storedView(
          partitionKey,
          id,
          v.properties(),
          Etags.of(version),
          new Value.DateTime(version).toInstant(),
          v.sourcePartitionKey(),
          v.sourceId());
    }
    return Item.stored(
        partitionKey,
        id,
        ItemCodec.decode(value),
        Etags.of(version),
        new Value.DateTime(version).toInstant());
  }
}
