package io.viewbase.server;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** The system clock plus an offset that a test moves forward: "now" for expiry. */
public final class MovableClock extends Clock {
  private volatile Duration offset = Duration.ZERO;

  public void advance(Duration by) {
    offset = offset.plus(by);
  }

  /** How far ahead of the system clock it is. */
  public Duration offset() {
    return offset;
  }

  /**
   * Seconds ahead of the system clock, plus {@code more}: a ttl that ends {@code more} from now.
   */
  public int secondsFromNow(long more) {
    return Math.toIntExact(offset.getSeconds() + more);
  }

  @Override
  public Instant instant() {
    return Instant.now().plus(offset);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
