package io.viewbase.api;

/**
 * The limits a database enforces, each with a clear error when crossed. Defaults follow DESIGN §1.
 *
 * @param maxKeyBytes partition key and id: UTF-8 bytes (1024)
 * @param maxItemBytes an item's encoded size (1 MiB)
 * @param maxProperties user properties per item (255)
 * @param maxPropertyNameLength characters in a property name (255)
 * @param maxNestingDepth depth of nested objects and arrays (32)
 * @param maxPageSize items per page (1000)
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record Limits(
    int maxKeyBytes,
    int maxItemBytes,
    int maxProperties,
    int maxPropertyNameLength,
    int maxNestingDepth,
    int maxPageSize) {

  public static final Limits DEFAULT = new Limits(1024, 1 << 20, 255, 255, 32, 1000);
}
