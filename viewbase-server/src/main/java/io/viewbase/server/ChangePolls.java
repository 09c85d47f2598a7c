package io.viewbase.server;

import io.netty.util.concurrent.DefaultThreadFactory;
import io.viewbase.api.ChangePage;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Table;
import io.viewbase.api.ViewbaseException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Long-polls of change feeds that hold no thread while they wait. A poll reads the feed once
 * ({@link Table#changes} without waiting); if nothing is there yet, it is parked with the other
 * polls of its table. Every {@link #TICK} one probe per table with parked polls reads the feed's
 * latest sequence, and the polls behind it read their entries and answer; a poll whose wait has run
 * out answers with what is there then (usually an empty page). So a waiting poll costs a few
 * objects, not a thread, and the feed is read once per tick per table however many polls wait on
 * it; an entry is answered at most a tick (plus a read) after its commit, wherever the write came
 * from (this server, another server on the same Cassandra keyspace, an embedded caller).
 *
 * <p>The reads run on a few threads of this class's own ({@code viewbase-changes}), never on an
 * event loop, since each is a storage read of up to a page. How many polls may wait is bounded by
 * the connections a listener allows (each waiting poll is a connection being served).
 *
 * <pre>
 * the first read finds      | then
 * --------------------------+-----------------------------------------------------------
 * entries, or wait is zero  | answered at once
 * none                      | parked; answered once a probe sees a later sequence, the
 *                           |   wait runs out, or the server closes (with what is there)
 * an error                  | answered with it (ChangeFeedDisabled, ChangesExpired, ...)
 * </pre>
 */
final class ChangePolls implements AutoCloseable {
  /** How often parked polls' tables are probed: the most an answer waits after a commit. */
  static final Duration TICK = Duration.ofMillis(20);

  private static final int THREADS =
      Math.max(2, Math.min(8, Runtime.getRuntime().availableProcessors()));

  /** Parked polls by table name, lower-cased (table names are unique regardless of case). */
  private final ConcurrentHashMap<String, Watch> watches = new ConcurrentHashMap<>();

  private ScheduledThreadPoolExecutor threads; // guarded by this; started on first use
  private volatile boolean closed;

  /** One poll: where it reads from, and what answers it. */
  private static final class Poll {
    final Table table;
    final long after;
    final int limit;
    final long deadline; // System.nanoTime()
    final CompletableFuture<ChangePage> answer;

    Poll(Table table, long after, int limit, long deadline, CompletableFuture<ChangePage> answer) {
      this.table = table;
      this.after = after;
      this.limit = limit;
      this.deadline = deadline;
      this.answer = answer;
    }

    boolean due(long now) {
      return now - deadline >= 0;
    }
  }

  /** The parked polls of one table. */
  private static final class Watch {
    final List<Poll> polls = new ArrayList<>(); // guarded by this
    boolean probing; // guarded by this
    boolean gone; // guarded by this: removed from the map, take no more polls
  }

  /**
   * The feed's entries after {@code after}, at most {@code limit}, waiting up to {@code wait} for
   * the first; completes on one of this class's threads, with the page or the read's failure.
   *
   * @param table looks the table up (on a poll thread: it may read the catalog)
   */
  CompletableFuture<ChangePage> poll(Supplier<Table> table, long after, int limit, Duration wait) {
    CompletableFuture<ChangePage> answer = new CompletableFuture<>();
    long deadline = System.nanoTime() + wait.toNanos();
    try {
      execute(
          () -> {
            try {
              read(new Poll(table.get(), after, limit, deadline, answer));
            } catch (RuntimeException | Error e) {
              answer.completeExceptionally(e);
            }
          });
    } catch (RejectedExecutionException closing) {
      // A poll that arrives while the server closes is answered as the parked ones are: with what
      // the feed holds now (it was received, so it gets a page, not a refusal).
      try {
        answer.complete(table.get().changes(after, limit, Duration.ZERO));
      } catch (RuntimeException | Error e) {
        answer.completeExceptionally(e);
      }
    }
    return answer;
  }

  /** Reads a poll's entries: answers it if there are some or it is due, else parks it. */
  private void read(Poll poll) {
    ChangePage page = poll.table.changes(poll.after, poll.limit, Duration.ZERO);
    if (!page.changes().isEmpty() || poll.due(System.nanoTime()) || !park(poll)) {
      poll.answer.complete(page);
    }
  }

  /**
   * Parks a poll with its table's others; false once closing (checked under the watch's lock, which
   * {@link #close} takes after setting {@code closed}, so no poll is parked after close collected
   * them).
   */
  private boolean park(Poll poll) {
    String key = poll.table.name().toLowerCase(Locale.ROOT);
    while (true) {
      Watch watch = watches.computeIfAbsent(key, k -> new Watch());
      synchronized (watch) {
        if (closed) {
          return false;
        }
        if (!watch.gone) {
          watch.polls.add(poll);
          return true;
        }
      }
    }
  }

  /** Starts a probe of every table with parked polls that is not being probed already. */
  private void tick() {
    for (var entry : watches.entrySet()) {
      Watch watch = entry.getValue();
      synchronized (watch) {
        if (watch.probing || watch.polls.isEmpty()) {
          continue;
        }
        watch.probing = true;
      }
      execute(() -> probe(entry.getKey(), watch));
    }
  }

  /**
   * Reads the table's latest sequence once, and sends every poll that is behind it, or due, to read
   * its entries. A probe that fails (the table dropped, its feed disabled) sends them all: each
   * read answers its own error.
   */
  private void probe(String key, Watch watch) {
    Poll newest;
    long furthest = 0;
    synchronized (watch) {
      if (watch.polls.isEmpty()) { // close() took them
        watch.probing = false;
        return;
      }
      newest = watch.polls.get(watch.polls.size() - 1);
      for (Poll p : watch.polls) {
        furthest = Math.max(furthest, p.after);
      }
    }
    ChangePage latest;
    try {
      latest = newest.table.changes(furthest, 1, Duration.ZERO);
    } catch (RuntimeException | Error e) {
      latest = null;
    }
    long now = System.nanoTime();
    List<Poll> ready = new ArrayList<>();
    synchronized (watch) {
      for (Iterator<Poll> it = watch.polls.iterator(); it.hasNext(); ) {
        Poll p = it.next();
        if (latest == null || p.after < latest.latest() || p.due(now) || closed) {
          it.remove();
          ready.add(p);
        }
      }
      watch.probing = false;
      if (watch.polls.isEmpty()) {
        watch.gone = true;
        watches.remove(key, watch);
      }
    }
    for (Poll p : ready) {
      run(p.answer, () -> read(p), "The server is shutting down");
    }
  }

  /** Runs a read on a poll thread; its failure, or a refusal to run it, answers the poll. */
  private void run(CompletableFuture<ChangePage> answer, Runnable read, String refusal) {
    try {
      execute(
          () -> {
            try {
              read.run();
            } catch (RuntimeException | Error e) {
              answer.completeExceptionally(e);
            }
          });
    } catch (RejectedExecutionException stopping) {
      answer.completeExceptionally(ViewbaseException.of(ErrorCode.ShuttingDown, refusal));
    }
  }

  private void execute(Runnable task) {
    threads().execute(task);
  }

  private synchronized ScheduledThreadPoolExecutor threads() {
    if (closed) {
      throw new RejectedExecutionException("closed");
    }
    if (threads == null) {
      threads =
          new ScheduledThreadPoolExecutor(
              THREADS, new DefaultThreadFactory("viewbase-changes", true));
      threads.scheduleWithFixedDelay(
          this::tickQuietly, TICK.toMillis(), TICK.toMillis(), TimeUnit.MILLISECONDS);
    }
    return threads;
  }

  private void tickQuietly() {
    try {
      tick();
    } catch (RejectedExecutionException closing) {
      // close() answers what is parked
    }
  }

  /**
   * Answers every parked poll with what its feed holds now (a client polls again, elsewhere or once
   * the server is back), and stops the threads; a poll that arrives after is answered the same way,
   * on its own thread.
   */
  @Override
  public void close() {
    ScheduledThreadPoolExecutor running;
    synchronized (this) {
      if (closed) {
        return;
      }
      running = threads;
      closed = true; // read() answers instead of parking from now on
    }
    if (running == null) {
      return;
    }
    List<Poll> parked = new ArrayList<>();
    for (Watch watch : watches.values()) {
      synchronized (watch) {
        parked.addAll(watch.polls);
        watch.polls.clear();
        watch.gone = true;
      }
    }
    watches.clear();
    for (Poll p : parked) {
      try {
        running.execute(
            () -> {
              try {
                read(p);
              } catch (RuntimeException | Error e) {
                p.answer.completeExceptionally(e);
              }
            });
      } catch (RejectedExecutionException e) {
        p.answer.completeExceptionally(
            ViewbaseException.of(ErrorCode.ShuttingDown, "The server is shutting down"));
      }
    }
    running.shutdown();
    try {
      if (!running.awaitTermination(5, TimeUnit.SECONDS)) {
        running.shutdownNow();
      }
    } catch (InterruptedException e) {
      running.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
