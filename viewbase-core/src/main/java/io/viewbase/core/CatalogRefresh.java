package io.viewbase.core;

import io.viewbase.storage.spi.Capabilities;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a process keeps its in-memory catalog in step with the other processes (servers) that share
 * its store, and how long a catalog change waits before relying on all of them having learnt it.
 *
 * <table>
 *   <caption>timing (P = {@link #PERIOD})</caption>
 *   <tr><th>what</th><th>when</th><th>why</th></tr>
 *   <tr><td>re-read the stored catalog generation (one point read; the catalog only if it changed)</td>
 *       <td>every P, in the background</td><td>learn of tables and views created or dropped elsewhere</td></tr>
 *   <tr><td>refresh before answering</td><td>a name not known here, or a catalog last known current more than
 *       {@link #STALE_AFTER} = 2P ago</td><td>a table created elsewhere is usable at once; a process whose
 *       background refresh is stuck does not go on writing without the views it may not know</td></tr>
 *   <tr><td>a new view's backfill starts, a dropped table's data is purged</td><td>{@link #OTHERS_LEARN} = 2 &times;
 *       STALE_AFTER after the catalog write</td><td>by then every process writes with the new catalog, unless one
 *       write took longer than STALE_AFTER between looking up its table and committing</td></tr>
 * </table>
 *
 * <p>A store used by one process only (RocksDB, whose lock file keeps others out, or memory) needs
 * none of this: {@link #isNeeded} says no, and the catalog is read once at open.
 */
final class CatalogRefresh implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CatalogRefresh.class);

  static final Duration PERIOD = Duration.ofMillis(500);
  static final Duration STALE_AFTER = PERIOD.multipliedBy(2);
  static final Duration OTHERS_LEARN = STALE_AFTER.multipliedBy(2);

  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "viewbase-catalog-refresh");
            t.setDaemon(true);
            return t;
          });

  /**
   * Whether several processes may share this store. The SPI does not declare it yet; a store that
   * cannot isolate a batch is a distributed one (Cassandra), while every single-process store
   * (RocksDB, memory) isolates its batches with a lock of its own.
   */
  static boolean isNeeded(Capabilities capabilities) {
    return !capabilities.isolatedBatches();
  }

  /**
   * Runs {@code refresh} every {@link #PERIOD} until closed; a failed refresh is logged and
   * retried.
   */
  void start(Runnable refresh) {
    scheduler.scheduleWithFixedDelay(
        () -> {
          try {
            refresh.run();
          } catch (RuntimeException e) {
            LOG.warn("Could not refresh the catalog from the shared store: {}", e.getMessage());
          }
        },
        PERIOD.toNanos(),
        PERIOD.toNanos(),
        TimeUnit.NANOSECONDS);
  }

  /**
   * Whether a catalog last known current at {@code refreshedAt} ({@link System#nanoTime()}) must be
   * read again.
   */
  boolean isStale(long refreshedAt) {
    return System.nanoTime() - refreshedAt > STALE_AFTER.toNanos();
  }

  /** Runs {@code task} once every other process must have learnt of a catalog change made now. */
  void afterOthersLearn(Runnable task) {
    scheduler.schedule(
        () -> {
          try {
            task.run();
          } catch (RuntimeException e) {
            // The purge record stays; the next open finishes the job.
            LOG.warn("A delayed catalog task failed: {}", e.getMessage());
          }
        },
        OTHERS_LEARN.toNanos(),
        TimeUnit.NANOSECONDS);
  }

  /**
   * Stops refreshing; delayed purges not yet run are left to the next open (their purge records
   * stay).
   */
  @Override
  public void close() {
    scheduler.shutdownNow();
  }
}
