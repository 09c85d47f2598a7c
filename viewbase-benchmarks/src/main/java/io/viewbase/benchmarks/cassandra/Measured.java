package io.viewbase.benchmarks.cassandra;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * One operation of the benchmark and what it measured: its latencies over every measured round
 * (HdrHistogram, nanoseconds), each round's throughput, and its failures (the operation is counted,
 * and the first failure kept, but the run goes on).
 */
final class Measured {
  private final String name;
  private final Runnable operation;
  private final Histogram latencies = new Histogram(60_000_000_000L, 3);
  private final List<Double> roundRates = new ArrayList<>();
  private long operations;
  private long nanos;
  private long failures;
  private String firstFailure;

  Measured(String name, Runnable operation) {
    this.name = name;
    this.operation = operation;
  }

  String name() {
    return name;
  }

  /** Runs the operation in a loop for {@code seconds}, one at a time, recording nothing. */
  void warmUp(double seconds) {
    loop(seconds, false);
  }

  /** Runs the operation in a loop for {@code seconds}, one at a time, and records the round. */
  void measureRound(double seconds) {
    loop(seconds, true);
  }

  /** Completed operations per second over every measured round. */
  double rate() {
    return nanos == 0 ? 0 : operations * 1e9 / nanos;
  }

  List<Double> roundRates() {
    return List.copyOf(roundRates);
  }

  double meanMicros() {
    return latencies.getMean() / 1_000;
  }

  double percentileMicros(double percentile) {
    return latencies.getValueAtPercentile(percentile) / 1_000.0;
  }

  long failures() {
    return failures;
  }

  String firstFailure() {
    return firstFailure;
  }

  private void loop(double seconds, boolean record) {
    long start = System.nanoTime();
    long end = start + (long) (seconds * 1e9);
    long done = 0;
    long now = start;
    while (now < end) {
      long before = now;
      try {
        operation.run();
        now = System.nanoTime();
        if (record) {
          latencies.recordValue(Math.min(now - before, latencies.getHighestTrackableValue()));
        }
        done++;
      } catch (RuntimeException e) {
        now = System.nanoTime();
        if (record) {
          failures++;
          if (firstFailure == null) {
            firstFailure = e.toString();
          }
        }
      }
    }
    if (record) {
      operations += done;
      nanos += now - start;
      roundRates.add(done * 1e9 / (now - start));
    }
  }
}
