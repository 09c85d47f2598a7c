package io.viewbase.benchmarks;

import io.viewbase.api.Item;

/**
 * The benchmark data set: {@code count} items of about 200 encoded bytes, spread over 1000
 * partitions. Item {@code i} is {@code (pk(i), id(i))}; the HTTP load script builds the same paths.
 *
 * <p>The shape is a typical small document (a person record): a few short strings, a number, a flag
 * and a free-text field that brings the stored value to about 200 bytes, so the figures measure
 * per-request overhead, not bulk copying.
 */
public final class BenchItems {
  /** Name of the table every benchmark reads and writes. */
  public static final String TABLE = "Bench";

  static final int PARTITIONS = 1000;
  private static final String BIO =
      "Prefers short meetings, long walks and well-indexed tables; "
          + "writes benchmarks before optimising anything at all.";

  private BenchItems() {}

  public static String pk(int i) {
    return String.format("p%03d", i % PARTITIONS);
  }

  public static String id(int i) {
    return String.format("i%07d", i);
  }

  /** Item {@code i}; {@code revision} varies a property so that rewrites store new bytes. */
  public static Item item(int i, int revision) {
    return Item.builder(pk(i), id(i))
        .put("name", "Person " + i)
        .put("email", "person" + i + "@example.com")
        .put("city", "Rotterdam")
        .put("age", 20 + i % 60)
        .put("active", i % 3 != 0)
        .put("revision", revision)
        .put("bio", BIO)
        .build();
  }

  /** Items 0..count-1, built once so that building them is not part of what is measured. */
  public static Item[] items(int count) {
    Item[] items = new Item[count];
    for (int i = 0; i < count; i++) {
      items[i] = item(i, 0);
    }
    return items;
  }
}
