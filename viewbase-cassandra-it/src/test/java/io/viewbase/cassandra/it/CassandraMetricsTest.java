package io.viewbase.cassandra.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.server.ServerMetrics;
import io.viewbase.server.ServerOptions;
import io.viewbase.server.ViewbaseServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * On Cassandra, {@code /metrics} carries the DataStax driver's session metrics (requests, their
 * latency, timeouts, connected nodes, bytes), and they move as the server writes: the shared node,
 * a fresh table, the native API over a real socket.
 */
class CassandraMetricsTest {
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void driverMetricsArePresentAndMoveUnderWrites() throws Exception {
    try (Database db = SharedCassandra.open(SharedCassandra.freshName("metrics"), Map.of());
        ViewbaseServer server =
            ViewbaseServer.start(db, ServerOptions.defaults().withPort(0), new ServerMetrics())) {
      String base = "http://127.0.0.1:" + server.port();
      send("PUT", base + "/v1/tables/Metered", null);
      String first = send("GET", base + "/metrics", null);
      for (int i = 0; i < 20; i++) {
        send("PUT", base + "/v1/tables/Metered/items/p/i" + i, "{\"n\":" + i + "}");
      }
      String second = send("GET", base + "/metrics", null);

      assertThat(value(second, "viewbase_cassandra_cql_requests_total"))
          .isGreaterThanOrEqualTo(value(first, "viewbase_cassandra_cql_requests_total") + 20);
      assertThat(value(second, "viewbase_cassandra_bytes_sent_total"))
          .isGreaterThan(value(first, "viewbase_cassandra_bytes_sent_total"));
      assertThat(value(second, "viewbase_cassandra_bytes_received_total")).isPositive();
      assertThat(value(second, "viewbase_cassandra_connected_nodes")).isGreaterThanOrEqualTo(1);
      assertThat(value(second, "viewbase_cassandra_cql_client_timeouts_total")).isNotNegative();
      // the driver refreshes its percentiles every 30 s: 0 until then
      assertThat(value(second, "viewbase_cassandra_cql_requests_p99_seconds")).isNotNegative();
    }
  }

  private String send(String method, String uri, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(uri));
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    b.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(method + " " + uri + ": " + r.body()).isBetween(200, 299);
    return r.body();
  }

  /** The value of an unlabelled series in the scrape. */
  private static double value(String scrape, String series) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(scrape);
    assertThat(m.find()).as(series + " in\n" + scrape).isTrue();
    return Double.parseDouble(m.group(1));
  }
}
