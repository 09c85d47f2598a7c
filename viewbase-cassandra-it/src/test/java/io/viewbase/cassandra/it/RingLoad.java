package io.viewbase.cassandra.it;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Table;
import io.viewbase.api.ViewbaseException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * A write and read load on one table and its unique view, from several threads, that records what
 * the database acknowledged. Each worker owns its keys (so "the last acknowledged value" of a key
 * is well defined) and loops: insert a new item or conditionally replace one of its items with the
 * ETag it holds (every write moves the item's unique view key), then read one of its acknowledged
 * items back, alternately from the table and through the view, and check it is the acknowledged
 * revision.
 *
 * <table>
 *   <caption>how a write's outcome is recorded</caption>
 *   <tr><th>the write</th><th>counted as</th><th>the key</th></tr>
 *   <tr><td>returns</td><td>acknowledged</td><td>must hold this revision or a later unknown one</td></tr>
 *   <tr><td>fails with ItemAlreadyExists, ItemNotFound, PreconditionFailed or ViewKeyConflict</td>
 *       <td>refused (not applied; unexpected, as nobody else writes the key)</td><td>retired</td></tr>
 *   <tr><td>fails in any other way (unavailable, timeout, connection lost)</td><td>unknown outcome</td>
 *       <td>retired; may hold this revision</td></tr>
 * </table>
 *
 * Counts are kept per {@link Phase}, the phase the test is in when an operation starts.
 */
final class RingLoad {
  /** Where the ring is while an operation runs. */
  enum Phase {
    ALL_UP,
    NODE_DOWN,
    NODE_RESTARTING,
    NODE_BACK
  }

  /** What one phase saw. */
  record Tally(
      long writesAcknowledged,
      long writesUnknown,
      long writesRefused,
      long readsOk,
      long readsFailed,
      long readsWrong) {
    long writes() {
      return writesAcknowledged + writesUnknown + writesRefused;
    }

    long reads() {
      return readsOk + readsFailed + readsWrong;
    }

    double writeSuccess() {
      return writes() == 0 ? 0 : (double) writesAcknowledged / writes();
    }

    double readSuccess() {
      return reads() == 0 ? 0 : (double) readsOk / reads();
    }
  }

  private static final int MESSAGES_PER_PHASE = 6;

  private final Table table;
  private final Table view;
  private final String viewPartition;
  private final int workers;
  private final long seed;
  private final List<Thread> threads = new ArrayList<>();
  private final List<List<RingKey>> keysByWorker = new ArrayList<>();
  private final Map<Phase, LongAdder[]> counters = new EnumMap<>(Phase.class);
  private final Map<Phase, Queue<String>> messages = new EnumMap<>(Phase.class);
  private final Map<Phase, AtomicLong> longestWriteGap = new EnumMap<>(Phase.class);
  private final AtomicLong lastAcknowledged = new AtomicLong(System.nanoTime());
  private volatile Phase phase = Phase.ALL_UP;
  private volatile boolean stopping;

  RingLoad(Database db, String table, String view, String viewPartition, int workers, long seed) {
    this.table = db.table(table);
    this.view = db.table(view);
    this.viewPartition = viewPartition;
    this.workers = workers;
    this.seed = seed;
    for (Phase p : Phase.values()) {
      LongAdder[] adders = new LongAdder[6];
      for (int i = 0; i < adders.length; i++) {
        adders[i] = new LongAdder();
      }
      counters.put(p, adders);
      longestWriteGap.put(p, new AtomicLong());
      messages.put(p, new ConcurrentLinkedQueue<>());
    }
  }

  void start() {
    for (int w = 0; w < workers; w++) {
      List<RingKey> keys = new ArrayList<>();
      keysByWorker.add(keys);
      int worker = w;
      Thread thread =
          new Thread(() -> run(worker, keys, new Random(seed + worker)), "ring-load-" + w);
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
  }

  void enter(Phase next) {
    phase = next;
  }

  /**
   * Stops the workers and waits for their last operations (each bounded by the request timeout).
   */
  void stop() throws InterruptedException {
    stopping = true;
    for (Thread thread : threads) {
      thread.join(120_000);
      if (thread.isAlive()) {
        throw new IllegalStateException(thread.getName() + " did not stop");
      }
    }
  }

  Tally tally(Phase p) {
    LongAdder[] c = counters.get(p);
    return new Tally(c[0].sum(), c[1].sum(), c[2].sum(), c[3].sum(), c[4].sum(), c[5].sum());
  }

  /** The longest time without any acknowledged write that ended in this phase, in ms. */
  long longestWriteGapMs(Phase p) {
    return longestWriteGap.get(p).get() / 1_000_000;
  }

  /** Every key written, after {@link #stop()}. */
  List<RingKey> keys() {
    List<RingKey> all = new ArrayList<>();
    keysByWorker.forEach(all::addAll);
    return all;
  }

  /** The first failures and wrong reads of a phase, for the log. */
  List<String> messages(Phase p) {
    return List.copyOf(messages.get(p));
  }

  private void run(int worker, List<RingKey> keys, Random random) {
    List<RingKey> live = new ArrayList<>();
    while (!stopping) {
      if (live.size() < 4 || random.nextInt(5) == 0) {
        RingKey key = new RingKey("p" + random.nextInt(16), "w" + worker + "-" + keys.size());
        keys.add(key);
        write(key, () -> table.insert(key.nextWrite()));
        if (!key.isRetired()) {
          live.add(key);
        }
      } else {
        RingKey key = live.get(random.nextInt(live.size()));
        write(key, () -> table.replace(key.nextWrite(), key.etag()));
        if (key.isRetired()) {
          live.remove(key);
        }
      }
      if (!live.isEmpty()) {
        read(live.get(random.nextInt(live.size())), random.nextBoolean());
      }
    }
  }

  private void write(RingKey key, Supplier<Item> write) {
    LongAdder[] c = counters.get(phase);
    try {
      key.acknowledged(write.get());
      c[0].increment();
      long now = System.nanoTime();
      long gap = now - lastAcknowledged.getAndSet(now);
      longestWriteGap.get(phase).accumulateAndGet(gap, Math::max);
    } catch (ViewbaseException e) {
      if (isRefusal(e.code())) {
        key.refused();
        c[2].increment();
        note("refused write of " + key + ": " + describe(e));
      } else {
        key.unknownOutcome();
        c[1].increment();
        note("write with unknown outcome of " + key + ": " + describe(e));
      }
    } catch (RuntimeException e) {
      key.unknownOutcome();
      c[1].increment();
      note("write with unknown outcome of " + key + ": " + describe(e));
    }
  }

  private void read(RingKey key, boolean throughView) {
    LongAdder[] c = counters.get(phase);
    try {
      Optional<Item> found =
          throughView
              ? view.get(viewPartition, key.email())
              : table.get(key.partitionKey(), key.id());
      if (found.isPresent() && RingKey.revisionOf(found.get()) == key.ackedRevision()) {
        c[3].increment();
      } else {
        c[5].increment();
        note((throughView ? "view" : "table") + " read of " + key + " found " + found.orElse(null));
      }
    } catch (RuntimeException e) {
      c[4].increment();
      note("failed " + (throughView ? "view" : "table") + " read of " + key + ": " + describe(e));
    }
  }

  private static boolean isRefusal(ErrorCode code) {
    return code == ErrorCode.ItemAlreadyExists
        || code == ErrorCode.ItemNotFound
        || code == ErrorCode.PreconditionFailed
        || code == ErrorCode.ViewKeyConflict;
  }

  /** The failure and its causes, which say what the driver saw (a closed connection, a timeout). */
  private static String describe(Throwable e) {
    StringBuilder out =
        new StringBuilder(
            e instanceof ViewbaseException v ? v.code() + " " + v.getMessage() : e.toString());
    for (Throwable cause = e.getCause();
        cause != null && cause != cause.getCause();
        cause = cause.getCause()) {
      out.append(" <- ").append(cause);
    }
    return out.toString();
  }

  private void note(String message) {
    Queue<String> kept = messages.get(phase);
    if (kept.size() < MESSAGES_PER_PHASE) {
      kept.add(message);
    }
  }
}
