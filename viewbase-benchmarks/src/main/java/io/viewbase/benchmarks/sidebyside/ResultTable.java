package io.viewbase.benchmarks.sidebyside;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * Prints a run's figures: one line per phase and server, then per phase how the subject compares
 * with the baseline (how many times less server CPU per operation, how many times faster its
 * median, how many times the throughput). Each dialect's driver prints its own targets under it
 * from the same ratios.
 */
public final class ResultTable {
  private final List<PhaseResult> results;
  private final String subject;
  private final String baseline;

  /** {@code subject} and {@code baseline} are target names that {@code results} hold. */
  public ResultTable(List<PhaseResult> results, String subject, String baseline) {
    this.results = results;
    this.subject = subject;
    this.baseline = baseline;
  }

  public String subject() {
    return subject;
  }

  public String baseline() {
    return baseline;
  }

  public void print(PrintStream out, List<? extends Phase<?>> phases) {
    out.printf(
        Locale.ROOT,
        "%-18s %-7s %-9s %10s %9s %9s %16s %7s %5s %8s %13s %16s%n",
        "phase",
        "clients",
        "server",
        "ops/s",
        "p50 ms",
        "p99 ms",
        "server CPU µs/op",
        "kernel",
        "JIT",
        "rocksdb",
        "without JIT",
        "driver CPU µs/op");
    for (PhaseResult r : results) {
      out.printf(
          Locale.ROOT,
          "%-18s %-7d %-9s %,10.1f %,9.2f %,9.2f %,16.0f %6.0f%% %4.0f%% %7.0f%% %,13.0f %,16.0f%n",
          r.phase(),
          clients(phases, r),
          r.target(),
          r.opsPerSecond(),
          r.p50Millis(),
          r.p99Millis(),
          r.cpuMicrosPerOp(),
          r.systemPercent(),
          r.jitPercent(),
          r.storagePercent(),
          r.cpuMicrosPerOpWithoutJit(),
          r.driverCpuMicrosPerOp());
    }
    out.println();
    out.printf(
        Locale.ROOT, "%s / %s (throughput: %s / %s)%n", baseline, subject, subject, baseline);
    out.printf(
        Locale.ROOT,
        "%-18s %14s %19s %12s %12s%n",
        "phase",
        "server CPU/op",
        "CPU/op without JIT",
        "p50 latency",
        "throughput");
    for (Phase<?> phase : phases) {
      out.printf(
          Locale.ROOT,
          "%-18s %13.1fx %18.1fx %11.1fx %11.1fx%n",
          phase.name(),
          cpuRatio(phase.name()),
          cpuRatioWithoutJit(phase.name()),
          p50Ratio(phase.name()),
          throughputRatio(phase.name()));
    }
    out.println();
  }

  /** One target line: what it asks, the ratio measured and whether it reaches {@code goal}. */
  public static void target(PrintStream out, String what, double ratio, double goal) {
    out.printf(
        Locale.ROOT, "target: %-46s %8.1fx  %s%n", what, ratio, ratio >= goal ? "MET" : "NOT MET");
  }

  /** How many times more server CPU per operation the baseline used. */
  public double cpuRatio(String phase) {
    return result(phase, baseline).cpuMicrosPerOp() / result(phase, subject).cpuMicrosPerOp();
  }

  /**
   * The same without the JIT compiler threads' time of either server (where it can be told apart).
   */
  public double cpuRatioWithoutJit(String phase) {
    return result(phase, baseline).cpuMicrosPerOpWithoutJit()
        / result(phase, subject).cpuMicrosPerOpWithoutJit();
  }

  /** How many times longer the baseline's median operation took. */
  public double p50Ratio(String phase) {
    return result(phase, baseline).p50Millis() / result(phase, subject).p50Millis();
  }

  /** How many times the baseline's throughput the subject reached. */
  public double throughputRatio(String phase) {
    return result(phase, subject).opsPerSecond() / result(phase, baseline).opsPerSecond();
  }

  /** What {@code phase} measured on {@code target}. */
  public PhaseResult result(String phase, String target) {
    return results.stream()
        .filter(r -> r.phase().equals(phase) && r.target().equals(target))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no result for " + phase + " on " + target));
  }

  private static int clients(List<? extends Phase<?>> phases, PhaseResult result) {
    return phases.stream()
        .filter(p -> p.name().equals(result.phase()))
        .mapToInt(Phase::clients)
        .findFirst()
        .orElse(0);
  }
}
