package io.viewbase.benchmarks.azure;

import com.azure.data.tables.models.TableEntity;

/**
 * The workload's entities: the same person record as {@code BenchItems} (about 200 bytes of
 * properties), with one more string, {@code code}, that no key covers, for the non-key filter.
 *
 * <p>The big table holds entities 0..N-1 over P partitions; entity {@code i} is in partition {@code
 * i % P} ({@code p000}..{@code p999}, 100 entities each for N = 100,000 and P = 1000; {@code p1000}
 * and on for more partitions) with row key {@code i0000042}. Its {@code code} is {@code c} + {@code
 * (i / 100) % 1000}: each code value matches 100 entities spread over 100 partitions (N / 1000
 * entities for other N), so at N = 100,000 the non-key filter answers as many entities as a
 * partition query but must look at the whole table.
 */
final class BenchEntities {
  private static final String BIO =
      "Prefers short meetings, long walks and well-indexed tables; "
          + "writes benchmarks before optimising anything at all.";

  private BenchEntities() {}

  static String partition(int p) {
    return String.format("p%03d", p);
  }

  static String rowKey(long i) {
    return String.format("i%07d", i);
  }

  /** The email of entity {@code i}: unique, the key of the view that the lookup by email reads. */
  static String email(long i) {
    return "person" + i + "@example.com";
  }

  static String code(int c) {
    return String.format("c%03d", c);
  }

  /** Entity {@code i} of the big table of {@code partitions} partitions. */
  static TableEntity big(int i, int partitions) {
    return person(partition(i % partitions), rowKey(i), i)
        .addProperty("code", code((i / 100) % 1000));
  }

  /** A person record under the given keys; {@code i} varies its contents. */
  static TableEntity person(String partitionKey, String rowKey, long i) {
    return new TableEntity(partitionKey, rowKey)
        .addProperty("name", "Person " + i)
        .addProperty("email", email(i))
        .addProperty("city", "Rotterdam")
        .addProperty("age", (int) (20 + i % 60))
        .addProperty("active", i % 3 != 0)
        .addProperty("revision", 0)
        .addProperty("bio", BIO);
  }
}
