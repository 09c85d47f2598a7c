package io.viewbase.server;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The server's counters, rendered in the Prometheus text format: requests answered by route and
 * status class, and requests in flight. Counting is lock-free; it runs on every request.
 */
final class ServerMetrics {
  private static final String[] CLASSES = {"1xx", "2xx", "3xx", "4xx", "5xx"};

  private final LongAdder[][] answered = new LongAdder[Route.values().length][CLASSES.length];
  private final AtomicInteger inFlight = new AtomicInteger();

  ServerMetrics() {
    for (LongAdder[] byClass : answered) {
      for (int i = 0; i < byClass.length; i++) {
        byClass[i] = new LongAdder();
      }
    }
  }

  void answered(Route route, int status) {
    int statusClass = Math.min(Math.max(status / 100, 1), 5) - 1;
    answered[route.ordinal()][statusClass].increment();
  }

  void started() {
    inFlight.incrementAndGet();
  }

  void finished() {
    inFlight.decrementAndGet();
  }

  int inFlight() {
    return inFlight.get();
  }

  /** Prometheus text exposition format 0.0.4; series that are still zero are left out. */
  String render() {
    StringBuilder out = new StringBuilder(1024);
    out.append(
        "# HELP viewbase_http_requests_total HTTP requests answered, by route and status class.\n");
    out.append("# TYPE viewbase_http_requests_total counter\n");
    for (Route route : Route.values()) {
      for (int c = 0; c < CLASSES.length; c++) {
        long n = answered[route.ordinal()][c].sum();
        if (n > 0) {
          out.append("viewbase_http_requests_total{route=\"")
              .append(route.label())
              .append("\",status=\"")
              .append(CLASSES[c])
              .append("\"} ")
              .append(n)
              .append('\n');
        }
      }
    }
    out.append(
        "# HELP viewbase_http_requests_in_flight HTTP requests received and not yet answered.\n");
    out.append("# TYPE viewbase_http_requests_in_flight gauge\n");
    out.append("viewbase_http_requests_in_flight ").append(inFlight.get()).append('\n');
    return out.toString();
  }
}
