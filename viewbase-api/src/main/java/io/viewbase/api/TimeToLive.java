package io.viewbase.api;

import java.time.Duration;
import java.util.Map;

/**
 * When an item expires: the one copy of the rule that every read, every write and the sweeper
 * apply, whatever interface wrote the item.
 *
 * <p>An item expires at its last write's time (its version, 100 ns ticks since the epoch) plus its
 * own {@code _ttl} if it has one, else plus its table's default ttl ({@link TableOptions#ttl}),
 * else never. From that instant on it is absent to every read and write; the sweeper removes it
 * later.
 *
 * <pre>
 * _ttl (a top-level property)          | the item expires at
 * -------------------------------------+----------------------------------------------
 * absent, or null                      | its version + the table's ttl; never without one
 * Int32/Int64 n, 1 &lt;= n &lt;= 2^31 - 1    | its version + n seconds (the table's ttl does not apply)
 * DateTime t                           | t, absolutely (a t already past: expired at once)
 * anything else (0, a negative number, | refused: 400 InvalidValue, nothing stored
 *   a larger one, a string, a double)  |
 * </pre>
 *
 * {@code _ttl} is the one name starting with '_' that a user property may have ({@link
 * PropertyName}); nested in an object it is an ordinary name and means nothing.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class TimeToLive {
  /** The property naming an item's own time-to-live. */
  public static final String PROPERTY = "_ttl";

  /** The longest {@code _ttl} in seconds: 2^31 - 1, about 68 years (Cosmos DB's limit too). */
  public static final long MAX_SECONDS = Integer.MAX_VALUE;

  /** What {@link #expiresAt} answers for an item that never expires. */
  public static final long NEVER = Long.MAX_VALUE;

  private TimeToLive() {}

  /** Refuses a {@code _ttl} value the table above refuses, with {@link ErrorCode#InvalidValue}. */
  public static void check(Value value) {
    long seconds;
    if (value instanceof Value.Null || value instanceof Value.DateTime) {
      return;
    } else if (value instanceof Value.Int32 i) {
      seconds = i.value();
    } else if (value instanceof Value.Int64 l) {
      seconds = l.value();
    } else {
      throw ViewbaseException.of(
          ErrorCode.InvalidValue,
          "_ttl is a whole number of seconds after the write (1 to "
              + MAX_SECONDS
              + ") or a datetime",
          "property",
          PROPERTY,
          "type",
          value == null ? "none" : value.getClass().getSimpleName());
    }
    if (seconds < 1 || seconds > MAX_SECONDS) {
      throw ViewbaseException.of(
          ErrorCode.InvalidValue,
          "_ttl in seconds must be between 1 and " + MAX_SECONDS,
          "property",
          PROPERTY,
          "value",
          seconds);
    }
  }

  /**
   * When an item written at {@code version} expires, in ticks ({@link #NEVER}: it does not).
   *
   * @param own the item's {@code _ttl} (null or {@link Value.Null}: none); a value {@link #check}
   *     refuses counts as none, so a stored item always has an answer
   * @param tableTtl its table's default ttl, or null
   */
  public static long expiresAt(long version, Value own, Duration tableTtl) {
    if (own instanceof Value.DateTime at) {
      return at.ticks();
    }
    if (own instanceof Value.Int32 i && i.value() > 0) {
      return plusSeconds(version, i.value());
    }
    if (own instanceof Value.Int64 l && l.value() > 0 && l.value() <= MAX_SECONDS) {
      return plusSeconds(version, l.value());
    }
    if (tableTtl == null) {
      return NEVER;
    }
    long ticks = saturatedTicks(tableTtl);
    return ticks > NEVER - version ? NEVER : version + ticks;
  }

  /**
   * Whether an item with these properties, written at {@code version}, has expired at {@code now}.
   */
  public static boolean isExpired(
      long version, Map<String, Value> properties, Duration tableTtl, long nowTicks) {
    Value own = properties == null ? null : properties.get(PROPERTY);
    if (own == null && tableTtl == null) {
      return false;
    }
    return expiresAt(version, own, tableTtl) <= nowTicks;
  }

  private static long plusSeconds(long version, long seconds) {
    long ticks = seconds * Value.DateTime.TICKS_PER_SECOND; // at most 2^31 * 10^7: no overflow
    return ticks > NEVER - version ? NEVER : version + ticks;
  }

  private static long saturatedTicks(Duration d) {
    try {
      return Math.addExact(
          Math.multiplyExact(d.getSeconds(), Value.DateTime.TICKS_PER_SECOND), d.getNano() / 100);
    } catch (ArithmeticException e) {
      return NEVER;
    }
  }
}
