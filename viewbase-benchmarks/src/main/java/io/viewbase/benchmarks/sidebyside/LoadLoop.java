package io.viewbase.benchmarks.sidebyside;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/**
 * Runs one operation from N client threads for a fixed time and records each call's latency. Each
 * thread starts its next call as soon as the last one answers (a closed loop): throughput is what N
 * waiting clients get, and latency includes the SDK's own work on both ends.
 *
 * <p>The first failure stops every thread and is rethrown: a phase is either all answers right or
 * no figure at all.
 */
public final class LoadLoop {
  /** Longest latency recorded, in microseconds (2 minutes: the clients' response timeout). */
  private static final long MAX_MICROS = 120_000_000L;

  /** This JVM's CPU time (every thread), which the driver reports beside the server's. */
  private static final OperatingSystemMXBean DRIVER =
      (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private LoadLoop() {}

  /**
   * The measurement of {@code operation} on {@code target}: {@code threads} callers for {@code
   * seconds}, or until the operation reports that no work is left.
   */
  public static PhaseResult measure(
      String phase, Target target, int threads, double seconds, Operation operation)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    try {
      ProcessCpu.Sample cpuBefore = target.cpu().sample();
      long driverBefore = DRIVER.getProcessCpuTime();
      long start = System.nanoTime();
      long duration =
          (long) (seconds * 1e9); // saturates at Long.MAX_VALUE: "until no work is left"
      List<Future<Histogram>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        futures.add(pool.submit(() -> loop(operation, start, duration, failure)));
      }
      Histogram all = new Histogram(MAX_MICROS, 3);
      for (Future<Histogram> future : futures) {
        all.add(future.get());
      }
      long wall = System.nanoTime() - start;
      ProcessCpu.Sample cpu = target.cpu().sample().minus(cpuBefore);
      long driverCpu = DRIVER.getProcessCpuTime() - driverBefore;
      if (failure.get() != null) {
        throw new IllegalStateException(
            phase + " on " + target.name() + " failed: " + failure.get(), failure.get());
      }
      return new PhaseResult(phase, target.name(), all.getTotalCount(), wall, all, cpu, driverCpu);
    } catch (ExecutionException e) {
      throw new IllegalStateException(phase + " on " + target.name() + " failed", e.getCause());
    } finally {
      pool.shutdownNow();
      pool.awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  private static Histogram loop(
      Operation operation, long start, long duration, AtomicReference<Throwable> failure) {
    Histogram histogram = new Histogram(MAX_MICROS, 3);
    ThreadLocalRandom random = ThreadLocalRandom.current();
    // Every client makes at least one call, so that a phase always has a figure, however short.
    do {
      long t0 = System.nanoTime();
      try {
        if (!operation.run(random)) {
          break;
        }
      } catch (Throwable e) {
        failure.compareAndSet(null, e);
        break;
      }
      histogram.recordValue(Math.min(MAX_MICROS, (System.nanoTime() - t0) / 1000));
    } while (failure.get() == null && System.nanoTime() - start < duration);
    return histogram;
  }
}
