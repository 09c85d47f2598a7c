package io.viewbase.server.azure;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.util.Map;

/**
 * An entity's size as Azure counts it against its 1 MiB limit: strings in UTF-16, every property
 * with a fixed overhead.
 *
 * <pre>
 * 4 + 2 * (length of PartitionKey + RowKey)
 *   + for each property: 8 + 2 * (length of its name) + the value's size
 *
 * value    | size              value     | size
 * ---------+------------------ ----------+------
 * String   | 4 + 2 * length    Int32     | 4
 * Binary   | 4 + bytes         Int64     | 8
 * Boolean  | 1                 Double    | 8
 * DateTime | 8                 Guid      | 16
 * Decimal  | as it is written ({@link EntityWriter}): 8 as a Double, else as its text's String
 * </pre>
 *
 * Viewbase's own limit (the encoded item, {@code Limits.maxItemBytes}) still applies after this
 * one.
 */
final class EntitySize {
  static final int MAX_BYTES = 1 << 20;

  private EntitySize() {}

  /** Fails with 400 EntityTooLarge when the entity is larger than Azure allows. */
  static void check(String partitionKey, String rowKey, Map<String, Value> storedProperties) {
    long size = of(partitionKey, rowKey, storedProperties);
    if (size > MAX_BYTES) {
      throw ViewbaseException.of(
          ErrorCode.ItemTooLarge,
          "The entity is larger than the maximum allowed size (1MB), "
              + "as Azure counts it (strings in UTF-16)",
          "bytes",
          size);
    }
  }

  static long of(String partitionKey, String rowKey, Map<String, Value> storedProperties) {
    long size = 4 + 2L * (length(partitionKey) + length(rowKey));
    for (Map.Entry<String, Value> e : storedProperties.entrySet()) {
      size += 8 + 2L * PropertyNames.azure(e.getKey()).length() + valueSize(e.getValue());
    }
    return size;
  }

  private static long length(String key) {
    return key == null ? 0 : key.length();
  }

  private static long valueSize(Value v) {
    if (v instanceof Value.Str s) {
      return 4 + 2L * s.value().length();
    }
    if (v instanceof Value.Binary b) {
      return 4 + b.value().length;
    }
    if (v instanceof Value.Bool) {
      return 1;
    }
    if (v instanceof Value.Int32) {
      return 4;
    }
    if (v instanceof Value.Guid) {
      return 16;
    }
    if (v instanceof Value.Decimal d && !EntityWriter.isExactDouble(d)) {
      return 4 + 2L * d.text().length();
    }
    return 8; // Int64, Double, DateTime
  }
}
