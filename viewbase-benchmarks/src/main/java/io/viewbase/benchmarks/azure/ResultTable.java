package io.viewbase.benchmarks.azure;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * Prints the run's figures: one line per phase and server, then per phase the baseline's figure
 * divided by the subject's (how many times less CPU, how many times faster), then the targets, and
 * the ceilings that the SDK and the transport put on two of them.
 */
final class ResultTable {
  /** The phase whose p50 is one SDK round trip: a point read by a single client. */
  static final String SERIAL_READ = "serial point read";

  private final List<PhaseResult> results;
  private final String subject;
  private final String baseline;

  ResultTable(List<PhaseResult> results, String subject, String baseline) {
    this.results = results;
    this.subject = subject;
    this.baseline = baseline;
  }

  void print(PrintStream out, List<Phase> phases) {
    out.printf(
        Locale.ROOT,
        "%-18s %-7s %-9s %10s %9s %9s %16s %7s %5s %8s %13s%n",
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
        "without JIT");
    for (PhaseResult r : results) {
      out.printf(
          Locale.ROOT,
          "%-18s %-7d %-9s %,10.1f %,9.2f %,9.2f %,16.0f %6.0f%% %4.0f%% %7.0f%% %,13.0f%n",
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
          r.cpuMicrosPerOpWithoutJit());
    }
    out.println();
    out.printf(Locale.ROOT, "%s / %s%n", baseline, subject);
    out.printf(
        Locale.ROOT,
        "%-18s %14s %19s %12s %12s%n",
        "phase",
        "server CPU/op",
        "CPU/op without JIT",
        "p50 latency",
        "throughput");
    for (Phase phase : phases) {
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
    target(out, "server CPU per point read >= 20x lower", cpuRatio("point read"), 20);
    target(out, "server CPU per insert >= 20x lower", cpuRatio("insert"), 20);
    target(out, "partition query >= 100x faster (p50 latency)", p50Ratio("partition query"), 100);
    out.printf(
        Locale.ROOT,
        "  (partition query by server CPU per query: %.1fx; CPU ratios without %s's JIT: point read "
            + "%.1fx, insert %.1fx, partition query %.1fx)%n",
        cpuRatio("partition query"),
        subject,
        cpuRatioWithoutJit("point read"),
        cpuRatioWithoutJit("insert"),
        cpuRatioWithoutJit("partition query"));
    out.println();
    out.printf(
        Locale.ROOT,
        "ceiling: partition query p50 through this SDK      %8.1fx  (%s's %.2f ms over one SDK round trip"
            + " to %s, the %s's p50 of %.2f ms: a query takes at least one)%n",
        latencyCeiling("partition query"),
        baseline,
        find("partition query", baseline).p50Millis(),
        subject,
        SERIAL_READ,
        find(SERIAL_READ, subject).p50Millis());
    out.printf(
        Locale.ROOT,
        "ceiling: insert CPU, were an insert as cheap as a read %4.1fx  (%s's %.0f µs over %s's point "
            + "read, %.0f µs: a request received and answered, with nothing to make durable)%n",
        insertCeilingAtReadCost(),
        baseline,
        find("insert", baseline).cpuMicrosPerOp(),
        subject,
        find("point read", subject).cpuMicrosPerOp());
  }

  /**
   * The most times faster the subject's median {@code phase} could be than the baseline's, were the
   * subject's server to answer it in no time: the baseline's p50 over the subject's single round
   * trip.
   */
  double latencyCeiling(String phase) {
    return find(phase, baseline).p50Millis() / find(SERIAL_READ, subject).p50Millis();
  }

  /**
   * The CPU ratio of inserts were an insert to cost the subject's server no more than a point read
   * (receiving a request and answering it over the same connections, with nothing made durable).
   */
  double insertCeilingAtReadCost() {
    return find("insert", baseline).cpuMicrosPerOp() / find("point read", subject).cpuMicrosPerOp();
  }

  private static void target(PrintStream out, String what, double ratio, double goal) {
    out.printf(
        Locale.ROOT, "target: %-46s %8.1fx  %s%n", what, ratio, ratio >= goal ? "MET" : "NOT MET");
  }

  /** How many times more server CPU per operation the baseline used. */
  double cpuRatio(String phase) {
    return find(phase, baseline).cpuMicrosPerOp() / find(phase, subject).cpuMicrosPerOp();
  }

  /**
   * The same without the JIT compiler threads' time of either server (where it can be told apart).
   */
  double cpuRatioWithoutJit(String phase) {
    return find(phase, baseline).cpuMicrosPerOpWithoutJit()
        / find(phase, subject).cpuMicrosPerOpWithoutJit();
  }

  /** How many times longer the baseline's median operation took. */
  double p50Ratio(String phase) {
    return find(phase, baseline).p50Millis() / find(phase, subject).p50Millis();
  }

  /** How many times the baseline's throughput the subject reached. */
  double throughputRatio(String phase) {
    return find(phase, subject).opsPerSecond() / find(phase, baseline).opsPerSecond();
  }

  private PhaseResult find(String phase, String target) {
    return results.stream()
        .filter(r -> r.phase().equals(phase) && r.target().equals(target))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no result for " + phase + " on " + target));
  }

  private static int clients(List<Phase> phases, PhaseResult result) {
    return phases.stream()
        .filter(p -> p.name().equals(result.phase()))
        .mapToInt(Phase::clients)
        .findFirst()
        .orElse(0);
  }
}
