package io.viewbase.core;

import io.viewbase.api.SweepStatus;
import io.viewbase.api.TableInfo;
import io.viewbase.api.TimeToLive;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.StorageException;
import io.viewbase.storage.spi.Store;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes expired items: one background thread per database walks every table that may hold them
 * ({@link Expiry#mayExpire}), in chunks, and removes each expired item with {@link
 * WritePipeline#expire}, which deletes it and its view entries in one commit if it is still at the
 * version the walk read. An item written again after the walk read it has a new version and
 * survives; the walk never holds a cursor open while it deletes.
 *
 * <p>The background walk removes at most {@link SweepSettings#maxDeletesPerSecond} items a second;
 * a forced sweep ({@link #sweep(TableEntry)}) is not limited. One sweep of a table runs at a time.
 * The sweep is space reclamation only: reads hide an expired item whether or not it was swept.
 */
final class Sweeper {
  private static final Logger LOG = LoggerFactory.getLogger(Sweeper.class);

  /** Entries read per chunk, before the chunk's expired items are removed. */
  static final int CHUNK = 1000;

  /** How often the background thread looks for work (and re-reads tables' marks, shared stores). */
  private static final long TICK_MILLIS = 1000;

  private static final ItemCodec.Names TTL = ItemCodec.Names.of(List.of(TimeToLive.PROPERTY));

  private final Store store;
  private final Catalog catalog;
  private final Expiry expiry;
  private final WritePipeline writes;
  private final SweepSettings settings;
  private final boolean shared;
  private final BooleanSupplier closed;
  private final Map<Integer, Progress> progress = new ConcurrentHashMap<>();
  private final long nanosPerDelete;
  private long nextDeleteAt = System.nanoTime();
  private Thread thread;

  Sweeper(
      Store store,
      Catalog catalog,
      Expiry expiry,
      WritePipeline writes,
      SweepSettings settings,
      boolean shared,
      BooleanSupplier closed) {
    this.store = store;
    this.catalog = catalog;
    this.expiry = expiry;
    this.writes = writes;
    this.settings = settings;
    this.shared = shared;
    this.closed = closed;
    this.nanosPerDelete = TimeUnit.SECONDS.toNanos(1) / settings.maxDeletesPerSecond();
  }

  /** What was swept in a table so far. */
  private static final class Progress {
    final ReentrantLock running = new ReentrantLock();
    final AtomicLong expired = new AtomicLong();
    final AtomicLong scanned = new AtomicLong();
    volatile Instant started;
    volatile Instant ended;

    /**
     * When the last sweep ended, or when the sweeper first saw the table: the interval runs from
     * it.
     */
    volatile long endedNanos = System.nanoTime();
  }

  void start() {
    thread = new Thread(this::run, "viewbase-sweeper");
    thread.setDaemon(true);
    thread.start();
  }

  void stop() {
    if (thread != null) {
      thread.interrupt();
      try {
        thread.join(TimeUnit.SECONDS.toMillis(30));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  SweepStatus status(TableEntry table) {
    Progress p = progress.get(table.id());
    boolean swept = !table.isView() && expiry.mayExpire(table);
    return p == null
        ? new SweepStatus(swept, 0, 0, null, null)
        : new SweepStatus(swept, p.expired.get(), p.scanned.get(), p.started, p.ended);
  }

  /** A forced sweep of the table, now and not rate-limited: how many items it removed. */
  long sweep(TableEntry table) {
    return sweep(table, false);
  }

  private void run() {
    while (!closed.getAsBoolean() && !Thread.currentThread().isInterrupted()) {
      try {
        Thread.sleep(TICK_MILLIS);
        for (TableInfo info : catalog.list()) {
          if (closed.getAsBoolean()) {
            return;
          }
          if (!info.kind().equals(TableInfo.TABLE)) {
            continue;
          }
          TableEntry table = catalog.require(info.name());
          if (shared && !expiry.hasItemTtl(table)) {
            expiry.reread(table); // another process may have written a _ttl since
          }
          Progress p = progress(table);
          if (expiry.mayExpire(table)
              && System.nanoTime() - p.endedNanos >= settings.interval().toNanos()) {
            sweep(table, true);
          }
        }
      } catch (InterruptedException e) {
        return;
      } catch (ViewbaseException | StorageException e) {
        if (!closed.getAsBoolean()) {
          LOG.warn("The time-to-live sweep failed; it will be tried again", e);
        }
      }
    }
  }

  private Progress progress(TableEntry table) {
    return progress.computeIfAbsent(table.id(), id -> new Progress());
  }

  private long sweep(TableEntry table, boolean limited) {
    Progress p = progress(table);
    p.running.lock();
    try {
      p.started = Instant.now();
      long removed = 0;
      byte[] afterPartition = null;
      byte[] afterKey = null;
      while (true) {
        List<Candidate> expired = new ArrayList<>();
        int read = 0;
        try (Cursor cursor = store.scanAll(table.prefix(), afterPartition, afterKey)) {
          while (read < CHUNK && cursor.next()) {
            read++;
            afterPartition = cursor.partition();
            afterKey = cursor.key();
            long version = cursor.version();
            Map<String, Value> own = ItemCodec.decodeOnly(cursor.value(), TTL);
            if (expiry.isExpired(table, version, own.get(TimeToLive.PROPERTY))) {
              expired.add(new Candidate(afterPartition, afterKey, version));
            }
          }
        } catch (StorageException e) {
          throw EmbeddedDatabase.storageError(e);
        }
        p.scanned.addAndGet(read);
        for (Candidate c : expired) {
          if (limited && !waitForTurn()) {
            return removed;
          }
          if (writes.expire(
              table, KeyLayout.partitionKeyOf(c.partition), KeyLayout.idOf(c.key), c.version)) {
            removed++;
            p.expired.incrementAndGet();
          }
        }
        if (read < CHUNK) {
          break;
        }
      }
      p.ended = Instant.now();
      p.endedNanos = System.nanoTime();
      return removed;
    } finally {
      p.running.unlock();
    }
  }

  private record Candidate(byte[] partition, byte[] key, long version) {}

  /** Waits until the rate allows one more removal; false if the database is closing. */
  private boolean waitForTurn() {
    long wait;
    synchronized (this) {
      long now = System.nanoTime();
      long at = Math.max(now, nextDeleteAt);
      nextDeleteAt = at + nanosPerDelete;
      wait = at - now;
    }
    if (wait > 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return !closed.getAsBoolean();
  }
}
