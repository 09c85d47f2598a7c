package io.viewbase.core;

import io.viewbase.api.Value;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Issues item versions: 100 ns ticks since the Unix epoch, strictly increasing within the process.
 * A version is also the item's {@code _timestamp} and the source of its ETag, so an ETag is tied to
 * the write time as in Azure, and no two writes in this process share one.
 */
final class VersionClock {
  private final AtomicLong last = new AtomicLong();

  long next() {
    long ticks = nowTicks();
    return last.accumulateAndGet(
        ticks, (prev, candidate) -> candidate > prev ? candidate : prev + 1);
  }

  /**
   * Whether {@link #next} might not exceed this version: it is at or after both the time and the
   * last version issued.
   */
  boolean isAhead(long version) {
    return version > last.get() && version >= nowTicks();
  }

  private static long nowTicks() {
    Instant now = Instant.now();
    return now.getEpochSecond() * Value.DateTime.TICKS_PER_SECOND + now.getNano() / 100;
  }

  /**
   * Makes every later version greater than one the database stored (read back after a restart with
   * a clock behind, or written by another server on a shared store). Never a version a request
   * names.
   */
  void observe(long storedVersion) {
    last.accumulateAndGet(storedVersion, Math::max);
  }
}
