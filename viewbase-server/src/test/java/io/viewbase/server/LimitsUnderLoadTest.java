package io.viewbase.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.server.azure.AzureOptions;
import io.viewbase.server.azure.AzureTablesServer;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every limit the native API states (docs/http-api.md, Limits and Connections), met by a client
 * just over it on a real socket, while another client writes and reads the same server without a
 * single failure. Each refusal must carry its stated status and error code; a 5xx other than the
 * stated 503, a dropped connection or another code is a bug.
 *
 * <pre>
 * limit                          | just over it                        | stated answer
 * -------------------------------+-------------------------------------+------------------------------
 * request body, 8 MiB            | Content-Length 8 MiB + 1            | 413 RequestTooLarge, closed
 * request line, 128 KiB          | a path of 129 KiB                   | 413 RequestTooLarge, closed
 * request headers, 16 KiB        | one header of 17 KiB                | 413 RequestTooLarge, closed
 * batch, 100 operations          | 101 checks                          | 400 InvalidInput
 * filter, 32,768 characters      | 32,769                              | 400 InvalidFilter
 * filter nesting, 100            | 101 parentheses deep                | 400 InvalidFilter
 * page, 1000 items               | limit=1001                          | 400 InvalidQuery
 * connections (here 4)           | the 5th open connection             | 503 ServerBusy, closed
 * header timeout (here 300 ms)   | half a request line, then silence   | 408 RequestTimeout, closed
 * body timeout (here 300 ms)     | half a body, then silence           | 408 RequestTimeout, closed
 * </pre>
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LimitsUnderLoadTest {
  private static final int MAX_CONNECTIONS = 4;
  private static final Duration SHORT = Duration.ofMillis(300);
  private static final Pattern CODE = Pattern.compile("\"code\" *: *\"([A-Za-z]+)\"");

  @TempDir static Path dir;
  private Database db;
  private ViewbaseServer server;
  private Thread other;

  /** The other client's HTTP client, one for the class: it keeps one connection open throughout. */
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(2))
          .build();

  private final AtomicBoolean running = new AtomicBoolean();
  private final AtomicLong served = new AtomicLong();
  private final ConcurrentLinkedQueue<String> otherFailures = new ConcurrentLinkedQueue<>();

  @BeforeAll
  void start() {
    db = Viewbase.open(OpenOptions.at(dir));
    db.createTable("Things");
    server =
        ViewbaseServer.start(
            db,
            ServerOptions.defaults()
                .withPort(0)
                .withConnections(
                    ConnectionLimits.defaults()
                        .withMaxConnections(MAX_CONNECTIONS)
                        .withHeaderTimeout(SHORT)
                        .withBodyTimeout(SHORT)));
  }

  @AfterAll
  void stop() {
    try (Database closing = db) {
      server.close();
    }
  }

  /** The other client: its kept-alive connection writes and reads an item, as fast as it can. */
  @BeforeEach
  void startTheOtherClient() {
    running.set(true);
    served.set(0);
    other =
        new Thread(
            () -> {
              long n = 0;
              while (running.get()) {
                try {
                  n++;
                  URI uri = uri("/v1/tables/Things/items/p/other");
                  HttpResponse<String> put =
                      http.send(
                          HttpRequest.newBuilder(uri)
                              .timeout(Duration.ofSeconds(10))
                              .header("Content-Type", "application/json")
                              .PUT(HttpRequest.BodyPublishers.ofString("{\"n\":" + n + "}"))
                              .build(),
                          HttpResponse.BodyHandlers.ofString());
                  HttpResponse<String> get =
                      http.send(
                          HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                          HttpResponse.BodyHandlers.ofString());
                  if (put.statusCode() != 200
                      || get.statusCode() != 200
                      || !get.body().contains("\"n\":" + n)) {
                    otherFailures.add(put.statusCode() + " " + get.statusCode() + " " + get.body());
                  } else {
                    served.incrementAndGet();
                  }
                } catch (Exception e) {
                  otherFailures.add(e.toString());
                }
              }
            },
            "the-other-client");
    other.start();
    awaitServed(1);
  }

  @AfterEach
  void stopTheOtherClient() throws InterruptedException {
    long before = served.get();
    awaitServed(before + 1);
    running.set(false);
    other.join(10_000);
    assertThat(otherFailures).as("the other client's failures meanwhile").isEmpty();
  }

  @Test
  void bodyOverEightMebibytesAnswers413RequestTooLarge() {
    try (RawConnection c = new RawConnection(server.port())) {
      c.send(
          "PUT /v1/tables/Things/items/p/big HTTP/1.1\r\nHost: t\r\nContent-Type:"
              + " application/json\r\nContent-Length: "
              + (8 * 1024 * 1024 + 1)
              + "\r\n\r\n{\"a\":\"");
      assertRefused(c.read(), 413, "RequestTooLarge");
      c.awaitClose();
    }
  }

  @Test
  void requestLineOverOneHundredTwentyEightKibibytesAnswers413RequestTooLarge() {
    try (RawConnection c = new RawConnection(server.port())) {
      RawConnection.Response r = c.get("/v1/tables/Things/items/p/" + "x".repeat(129 * 1024));
      assertRefused(r, 413, "RequestTooLarge");
      c.awaitClose();
    }
  }

  @Test
  void headersOverSixteenKibibytesAnswer413RequestTooLarge() {
    try (RawConnection c = new RawConnection(server.port())) {
      RawConnection.Response r =
          c.send(
                  "GET /v1/tables/Things/items/p/other HTTP/1.1\r\nHost: t\r\nX-Big: "
                      + "x".repeat(17 * 1024)
                      + "\r\n\r\n")
              .read();
      assertRefused(r, 413, "RequestTooLarge");
      c.awaitClose();
    }
  }

  @Test
  void azurePortAnswersAnOverLongRequestLineWith413RequestBodyTooLarge() {
    try (AzureTablesServer azure =
            AzureTablesServer.start(db, AzureOptions.defaults().withPort(0));
        RawConnection c = new RawConnection(azure.port())) {
      RawConnection.Response r =
          c.get(
              "/devstoreaccount1/Things(PartitionKey='p',RowKey='" + "x".repeat(129 * 1024) + "')");
      assertThat(r.status()).as("status of %s", r.body()).isEqualTo(413);
      assertThat(r.header("x-ms-error-code")).hasValue("RequestBodyTooLarge");
      c.awaitClose();
    }
  }

  @Test
  void batchOfOneHundredAndOneOperationsAnswers400InvalidInput() {
    StringBuilder ops = new StringBuilder();
    for (int i = 0; i <= 100; i++) {
      ops.append(i == 0 ? "" : ",")
          .append("{\"op\":\"upsert\",\"table\":\"Things\",\"partitionKey\":\"b\",\"id\":\"i")
          .append(i)
          .append("\",\"item\":{}}");
    }
    try (RawConnection c = new RawConnection(server.port())) {
      assertRefused(post(c, "/v1/batch", "{\"operations\":[" + ops + "]}"), 400, "InvalidInput");
    }
    assertThat(db.table("Things").get("b", "i0")).as("nothing of the batch written").isEmpty();
  }

  @Test
  void filterOverItsLengthAnswers400InvalidFilter() {
    String filter = "n eq '" + "x".repeat(32_769 - 7) + "'";
    assertThat(filter.length()).isEqualTo(32_769);
    try (RawConnection c = new RawConnection(server.port())) {
      assertRefused(
          c.get("/v1/tables/Things/items?filter=" + encode(filter)), 400, "InvalidFilter");
    }
  }

  @Test
  void filterNestedOneHundredAndOneDeepAnswers400InvalidFilter() {
    String filter = "(".repeat(101) + "n eq 1" + ")".repeat(101);
    try (RawConnection c = new RawConnection(server.port())) {
      assertRefused(
          c.get("/v1/tables/Things/items?filter=" + encode(filter)), 400, "InvalidFilter");
    }
  }

  @Test
  void pageOverOneThousandItemsAnswers400InvalidQuery() {
    try (RawConnection c = new RawConnection(server.port())) {
      assertRefused(c.get("/v1/tables/Things/items?limit=1001"), 400, "InvalidQuery");
    }
  }

  @Test
  void oneConnectionOverTheMaximumAnswers503ServerBusy() {
    // The other client holds one connection; these fill the rest, each served once. (A connection
    // an earlier test had refused may still be draining, so the refusal may come sooner.)
    List<RawConnection> held = new ArrayList<>();
    try {
      RawConnection.Response refusal = null;
      for (int i = 1; i <= MAX_CONNECTIONS && refusal == null; i++) {
        RawConnection c = new RawConnection(server.port());
        held.add(c);
        RawConnection.Response r = c.get("/v1/health");
        if (r.status() != 200) {
          refusal = r;
          c.awaitClose();
        }
      }
      assertThat(refusal).as("a refusal within %d connections", MAX_CONNECTIONS).isNotNull();
      assertRefused(refusal, 503, "ServerBusy");
      long before = served.get();
      awaitServed(before + 3);
    } finally {
      held.forEach(RawConnection::close);
    }
  }

  @Test
  void headersThatStopArrivingAnswer408RequestTimeout() {
    try (RawConnection c = new RawConnection(server.port())) {
      c.send("GET /v1/tables/Things/ite");
      assertRefused(c.read(), 408, "RequestTimeout");
      c.awaitClose();
    }
  }

  @Test
  void bodyThatStopsArrivingAnswers408RequestTimeout() {
    try (RawConnection c = new RawConnection(server.port())) {
      c.send(
          "PUT /v1/tables/Things/items/p/slow HTTP/1.1\r\nHost: t\r\nContent-Type:"
              + " application/json\r\nContent-Length: 20\r\n\r\n{\"a\":");
      assertRefused(c.read(), 408, "RequestTimeout");
      c.awaitClose();
    }
    assertThat(db.table("Things").get("p", "slow")).as("nothing written").isEmpty();
  }

  private static void assertRefused(RawConnection.Response r, int status, String code) {
    assertThat(r.status()).as("status of %s", r.body()).isEqualTo(status);
    Matcher m = CODE.matcher(r.body());
    assertThat(m.find()).as("an error code in %s", r.body()).isTrue();
    assertThat(m.group(1)).as("error code of %s", r.body()).isEqualTo(code);
  }

  private static RawConnection.Response post(RawConnection c, String path, String body) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    return c.send(
            "POST "
                + path
                + " HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: "
                + bytes.length
                + "\r\n\r\n")
        .send(bytes)
        .read();
  }

  private void awaitServed(long count) {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (served.get() < count && otherFailures.isEmpty() && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertThat(otherFailures).as("the other client's failures").isEmpty();
    assertThat(served.get()).as("the other client's requests served").isGreaterThanOrEqualTo(count);
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + server.port() + path);
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
