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
    Instant now = Instant.now();
    long ticks = now.getEpochSecond() * Value.DateTime.TICKS_PER_SECOND + now.getNano() / 100;
    return last.accumulateAndGet(ticks, (prev, candidate) -> candidate > prev ? candidate : prev + 1);
  }

  /** Makes every later version greater than one already stored (after a restart with a clock behind). */
  void observe(long storedVersion) {
    last.accumulateAndGet(storedVersion, Math::max);
  }
}
