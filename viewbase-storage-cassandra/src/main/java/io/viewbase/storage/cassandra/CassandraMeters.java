package io.viewbase.storage.cassandra;

import com.codahale.metrics.Counting;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Metric;
import com.codahale.metrics.Sampling;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metrics.DefaultSessionMetric;
import com.datastax.oss.driver.api.core.metrics.Metrics;
import io.viewbase.storage.spi.StoreMeters;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/**
 * The DataStax driver's own session metrics as the store's, read when scraped. The driver keeps
 * them in Dropwizard metrics (its default, already on the class path), turned on for the session
 * metrics below only ({@link #ENABLED}); they are bridged as gauges and counters here rather than
 * through the driver's Micrometer module, so that the backend needs no metrics library of its own.
 *
 * <pre>
 * series                                        | driver metric           | type
 * ----------------------------------------------+-------------------------+---------------------
 * viewbase.cassandra.cql.requests               | cql-requests            | counter (requests)
 * viewbase.cassandra.cql.requests.p99.seconds   | cql-requests            | gauge (99th centile,
 *                                               |                         |   refreshed every 30 s)
 * viewbase.cassandra.cql.client.timeouts        | cql-client-timeouts     | counter
 * viewbase.cassandra.connected.nodes            | connected-nodes         | gauge
 * viewbase.cassandra.bytes.sent / .received     | bytes-sent, -received   | counter (bytes)
 * </pre>
 */
final class CassandraMeters {
  /** The session metrics the driver is told to keep (advanced.metrics.session.enabled). */
  static final List<String> ENABLED =
      List.of(
          DefaultSessionMetric.CQL_REQUESTS.getPath(),
          DefaultSessionMetric.CQL_CLIENT_TIMEOUTS.getPath(),
          DefaultSessionMetric.CONNECTED_NODES.getPath(),
          DefaultSessionMetric.BYTES_SENT.getPath(),
          DefaultSessionMetric.BYTES_RECEIVED.getPath());

  /**
   * How often the driver refreshes the latency histogram its percentiles come from (its default is
   * five minutes): the p99 gauge reads 0 until the first refresh, then lags by up to this.
   */
  static final Duration LATENCY_REFRESH = Duration.ofSeconds(30);

  private CassandraMeters() {}

  static void bind(CqlSession session, StoreMeters meters) {
    meters.counter(
        "viewbase.cassandra.cql.requests",
        "CQL requests the driver sent (its cql-requests timer's count)",
        count(session, DefaultSessionMetric.CQL_REQUESTS));
    meters.gauge(
        "viewbase.cassandra.cql.requests.p99.seconds",
        "99th percentile of the driver's CQL request latency, recent requests",
        () -> {
          Optional<Metric> m = metric(session, DefaultSessionMetric.CQL_REQUESTS);
          return m.isPresent() && m.get() instanceof Sampling s
              ? s.getSnapshot().get99thPercentile() / 1e9
              : Double.NaN;
        });
    meters.counter(
        "viewbase.cassandra.cql.client.timeouts",
        "CQL requests that timed out in the driver",
        count(session, DefaultSessionMetric.CQL_CLIENT_TIMEOUTS));
    meters.gauge(
        "viewbase.cassandra.connected.nodes",
        "Cassandra nodes the driver holds at least one connection to",
        () -> {
          Optional<Metric> m = metric(session, DefaultSessionMetric.CONNECTED_NODES);
          return m.isPresent() && m.get() instanceof Gauge<?> g && g.getValue() instanceof Number n
              ? n.doubleValue()
              : Double.NaN;
        });
    meters.counter(
        "viewbase.cassandra.bytes.sent",
        "Bytes the driver sent to the cluster",
        count(session, DefaultSessionMetric.BYTES_SENT));
    meters.counter(
        "viewbase.cassandra.bytes.received",
        "Bytes the driver received from the cluster",
        count(session, DefaultSessionMetric.BYTES_RECEIVED));
  }

  private static DoubleSupplier count(CqlSession session, DefaultSessionMetric which) {
    return () -> {
      Optional<Metric> m = metric(session, which);
      return m.isPresent() && m.get() instanceof Counting c ? c.getCount() : Double.NaN;
    };
  }

  private static Optional<Metric> metric(CqlSession session, DefaultSessionMetric which) {
    Optional<Metrics> metrics = session.getMetrics();
    return metrics.isPresent() ? metrics.get().getSessionMetric(which) : Optional.empty();
  }
}
