package io.viewbase.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The system clock plus an offset that a test moves forward: what "now" is for expiry, running with
 * the system time that gives items their versions.
 */
public final class MovableClock extends Clock {
  private volatile Duration offset = Duration.ZERO;

  public void advance(Duration by) {
    offset = offset.plus(by);
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
