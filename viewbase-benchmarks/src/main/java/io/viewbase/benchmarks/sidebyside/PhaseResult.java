package io.viewbase.benchmarks.sidebyside;

import org.HdrHistogram.Histogram;

/**
 * What one phase measured on one server: operations completed, the wall time they took, their
 * latencies (microseconds), the server's CPU time over the same window and the driver's own (the
 * SDK's work on both ends of every call, on the same machine's cores).
 */
public record PhaseResult(
    String phase,
    String target,
    long operations,
    long wallNanos,
    Histogram latencyMicros,
    ProcessCpu.Sample serverCpu,
    long driverCpuNanos) {

  public double opsPerSecond() {
    return operations / (wallNanos / 1e9);
  }

  public double p50Millis() {
    return latencyMicros.getValueAtPercentile(50) / 1000.0;
  }

  public double p99Millis() {
    return latencyMicros.getValueAtPercentile(99) / 1000.0;
  }

  /** Server CPU microseconds per operation (utime + stime over the phase / operations). */
  public double cpuMicrosPerOp() {
    return serverCpu.totalNanos() / 1000.0 / operations;
  }

  /**
   * The driver's CPU microseconds per operation: the SDK building, signing and sending each request
   * and parsing its answer, and the driver's own JIT and GC.
   */
  public double driverCpuMicrosPerOp() {
    return driverCpuNanos / 1000.0 / operations;
  }

  /**
   * Server CPU microseconds per operation left when the JIT compiler threads' time is taken out:
   * what the server would spend once its hot paths are compiled.
   */
  public double cpuMicrosPerOpWithoutJit() {
    return (serverCpu.totalNanos() - serverCpu.compilerNanos()) / 1000.0 / operations;
  }

  /** The JIT compiler threads' share of the server's CPU time, in percent. */
  public double jitPercent() {
    return shareOfServerCpu(serverCpu.compilerNanos());
  }

  /** RocksDB's flush and compaction threads' share of the server's CPU time, in percent. */
  public double storagePercent() {
    return shareOfServerCpu(serverCpu.storageNanos());
  }

  /** The kernel's share of the server's CPU time (system calls: sockets, log syncs), in percent. */
  public double systemPercent() {
    return shareOfServerCpu(serverCpu.systemNanos());
  }

  /** {@code nanos} as a percentage of the server's CPU time over the phase (0 if it used none). */
  private double shareOfServerCpu(long nanos) {
    return serverCpu.totalNanos() == 0 ? 0 : 100.0 * nanos / serverCpu.totalNanos();
  }
}
