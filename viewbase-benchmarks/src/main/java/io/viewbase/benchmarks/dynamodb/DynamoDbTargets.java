package io.viewbase.benchmarks.dynamodb;

import io.viewbase.benchmarks.sidebyside.Phase;
import io.viewbase.benchmarks.sidebyside.ResultTable;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * The DynamoDB issue's targets, judged on every phase of a run: the subject (Viewbase, durable)
 * uses at least 20x less server CPU per operation than the baseline (dynalite, in memory) and
 * reaches at least 10x its throughput. Under them, what the driver's own CPU leaves: on a machine
 * of {@code cores} cores that the driver shares with the server, no server can be served more
 * operations per second than the cores over the driver's and its own CPU per operation.
 */
final class DynamoDbTargets {
  static final double CPU_GOAL = 20;
  static final double THROUGHPUT_GOAL = 10;

  private final ResultTable table;
  private final int cores;

  DynamoDbTargets(ResultTable table, int cores) {
    this.table = table;
    this.cores = cores;
  }

  void print(PrintStream out, List<? extends Phase<?>> phases) {
    for (Phase<?> phase : phases) {
      ResultTable.target(
          out,
          phase.name() + ": server CPU/op >= " + (int) CPU_GOAL + "x lower",
          table.cpuRatio(phase.name()),
          CPU_GOAL);
      ResultTable.target(
          out,
          phase.name() + ": throughput >= " + (int) THROUGHPUT_GOAL + "x",
          table.throughputRatio(phase.name()),
          THROUGHPUT_GOAL);
    }
    out.println();
    out.printf(
        Locale.ROOT,
        "ceiling on %d cores: the subject's ops/s were its server to use no CPU, over the baseline's"
            + " ops/s (the subject's driver CPU/op bounds it)%n",
        cores);
    for (Phase<?> phase : phases) {
      out.printf(
          Locale.ROOT,
          "ceiling: %-18s %8.1fx  (%s: %,.0f ops/s of %,.0f at most, with %,.0f µs of driver CPU "
              + "per op)%n",
          phase.name(),
          throughputCeiling(phase.name()),
          table.subject(),
          table.result(phase.name(), table.subject()).opsPerSecond(),
          cores * 1e6 / table.result(phase.name(), table.subject()).driverCpuMicrosPerOp(),
          table.result(phase.name(), table.subject()).driverCpuMicrosPerOp());
    }
  }

  /**
   * The throughput ratio the subject could reach on this machine were its server to cost nothing:
   * the cores' CPU time per second over the subject driver's CPU per operation, against the
   * baseline's measured throughput.
   */
  double throughputCeiling(String phase) {
    double driverMicros = table.result(phase, table.subject()).driverCpuMicrosPerOp();
    return cores * 1e6 / driverMicros / table.result(phase, table.baseline()).opsPerSecond();
  }
}
