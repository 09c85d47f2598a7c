package io.viewbase.benchmarks.dynamodb;

import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The workload's items: the person record of the Azure workload ({@code BenchItems}' fields plus
 * {@code code}), about 200 bytes of attributes, under the table's keys {@code pk} and {@code sk}.
 *
 * <p>The big table's part holds items 0..N-1 over P partitions: item {@code i} is in partition
 * {@code p%03d} of {@code i % P} with sort key {@code i%07d}, and carries code {@code c%03d} of
 * {@code (i / 100) % 1000}, the partition key of the table's index. At N = 100,000 and P = 1000 a
 * partition holds 100 items and so does a code, spread over 100 partitions: the Query and the index
 * Query answer as many items each.
 */
final class PersonItems {
  static final String PK = "pk";
  static final String SK = "sk";
  static final String CODE = "code";

  private static final String BIO =
      "Prefers short meetings, long walks and well-indexed tables; "
          + "writes benchmarks before optimising anything at all.";

  private PersonItems() {}

  static String partition(long p) {
    return String.format("p%03d", p);
  }

  static String sortKey(long i) {
    return String.format("i%07d", i);
  }

  static String code(long c) {
    return String.format("c%03d", c);
  }

  /** Item {@code i} of the loaded part of the table, whose items fill {@code partitions}. */
  static Map<String, AttributeValue> big(long i, int partitions) {
    return person(partition(i % partitions), sortKey(i), code((i / 100) % 1000), i);
  }

  /**
   * Item {@code i} of the insert phase: partitions {@code n000}..{@code n999}, as many index keys,
   * none of them the loaded part's.
   */
  static Map<String, AttributeValue> inserted(long i) {
    return person(
        String.format("n%03d", i % 1000), sortKey(i), String.format("n%03d", (i / 100) % 1000), i);
  }

  /**
   * A person record under the given keys and index key; {@code i} varies its contents ({@code name}
   * is {@code "Person " + i}, which the point reads check).
   */
  static Map<String, AttributeValue> person(
      String partitionKey, String sortKey, String code, long i) {
    Map<String, AttributeValue> item = new HashMap<>();
    item.put(PK, s(partitionKey));
    item.put(SK, s(sortKey));
    item.put(CODE, s(code));
    item.put("name", s("Person " + i));
    item.put("email", s("person" + i + "@example.com"));
    item.put("city", s("Rotterdam"));
    item.put("age", AttributeValue.fromN(Long.toString(20 + i % 60)));
    item.put("active", AttributeValue.fromBool(i % 3 != 0));
    item.put("revision", AttributeValue.fromN("0"));
    item.put("bio", s(BIO));
    return item;
  }

  static Map<String, AttributeValue> key(String partitionKey, String sortKey) {
    return Map.of(PK, s(partitionKey), SK, s(sortKey));
  }

  static AttributeValue s(String value) {
    return AttributeValue.fromS(value);
  }
}
