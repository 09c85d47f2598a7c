package io.viewbase.api;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Flow;

/**
 * {@link Table#follow}: a publisher over {@link Table#changes}, so that it works alike on every
 * {@link Table} (embedded, or over HTTP). Each subscription has a reader thread of its own that
 * long-polls the feed for as many entries as are requested (a page at most), hands them to the
 * subscriber on that thread, in order, and waits while nothing is requested: back-pressure is the
 * subscriber's demand.
 */
final class ChangeFollower implements Flow.Publisher<Change> {
  /** How long one poll waits for an entry before asking again (and seeing a cancel). */
  private static final Duration POLL = Duration.ofSeconds(5);

  private final Table table;
  private final long after;

  ChangeFollower(Table table, long after) {
    if (after < 0) {
      throw new ViewbaseException(ErrorCode.InvalidInput, "A feed position is 0 or more");
    }
    this.table = table;
    this.after = after;
  }

  @Override
  public void subscribe(Flow.Subscriber<? super Change> subscriber) {
    Objects.requireNonNull(subscriber, "subscriber");
    Reader reader = new Reader(subscriber);
    Thread thread = new Thread(reader, "viewbase-follow-" + table.name());
    thread.setDaemon(true);
    subscriber.onSubscribe(reader);
    thread.start();
  }

  private final class Reader implements Flow.Subscription, Runnable {
    private final Flow.Subscriber<? super Change> subscriber;
    private long demand; // guarded by this
    private boolean cancelled; // guarded by this
    private long position = after;

    Reader(Flow.Subscriber<? super Change> subscriber) {
      this.subscriber = subscriber;
    }

    @Override
    public synchronized void request(long n) {
      if (n <= 0) {
        cancelled = true;
        notifyAll();
        subscriber.onError(
            new IllegalArgumentException("request(n) needs n > 0 (Flow rule 3.9), was " + n));
        return;
      }
      demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
      notifyAll();
    }

    @Override
    public synchronized void cancel() {
      cancelled = true;
      notifyAll();
    }

    /** Waits for demand; returns how much (at most a page), or 0 once cancelled. */
    private synchronized int awaitDemand() throws InterruptedException {
      while (demand == 0 && !cancelled) {
        wait();
      }
      return cancelled ? 0 : (int) Math.min(demand, ChangePage.MAX_LIMIT);
    }

    private synchronized boolean take() {
      if (cancelled) {
        return false;
      }
      demand--;
      return true;
    }

    @Override
    public void run() {
      try {
        while (true) {
          int wanted = awaitDemand();
          if (wanted == 0) {
            return;
          }
          ChangePage page = table.changes(position, wanted, POLL);
          for (Change change : page.changes()) {
            if (!take()) {
              return;
            }
            position = change.sequence();
            subscriber.onNext(change);
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (RuntimeException e) {
        boolean report;
        synchronized (this) {
          report = !cancelled;
          cancelled = true;
        }
        if (report) {
          subscriber.onError(e);
        }
      }
    }
  }
}
