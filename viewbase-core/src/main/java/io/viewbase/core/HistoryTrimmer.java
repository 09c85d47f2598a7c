package io.viewbase.core;

import io.viewbase.api.Value;
import io.viewbase.api.ViewDefinition;
import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.PartitionCursor;
import io.viewbase.storage.spi.Store;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the history entries past their view's retention, in a pass over every ready history view
 * that has one, every {@link #INTERVAL} while the database is open. Writes never wait for it: a
 * write adds its entry and reads nothing, so an entry past retention is readable until the next
 * pass has removed it.
 *
 * <pre>
 * retention    | an entry goes when                                   | a pass reads, per partition
 * -------------+------------------------------------------------------+-----------------------------
 * maxVersions N | N newer entries are in its view partition           | the newest N entries, and the
 *              |                                                      |   ones it removes
 * maxAge T     | its version (its id's first 19 digits) is older than | the entries it removes
 *              |   the pass's start minus T                           |
 * both         | either says so                                       | as for maxVersions
 * </pre>
 *
 * Each removal is conditional on the entry being the one read (history entries are written once, so
 * only a drop or a repair changes one), in batches of {@value #BATCH}.
 */
final class HistoryTrimmer implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(HistoryTrimmer.class);

  /** How often a pass runs. */
  static final Duration INTERVAL = Duration.ofSeconds(10);

  private static final int BATCH = 256;

  private final Store store;
  private final Supplier<List<ViewHandle>> views;
  private final BooleanSupplier closing;

  HistoryTrimmer(Store store, Supplier<List<ViewHandle>> views, BooleanSupplier closing) {
    this.store = store;
    this.views = views;
    this.closing = closing;
  }

  @Override
  public void run() {
    while (!closing.getAsBoolean()) {
      try {
        Thread.sleep(INTERVAL.toMillis());
      } catch (InterruptedException e) {
        return; // closing
      }
      try {
        pass();
      } catch (RuntimeException e) {
        if (closing.getAsBoolean()) {
          return;
        }
        LOG.warn("A pass removing history entries past retention failed; the next one retries", e);
      }
    }
  }

  /** One pass over every ready history view with a retention; returns the entries removed. */
  long pass() {
    long removed = 0;
    for (ViewHandle view : views.get()) {
      ViewDefinition d = view.spec().definition();
      if (d.kind() == ViewDefinition.Kind.HISTORY
          && d.retention() != null
          && !d.retention().isNone()
          && view.isReady()
          && !view.isStopped()) {
        removed += trim(view, d.retention());
      }
    }
    return removed;
  }

  private long trim(ViewHandle view, ViewDefinition.Retention retention) {
    byte[] ageBound =
        retention.maxAge() == null || retention.maxAge().isZero()
            ? null
            : KeyLayout.sortKey(
                ViewDefinition.historyId(
                    Value.DateTime.of(Instant.now().minus(retention.maxAge())).ticks()));
    long keep = retention.maxVersions();
    List<Mutation> expired = new ArrayList<>();
    long removed = 0;
    try (PartitionCursor partitions =
        store.partitions(KeyLayout.tablePrefix(view.table().id()), null)) {
      while (partitions.next() && !closing.getAsBoolean() && !view.isStopped()) {
        byte[] partition = partitions.partition();
        if (keep > 0) {
          long newer = 0;
          try (Cursor c = store.scan(partition, KeyRange.ALL, true)) {
            while (c.next()) {
              if (newer++ >= keep || (ageBound != null && older(c.key(), ageBound))) {
                expired.add(
                    new Mutation.Delete(partition, c.key(), Condition.version(c.version())));
              }
            }
          }
        } else {
          try (Cursor c = store.scan(partition, new KeyRange(null, true, ageBound, false), false)) {
            while (c.next()) {
              expired.add(new Mutation.Delete(partition, c.key(), Condition.version(c.version())));
            }
          }
        }
        if (expired.size() >= BATCH) {
          removed += remove(view, expired);
        }
      }
    }
    return removed + remove(view, expired);
  }

  private static boolean older(byte[] key, byte[] bound) {
    return Arrays.compareUnsigned(key, bound) < 0;
  }

  /** Commits the removals, one by one if some entry changed; empties the list. */
  private long remove(ViewHandle view, List<Mutation> expired) {
    if (expired.isEmpty()) {
      return 0;
    }
    long removed = 0;
    view.table().beginWrite(); // keeps a drop from purging the view while this lands
    try {
      for (int from = 0; from < expired.size(); from += BATCH) {
        List<Mutation> batch = expired.subList(from, Math.min(expired.size(), from + BATCH));
        try {
          store.commit(batch);
          removed += batch.size();
        } catch (ConditionFailedException e) {
          for (Mutation m : batch) {
            try {
              store.commit(List.of(m));
              removed++;
            } catch (ConditionFailedException changed) {
              // repaired or removed meanwhile: left to the next pass
            }
          }
        }
      }
    } finally {
      view.table().endWrite();
      expired.clear();
    }
    return removed;
  }
}
