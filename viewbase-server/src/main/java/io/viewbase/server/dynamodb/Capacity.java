package io.viewbase.server.dynamodb;

import io.viewbase.server.dynamodb.model.AttributeValue;
import io.viewbase.server.dynamodb.model.ItemSize;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code ConsumedCapacity} as DynamoDB reports it when a request asks ({@code
 * ReturnConsumedCapacity} TOTAL or INDEXES): Viewbase meters nothing, so the units are what
 * DynamoDB would charge for the item sizes, a plausible figure for code that logs or sums it.
 *
 * <pre>
 * request           | units
 * ------------------+-------------------------------------------------------------
 * a write           | one per started KiB of the item written (at least 1)
 * a read            | one per started 4 KiB of the item read (strongly consistent; at
 *                   |   least 1, also for an absent item)
 * a transaction     | twice the units of its reads and writes
 * </pre>
 */
final class Capacity {
  private Capacity() {}

  private static boolean asked(RequestTree r) {
    String v = r.string("ReturnConsumedCapacity");
    return v != null && !v.equals("NONE");
  }

  /** Adds the capacity of one write of {@code item} (null: a delete of an absent item). */
  static void write(
      Map<String, Object> answer,
      RequestTree r,
      DynamoDbTable table,
      Map<String, AttributeValue> item) {
    if (asked(r)) {
      long size = item == null ? 0 : ItemSize.of(item);
      answer.put("ConsumedCapacity", entry(table, Math.max(1, (size + 1023) / 1024)));
    }
  }

  /** Adds the capacity of one read of {@code item} (null: absent). */
  static void read(
      Map<String, Object> answer,
      RequestTree r,
      DynamoDbTable table,
      Map<String, AttributeValue> item) {
    if (asked(r)) {
      long size = item == null ? 0 : ItemSize.of(item);
      answer.put("ConsumedCapacity", entry(table, Math.max(1, (size + 4095) / 4096)));
    }
  }

  /** Adds one table's entry to a batch's list: a unit per item. */
  static void batch(
      List<Map<String, Object>> into,
      RequestTree r,
      DynamoDbTable table,
      int items,
      boolean write) {
    if (asked(r)) {
      into.add(entry(table, Math.max(1, items)));
    }
  }

  /** A transaction's capacity: two units per action, per table. */
  static void transaction(Map<String, Object> answer, RequestTree r, List<DynamoDbTable> tables) {
    if (!asked(r)) {
      return;
    }
    Map<String, Long> units = new LinkedHashMap<>();
    Map<String, DynamoDbTable> byName = new LinkedHashMap<>();
    for (DynamoDbTable t : tables) {
      units.merge(t.name(), 2L, Long::sum);
      byName.put(t.name(), t);
    }
    answer.put(
        "ConsumedCapacity",
        units.entrySet().stream().map(e -> entry(byName.get(e.getKey()), e.getValue())).toList());
  }

  /** Adds a query's or scan's capacity: a unit per started 4 KiB read. */
  static void scanned(Map<String, Object> answer, RequestTree r, DynamoDbTable table, long bytes) {
    if (asked(r)) {
      answer.put("ConsumedCapacity", entry(table, Math.max(1, (bytes + 4095) / 4096)));
    }
  }

  private static Map<String, Object> entry(DynamoDbTable table, long units) {
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("TableName", table.name());
    e.put("CapacityUnits", BigDecimal.valueOf(units));
    return e;
  }
}
