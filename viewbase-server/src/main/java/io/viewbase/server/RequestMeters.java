package io.viewbase.server;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.viewbase.api.Stability;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One dialect's request series in the {@link ServerMetrics} registry: requests answered, with their
 * latency, by route and status, and requests in flight. Recording is on every request's path, so
 * the timers are looked up without allocating (an array by status under each route label) and made
 * on first use.
 *
 * <pre>
 * series                               | type      | labels
 * -------------------------------------+-----------+-----------------------------
 * viewbase_http_requests_seconds       | histogram | dialect, route, status
 * viewbase_http_requests_in_flight     | gauge     | dialect
 * </pre>
 *
 * Labels are bounded: the route is one of the dialect's fixed set (never a table name or a key) and
 * the status the exact code answered (the server answers a few dozen). The latency buckets, few on
 * purpose (each is a series per route and status): 100 µs and 500 µs (point reads and unsynced
 * writes), 1 ms, 5 ms (durable writes: a log sync), 25 ms, 100 ms (queries, batches), 1 s and 10 s
 * (scans, catalog changes, long-polls).
 */
@Stability(Stability.Level.INTERNAL)
public final class RequestMeters {
  private static final Duration[] BUCKETS = {
    Duration.ofNanos(100_000),
    Duration.ofNanos(500_000),
    Duration.ofMillis(1),
    Duration.ofMillis(5),
    Duration.ofMillis(25),
    Duration.ofMillis(100),
    Duration.ofSeconds(1),
    Duration.ofSeconds(10)
  };
  private static final int MIN_STATUS = 100;
  private static final int MAX_STATUS = 599;

  private final MeterRegistry registry;
  private final String dialect;
  private final AtomicInteger inFlight = new AtomicInteger();

  /** Timers by route label, each an array by status (filled as statuses occur). */
  private final Map<String, Timer[]> timers = new ConcurrentHashMap<>();

  RequestMeters(MeterRegistry registry, String dialect) {
    this.registry = registry;
    this.dialect = dialect;
    Gauge.builder("viewbase.http.requests.in.flight", inFlight, AtomicInteger::get)
        .description("HTTP requests received and not yet answered")
        .tag("dialect", dialect)
        .register(registry);
  }

  /** A request starts being served. */
  public void started() {
    inFlight.incrementAndGet();
  }

  /**
   * A request's answer is handed to its connection, {@code nanos} after it started being served.
   *
   * @param route the dialect's label for what it addressed: one of a fixed set
   */
  public void finished(String route, int status, long nanos) {
    inFlight.decrementAndGet();
    timer(route, status).record(nanos, TimeUnit.NANOSECONDS);
  }

  /** Requests in flight now. */
  int inFlight() {
    return inFlight.get();
  }

  private Timer timer(String route, int status) {
    int code = Math.min(Math.max(status, MIN_STATUS), MAX_STATUS);
    Timer[] byStatus = timers.computeIfAbsent(route, r -> new Timer[MAX_STATUS + 1]);
    Timer timer = byStatus[code];
    if (timer == null) {
      // a race makes it twice: the registry gives both callers the same timer
      timer =
          Timer.builder("viewbase.http.requests")
              .description("HTTP requests answered, with their latency, by route and status")
              .tags("dialect", dialect, "route", route, "status", Integer.toString(code))
              .serviceLevelObjectives(BUCKETS)
              .register(registry);
      byStatus[code] = timer;
    }
    return timer;
  }
}
