package io.viewbase.benchmarks.sidebyside;

/**
 * A server a workload runs against: its name in the results, the endpoint its SDK clients reach and
 * its process, whose CPU time each phase charges to the operations it served.
 */
public record Target(String name, String endpoint, ProcessCpu cpu) {
  /**
   * Parses {@code NAME=ENDPOINT@PID}, e.g. {@code
   * viewbase=http://127.0.0.1:10103/devstoreaccount1@4242}.
   */
  public static Target parse(String spec, long ticksPerSecond) {
    int eq = spec.indexOf('=');
    int at = spec.lastIndexOf('@');
    if (eq <= 0 || at < eq) {
      throw new IllegalArgumentException("--target takes NAME=ENDPOINT@PID, was " + spec);
    }
    return new Target(
        spec.substring(0, eq),
        spec.substring(eq + 1, at),
        new ProcessCpu(Long.parseLong(spec.substring(at + 1)), ticksPerSecond));
  }
}
