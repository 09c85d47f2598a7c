package io.viewbase.server.dynamodb;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Page;
import io.viewbase.api.Query;
import io.viewbase.api.Table;
import io.viewbase.api.TimeToLive;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import io.viewbase.filter.Filters;
import io.viewbase.server.dynamodb.DynamoDbTable.TtlStatus;
import io.viewbase.server.dynamodb.model.AttributeValue;
import io.viewbase.server.dynamodb.model.JsonTree;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The passes that bring a table's existing items in line with its time-to-live specification, as
 * DynamoDB applies TTL to the items written before it was enabled: while the status is ENABLING,
 * every item whose TTL attribute gives a time gets {@code _ttl} ({@link TtlAttribute}); while it is
 * DISABLING, every item whose {@code _ttl} is the time its attribute gives loses it. At the end the
 * status becomes ENABLED, or the specification is removed (DISABLED).
 *
 * <pre>
 * step                   | how
 * -----------------------+--------------------------------------------------------------------------
 * start                  | {@value #START_DELAY_MILLIS} ms after UpdateTimeToLive, so that every
 *                        |   server's cached description ({@link DynamoDbTables#FRESH}) says what the
 *                        |   writes must do before the pass reads the items they could miss
 * walk                   | the table in key order, pages of {@value #PAGE} (expired items are not
 *                        |   read: they stay expired)
 * rewrite                | a replace at the ETag read, with _ttl set or removed; an item written
 *                        |   meanwhile (412, 404) is skipped, its own write having decided its _ttl;
 *                        |   at most {@value #MAX_WRITES_PER_SECOND} rewrites a second
 * progress               | the last key of each page in the table setting {@value #PROGRESS}, so a
 *                        |   pass stopped by a restart resumes there ({@link #resumeAll}, at start)
 * end                    | the status ENABLED, or the specification removed; the progress removed
 * </pre>
 *
 * Each rewrite is a write like any: a new version of the item, and a change-feed entry, which the
 * stream leaves out since no attribute changed ({@link StreamRecords}). One thread runs the passes
 * of every table, one pass at a time. Several servers sharing a store each resume an unfinished
 * pass; their rewrites are idempotent and conditional, so they only repeat work.
 */
final class TtlPasses implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TtlPasses.class);

  /** The table setting holding an unfinished pass's position. */
  static final String PROGRESS = "dynamodb.ttlPass";

  static final long START_DELAY_MILLIS = 1500;
  static final int PAGE = 500;
  static final int MAX_WRITES_PER_SECOND = 1000;
  private static final Duration RETRY = Duration.ofSeconds(30);

  private final Database db;
  private final DynamoDbTables tables;
  private final ScheduledExecutorService executor;
  private final Set<String> queued = ConcurrentHashMap.newKeySet();

  TtlPasses(Database db, DynamoDbTables tables) {
    this.db = db;
    this.tables = tables;
    this.executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "viewbase-dynamodb-ttl");
              t.setDaemon(true);
              return t;
            });
  }

  /** Schedules the pass of a table whose specification is ENABLING or DISABLING. */
  void start(String table) {
    schedule(table, START_DELAY_MILLIS);
  }

  /** Schedules the passes that a stop left unfinished (run once, when the dialect starts). */
  void resumeAll() {
    executor.execute(
        () -> {
          try {
            for (DynamoDbTable t : tables.list()) {
              if (t.ttl() != null && t.ttl().status() != TtlStatus.ENABLED) {
                schedule(t.name(), START_DELAY_MILLIS);
              }
            }
          } catch (RuntimeException e) {
            LOG.warn("Could not look for unfinished DynamoDB time-to-live passes", e);
          }
        });
  }

  private void schedule(String table, long delayMillis) {
    if (queued.add(table)) {
      try {
        executor.schedule(() -> runQuietly(table), delayMillis, TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException e) {
        queued.remove(table); // closing: a later start resumes it (resumeAll)
      }
    }
  }

  private void runQuietly(String table) {
    queued.remove(table);
    try {
      run(table);
    } catch (ViewbaseException e) {
      if (e.code() == ErrorCode.TableNotFound || e.code() == ErrorCode.ResourceNotFound) {
        return; // deleted meanwhile: nothing left to do
      }
      LOG.warn("The time-to-live pass of DynamoDB table {} failed; retrying", table, e);
      schedule(table, RETRY.toMillis());
    } catch (RuntimeException e) {
      LOG.warn("The time-to-live pass of DynamoDB table {} failed; retrying", table, e);
      schedule(table, RETRY.toMillis());
    }
  }

  /**
   * Runs a table's pass now, to its end, unless its specification changes meanwhile.
   *
   * @return how many items it rewrote
   */
  long run(String name) {
    DynamoDbTable table = fresh(name);
    DynamoDbTable.TimeToLive spec = table.ttl();
    if (spec == null || spec.status() == TtlStatus.ENABLED) {
      return 0;
    }
    Table items = db.table(table.viewbaseName());
    String property = AttributeNames.property(spec.attribute());
    Query query = Query.all().withLimit(PAGE);
    Optional<String[]> resume = progress(table, spec);
    if (resume.isPresent()) {
      query = query.withFilter(Filters.after(resume.get()[0], resume.get()[1]));
    }
    Throttle throttle = new Throttle();
    long rewritten = 0;
    while (true) {
      Page page = items.query(query);
      Item last = null;
      for (Item item : page.items()) {
        last = item;
        Map<String, Value> next = rewrite(spec, property, item);
        if (next != null && replace(items, item, next)) {
          rewritten++;
          throttle.wrote();
        }
      }
      if (!page.hasMore()) {
        break;
      }
      if (last != null) {
        db.putSetting(table.viewbaseName(), PROGRESS, encode(spec, last));
      }
      if (!spec.equals(fresh(name).ttl())) {
        return rewritten; // changed meanwhile: that change's pass takes over
      }
      query = query.withContinuation(page.continuation());
    }
    tables.update(
        name,
        t -> {
          if (!spec.equals(t.ttl())) {
            return t;
          }
          return t.withTtl(
              spec.status() == TtlStatus.ENABLING
                  ? new DynamoDbTable.TimeToLive(spec.attribute(), TtlStatus.ENABLED)
                  : null);
        });
    db.putSetting(table.viewbaseName(), PROGRESS, null);
    return rewritten;
  }

  /** The item's properties with its _ttl set or removed as the pass wants, or null: as they are. */
  static Map<String, Value> rewrite(DynamoDbTable.TimeToLive spec, String property, Item item) {
    Value own = item.properties().get(TimeToLive.PROPERTY);
    Value attribute = item.properties().get(property);
    AttributeValue value = attribute == null ? null : ItemValues.toAttribute(attribute);
    Map<String, Value> next = new LinkedHashMap<>(item.properties());
    if (spec.status() == TtlStatus.ENABLING) {
      Value.DateTime at = TtlAttribute.expiry(value, Instant.now());
      if (at == null || at.equals(own)) {
        return null; // no time to set (an own _ttl written natively stays), or set already
      }
      next.put(TimeToLive.PROPERTY, at);
    } else {
      if (own == null || !own.equals(TtlAttribute.time(value))) {
        return null; // a _ttl the attribute did not give is not the pass's to remove
      }
      next.remove(TimeToLive.PROPERTY);
    }
    return next;
  }

  /** Replaces the item as read; false when it was written (or deleted) meanwhile. */
  private static boolean replace(Table items, Item read, Map<String, Value> next) {
    try {
      items.replace(Item.of(read.partitionKey(), read.id(), next), read.etag());
      return true;
    } catch (ViewbaseException e) {
      if (e.code() == ErrorCode.PreconditionFailed || e.code() == ErrorCode.ItemNotFound) {
        return false;
      }
      throw e;
    }
  }

  private DynamoDbTable fresh(String name) {
    tables.forget(name);
    return tables.describe(name);
  }

  /** {@code {"AttributeName", "TimeToLiveStatus", "PartitionKey", "Id"}}: the last key done. */
  private static String encode(DynamoDbTable.TimeToLive spec, Item last) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("AttributeName", spec.attribute());
    m.put("TimeToLiveStatus", spec.status().name());
    m.put("PartitionKey", last.partitionKey());
    m.put("Id", last.id());
    return new String(JsonTree.write(m), StandardCharsets.UTF_8);
  }

  /** The position of an unfinished pass of this very specification, if one was stored. */
  private Optional<String[]> progress(DynamoDbTable table, DynamoDbTable.TimeToLive spec) {
    Optional<String> stored = db.setting(table.viewbaseName(), PROGRESS);
    if (stored.isEmpty()) {
      return Optional.empty();
    }
    try {
      Map<?, ?> m =
          (Map<?, ?>)
              JsonTree.read(stored.get().getBytes(StandardCharsets.UTF_8), Integer.MAX_VALUE);
      if (spec.attribute().equals(m.get("AttributeName"))
          && spec.status().name().equals(m.get("TimeToLiveStatus"))) {
        return Optional.of(new String[] {(String) m.get("PartitionKey"), (String) m.get("Id")});
      }
    } catch (RuntimeException e) {
      LOG.warn("Ignoring an unreadable time-to-live pass position of {}", table.name(), e);
    }
    return Optional.empty();
  }

  @Override
  public void close() {
    executor.shutdownNow();
    try {
      executor.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** At most {@link #MAX_WRITES_PER_SECOND} rewrites in each second. */
  private static final class Throttle {
    private long windowStart = System.nanoTime();
    private int writes;

    void wrote() {
      if (++writes < MAX_WRITES_PER_SECOND) {
        return;
      }
      long rest = TimeUnit.SECONDS.toNanos(1) - (System.nanoTime() - windowStart);
      if (rest > 0) {
        try {
          TimeUnit.NANOSECONDS.sleep(rest);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted", e);
        }
      }
      windowStart = System.nanoTime();
      writes = 0;
    }
  }
}
