package io.viewbase.server.dynamodb;

import io.viewbase.api.TimeToLive;
import io.viewbase.api.Value;
import io.viewbase.server.dynamodb.model.AttributeValue;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * How a DynamoDB table's TTL attribute becomes Viewbase's own time-to-live: an item written through
 * the dialect while its table's TTL is enabled gets the property {@code _ttl} ({@link
 * TimeToLive#PROPERTY}) holding the absolute time its attribute names, so that the engine hides it
 * from that instant on and its sweeper deletes it ({@code docs/ttl.md}).
 *
 * <pre>
 * the TTL attribute                                        | the item's _ttl
 * ---------------------------------------------------------+---------------------------------------
 * an N of epoch seconds t (a fraction too, to 100 ns)      | the datetime t
 * an N more than five years before the write               | none: the item never expires (DynamoDB
 *                                                          |   does not expire such items either)
 * an N after 9999-12-31T23:59:59Z (milliseconds, say)      | none: it would expire after year 9999
 * missing, or of another type (S, a set, a list, …)        | none (DynamoDB ignores it too)
 * </pre>
 *
 * The attribute itself is stored as every attribute is; {@code _ttl} is a property no DynamoDB
 * attribute maps to (an attribute named {@code _ttl} is stored as {@code $_ttl}, {@link
 * AttributeNames}) and that no answer shows ({@link StoredItems#fromItem} leaves out properties
 * starting with '_').
 */
final class TtlAttribute {
  /** Values older than this, at the write, are ignored, as DynamoDB ignores them. */
  static final Duration IGNORED_BEFORE = Duration.ofDays(5 * 365 + 1);

  /** 9999-12-31T23:59:59Z, the last second of the years an ISO datetime has four digits for. */
  static final long MAX_SECONDS = 253_402_300_799L;

  private static final BigDecimal TICKS_PER_SECOND =
      BigDecimal.valueOf(Value.DateTime.TICKS_PER_SECOND);

  private TtlAttribute() {}

  /**
   * Adds {@code _ttl} to the properties of an item written to {@code table} now, when the table's
   * TTL applies to writes and the item's TTL attribute gives a time.
   */
  static void apply(
      DynamoDbTable table, Map<String, AttributeValue> item, Map<String, Value> properties) {
    DynamoDbTable.TimeToLive ttl = table.ttl();
    if (ttl != null && ttl.appliesToWrites()) {
      Value.DateTime at = expiry(item.get(ttl.attribute()), Instant.now());
      if (at != null) {
        properties.put(TimeToLive.PROPERTY, at);
      }
    }
  }

  /**
   * The {@code _ttl} a TTL attribute's value gives an item written at {@code now}, or null for none
   * (the table above).
   */
  static Value.DateTime expiry(AttributeValue value, Instant now) {
    if (!(value instanceof AttributeValue.N n)) {
      return null;
    }
    BigDecimal seconds = n.value();
    if (seconds.compareTo(BigDecimal.valueOf(MAX_SECONDS)) > 0
        || seconds.compareTo(BigDecimal.valueOf(now.minus(IGNORED_BEFORE).getEpochSecond())) < 0) {
      return null;
    }
    return time(value);
  }

  /**
   * The datetime an N of epoch seconds names (to 100 ns, rounded down), whatever its bounds; null
   * for another value or one beyond the datetimes Viewbase holds.
   */
  static Value.DateTime time(AttributeValue value) {
    if (!(value instanceof AttributeValue.N n)) {
      return null;
    }
    try {
      return new Value.DateTime(
          n.value().multiply(TICKS_PER_SECOND).setScale(0, RoundingMode.FLOOR).longValueExact());
    } catch (ArithmeticException e) {
      return null;
    }
  }
}
