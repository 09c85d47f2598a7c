package io.viewbase.benchmarks.sidebyside;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs every phase on every target, the targets taking turns phase by phase, so that load from
 * elsewhere on a shared machine falls on all of them alike.
 */
public final class TakingTurns {
  private TakingTurns() {}

  /**
   * Two passes over {@code phases}: a warm-up pass ({@code warmupSeconds} per phase and target,
   * discarded) and a measured pass ({@code seconds}), whose results it returns in the order they
   * ran. The warm-up matters for a JVM: it compiles its hot paths for minutes, and a phase measured
   * right after its first request would charge that compilation to its operations. {@code
   * workloads.get(t)} is the workload on {@code targets.get(t)}.
   */
  public static <W> List<PhaseResult> measure(
      List<Target> targets,
      List<W> workloads,
      List<Phase<W>> phases,
      double warmupSeconds,
      double seconds)
      throws Exception {
    List<PhaseResult> results = new ArrayList<>();
    for (boolean measured : new boolean[] {false, true}) {
      for (Phase<W> phase : phases) {
        for (int t = 0; t < targets.size(); t++) {
          PhaseResult result =
              LoadLoop.measure(
                  phase.name(),
                  targets.get(t),
                  phase.clients(),
                  measured ? seconds : warmupSeconds,
                  phase.operation().apply(workloads.get(t)));
          if (measured) {
            Progress.result(result);
            results.add(result);
          }
        }
      }
      Progress.note(measured ? "measured" : "warmed up");
    }
    return results;
  }
}
