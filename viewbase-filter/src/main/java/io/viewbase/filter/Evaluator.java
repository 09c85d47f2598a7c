package io.viewbase.filter;

import io.viewbase.api.Value;
import java.time.Instant;
import java.util.Map;

/**
 * Decides whether one item matches a filter. Logic is two-valued: a comparison that cannot hold (a
 * missing property) is false, so {@code not (Age eq 3)} matches an item without {@code Age}. System
 * property names ({@link SystemProperty}) read the item's keys and timestamp, never a user property
 * of the same name.
 */
final class Evaluator {
  private final String partitionKey;
  private final String id;
  private final Instant timestamp;
  private final Map<String, Value> properties;

  Evaluator(String partitionKey, String id, Instant timestamp, Map<String, Value> properties) {
    this.partitionKey = partitionKey;
    this.id = id;
    this.timestamp = timestamp;
    this.properties = properties == null ? Map.of() : properties;
  }

  boolean matches(Filter filter) {
    if (filter instanceof Filter.And and) {
      return matches(and.left()) && matches(and.right());
    }
    if (filter instanceof Filter.Or or) {
      return matches(or.left()) || matches(or.right());
    }
    if (filter instanceof Filter.Not not) {
      return !matches(not.inner());
    }
    if (filter instanceof Filter.Compare compare) {
      return ValueOrder.test(valueOf(compare.property()), compare.op(), compare.literal());
    }
    if (filter instanceof Filter.BoolProperty bool) {
      return valueOf(bool.property()) instanceof Value.Bool b && b.value();
    }
    return ((Filter.Constant) filter).value();
  }

  /** The value a name reads on this item, or null when the item has none. */
  private Value valueOf(String name) {
    SystemProperty system = Filters.system(name).orElse(null);
    if (system == null) {
      return properties.get(name);
    }
    return switch (system) {
      case PARTITION_KEY -> partitionKey == null ? null : new Value.Str(partitionKey);
      case ID -> id == null ? null : new Value.Str(id);
      case TIMESTAMP -> timestamp == null ? null : Value.DateTime.of(timestamp);
    };
  }
}
