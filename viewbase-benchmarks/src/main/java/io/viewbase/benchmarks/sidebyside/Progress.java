package io.viewbase.benchmarks.sidebyside;

import java.util.Locale;

/**
 * The run's progress on standard error, each line after the seconds since the driver started, so
 * that a long run shows where it is and the printed table on standard output stays clean.
 */
public final class Progress {
  private static final long STARTED = System.nanoTime();

  private Progress() {}

  /** A line of {@code format} (a {@link String#format} pattern) after the time. */
  public static void note(String format, Object... args) {
    System.err.printf(
        Locale.ROOT,
        "%4.0fs %s%n",
        (System.nanoTime() - STARTED) / 1e9,
        String.format(Locale.ROOT, format, args));
  }

  /** One phase's figures as soon as it is measured. */
  public static void result(PhaseResult r) {
    note(
        "%-18s %-9s %,10d ops in %6.1f s: %,10.1f ops/s, p50 %,.2f ms, p99 %,.2f ms, "
            + "server CPU %,.0f µs/op (%.0f%% kernel, %.0f%% JIT, %.0f%% RocksDB flush/compaction), "
            + "driver CPU %,.0f µs/op",
        r.phase(),
        r.target(),
        r.operations(),
        r.wallNanos() / 1e9,
        r.opsPerSecond(),
        r.p50Millis(),
        r.p99Millis(),
        r.cpuMicrosPerOp(),
        r.systemPercent(),
        r.jitPercent(),
        r.storagePercent(),
        r.driverCpuMicrosPerOp());
  }
}
