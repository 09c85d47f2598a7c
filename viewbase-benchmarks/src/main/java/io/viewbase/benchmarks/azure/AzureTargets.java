package io.viewbase.benchmarks.azure;

import io.viewbase.benchmarks.sidebyside.ResultTable;
import java.io.PrintStream;
import java.util.Locale;

/**
 * The Azure issue's targets, judged on a run's ratios, and the ceilings that the SDK and the
 * transport put on two of them: the partition query's ratio were Viewbase to answer in no time (the
 * baseline's p50 over one SDK round trip), and the insert's were an insert to cost Viewbase no more
 * CPU than a point read.
 */
final class AzureTargets {
  /** The phase whose p50 is one SDK round trip: a point read by a single client. */
  static final String SERIAL_READ = "serial point read";

  private final ResultTable table;

  AzureTargets(ResultTable table) {
    this.table = table;
  }

  void print(PrintStream out) {
    String subject = table.subject();
    String baseline = table.baseline();
    ResultTable.target(
        out, "server CPU per point read >= 20x lower", table.cpuRatio("point read"), 20);
    ResultTable.target(out, "server CPU per insert >= 20x lower", table.cpuRatio("insert"), 20);
    ResultTable.target(
        out,
        "partition query >= 100x faster (p50 latency)",
        table.p50Ratio("partition query"),
        100);
    out.printf(
        Locale.ROOT,
        "  (partition query by server CPU per query: %.1fx; CPU ratios without %s's JIT: point read "
            + "%.1fx, insert %.1fx, partition query %.1fx)%n",
        table.cpuRatio("partition query"),
        subject,
        table.cpuRatioWithoutJit("point read"),
        table.cpuRatioWithoutJit("insert"),
        table.cpuRatioWithoutJit("partition query"));
    out.println();
    out.printf(
        Locale.ROOT,
        "ceiling: partition query p50 through this SDK      %8.1fx  (%s's %.2f ms over one SDK round trip"
            + " to %s, the %s's p50 of %.2f ms: a query takes at least one)%n",
        latencyCeiling("partition query"),
        baseline,
        table.result("partition query", baseline).p50Millis(),
        subject,
        SERIAL_READ,
        table.result(SERIAL_READ, subject).p50Millis());
    out.printf(
        Locale.ROOT,
        "ceiling: insert CPU, were an insert as cheap as a read %4.1fx  (%s's %.0f µs over %s's point "
            + "read, %.0f µs: a request received and answered, with nothing to make durable)%n",
        insertCeilingAtReadCost(),
        baseline,
        table.result("insert", baseline).cpuMicrosPerOp(),
        subject,
        table.result("point read", subject).cpuMicrosPerOp());
  }

  /**
   * The most times faster the subject's median {@code phase} could be than the baseline's, were the
   * subject's server to answer it in no time: the baseline's p50 over the subject's single round
   * trip.
   */
  double latencyCeiling(String phase) {
    return table.result(phase, table.baseline()).p50Millis()
        / table.result(SERIAL_READ, table.subject()).p50Millis();
  }

  /**
   * The CPU ratio of inserts were an insert to cost the subject's server no more than a point read
   * (receiving a request and answering it over the same connections, with nothing made durable).
   */
  double insertCeilingAtReadCost() {
    return table.result("insert", table.baseline()).cpuMicrosPerOp()
        / table.result("point read", table.subject()).cpuMicrosPerOp();
  }
}
