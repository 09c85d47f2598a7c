package io.viewbase.benchmarks.cassandra;

import io.viewbase.api.Item;
import io.viewbase.benchmarks.BenchItems;

/**
 * The data set both sides of the Cassandra benchmark hold: {@code count} person records (the
 * properties of {@link BenchItems}: name, email, city, age, active, revision, bio) spread over
 * {@link #PARTITIONS} partitions, so that a partition query returns {@code count / PARTITIONS}
 * items. Item {@code i} is {@code (pk(i), id(i))} on both sides.
 */
final class People {
  /** Partitions of the data set; with 10,000 items a partition holds 100. */
  static final int PARTITIONS = 100;

  private People() {}

  static String pk(int i) {
    return String.format("p%03d", i % PARTITIONS);
  }

  static String id(int i) {
    return String.format("i%07d", i);
  }

  /**
   * Item {@code i} at {@code revision}; the email (the view key) never changes with the revision.
   */
  static Item item(int i, int revision) {
    return Item.of(pk(i), id(i), BenchItems.item(i, revision).properties());
  }
}
