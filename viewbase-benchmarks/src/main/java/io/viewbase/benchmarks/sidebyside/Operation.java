package io.viewbase.benchmarks.sidebyside;

import java.util.concurrent.ThreadLocalRandom;

/** One request (or one query followed to its last page) of a phase, made by one client thread. */
@FunctionalInterface
public interface Operation {
  /**
   * Makes the request and checks its answer, throwing if it is wrong (a benchmark that counts
   * failed or wrong answers as work measures nothing). Returns false, without making a request,
   * when a phase of fixed size has no work left.
   */
  boolean run(ThreadLocalRandom random) throws Exception;
}
