package io.viewbase.server;

import static io.viewbase.server.NativeApiContract.assertError;
import static io.viewbase.server.TestHttp.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Change;
import io.viewbase.api.ChangePage;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.TableOptions;
import io.viewbase.api.Value;
import io.viewbase.json.ChangeJson;
import io.viewbase.json.ErrorJson;
import io.viewbase.json.ItemJson;
import io.viewbase.json.PageJson;
import io.viewbase.json.TableOptionsJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The change feed and table options over a real socket: {@code GET /v1/tables/{t}/changes} with its
 * parameters, long-polls and errors, and {@code PUT}/{@code GET}/{@code PATCH} of a table's
 * options. Subclasses say which database to serve; every test works in a table of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ChangesApiContract {
  private static final AtomicInteger TABLES = new AtomicInteger();
  private static final String FEED = "{\"changeFeed\":{\"enabled\":true}}";

  /** Fewer workers than the polls some tests park, so a parked poll must hold none. */
  private static final int WORKERS = 2;

  private Database db;
  private ViewbaseServer server;
  private TestHttp http;
  private final HttpClient async =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  abstract Database open(Path dir);

  @BeforeAll
  void start(@TempDir Path dir) {
    db = open(dir);
    server = startServer(db);
    http = new TestHttp(server.port());
  }

  private static ViewbaseServer startServer(Database db) {
    return ViewbaseServer.start(
        db, ServerOptions.defaults().withPort(0).withWorkerThreads(WORKERS).withIoThreads(2));
  }

  @AfterAll
  void stop() {
    server.close();
    db.close();
  }

  private String newTable(String body) {
    String name = "Feed" + TABLES.incrementAndGet() + "x" + getClass().getSimpleName().length();
    HttpResponse<byte[]> r = http.send("PUT", "/v1/tables/" + name, body);
    assertThat(r.statusCode()).as(text(r)).isEqualTo(201);
    return name;
  }

  private HttpResponse<byte[]> put(String t, String id, String body) {
    return http.send("PUT", "/v1/tables/" + t + "/items/p/" + id, body);
  }

  private HttpResponse<byte[]> changes(String t, String query) {
    return http.get("/v1/tables/" + t + "/changes" + query);
  }

  private ChangePage page(HttpResponse<byte[]> r) {
    assertThat(r.statusCode()).as(text(r)).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    return ChangeJson.readPage(r.body(), Limits.DEFAULT);
  }

  private CompletableFuture<HttpResponse<byte[]>> poll(int port, String t, String query) {
    return async.sendAsync(
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/v1/tables/" + t + "/changes" + query))
            .timeout(Duration.ofSeconds(90))
            .build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  /**
   * Waits until the server serves {@code polls} requests besides the metrics request that asks
   * (each parked poll is one in flight), so a test acts once its polls wait.
   */
  private static void awaitInFlight(int port, int polls) throws InterruptedException {
    TestHttp metrics = new TestHttp(port);
    String expected =
        "viewbase_http_requests_in_flight{dialect=\"native\"} " + (polls + 1) + ".0\n";
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!text(metrics.get("/metrics")).contains(expected)) {
      assertThat(System.nanoTime() - deadline).as("polls in flight").isNegative();
      Thread.sleep(10);
    }
  }

  @Test
  void everyWriteIsAnEntryInCommitOrderWithItsItemAsTheItemApiWritesIt() {
    String t = newTable("{\"changeFeed\":{\"enabled\":true,\"beforeImages\":true}}");
    put(t, "a", "{\"n\":1,\"when@odata.type\":\"Edm.DateTime\",\"when\":\"2026-11-30T12:00:00Z\"}");
    HttpResponse<byte[]> merged = http.send("PATCH", "/v1/tables/" + t + "/items/p/a", "{\"m\":2}");
    assertThat(merged.statusCode()).isEqualTo(200);
    Item a = ItemJson.readStored(http.get("/v1/tables/" + t + "/items/p/a").body(), Limits.DEFAULT);
    assertThat(http.send("DELETE", "/v1/tables/" + t + "/items/p/a", null).statusCode())
        .isEqualTo(204);
    String batch =
        "{\"operations\":[{\"op\":\"insert\",\"table\":\"%s\",\"partitionKey\":\"p\",\"id\":\"b\",\"item\":{}},{\"op\":\"insert\",\"table\":\"%s\",\"partitionKey\":\"p\",\"id\":\"c\",\"item\":{}}]}"
            .formatted(t, t);
    assertThat(http.send("POST", "/v1/batch", batch).statusCode()).isEqualTo(200);

    ChangePage page = page(changes(t, ""));
    assertThat(page.changes())
        .extracting(Change::sequence, Change::kind, Change::id)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(1L, Change.Kind.INSERT, "a"),
            org.assertj.core.groups.Tuple.tuple(2L, Change.Kind.UPDATE, "a"),
            org.assertj.core.groups.Tuple.tuple(3L, Change.Kind.DELETE, "a"),
            org.assertj.core.groups.Tuple.tuple(4L, Change.Kind.INSERT, "b"),
            org.assertj.core.groups.Tuple.tuple(5L, Change.Kind.INSERT, "c"));
    assertThat(page.next()).isEqualTo(5);
    assertThat(page.latest()).isEqualTo(5);
    assertThat(page.oldest()).isEqualTo(1);
    Change update = page.changes().get(1);
    assertThat(update.item()).isEqualTo(a);
    assertThat(update.etag()).isEqualTo(a.etag());
    assertThat(update.before().properties()).containsOnlyKeys("n", "when");
    assertThat(update.before().properties().get("when")).isInstanceOf(Value.DateTime.class);
    assertThat(page.changes().get(2).item()).isNull();
    assertThat(page.changes().get(3).transaction()).isEqualTo(4);
    assertThat(page.changes().get(4).transactionSize()).isEqualTo(2);
    assertThat(text(changes(t, "?limit=1&after=1")))
        .contains("\"kind\":\"update\"")
        .contains("\"when@odata.type\":\"Edm.DateTime\"")
        .contains("\"transaction\":{\"first\":2,\"size\":1}");
  }

  @Test
  void limitCutsThePageAndNextResumesAfterIt() {
    String t = newTable(FEED);
    for (int i = 0; i < 5; i++) {
      put(t, "i" + i, "{}");
    }
    List<Long> seen = new ArrayList<>();
    long after = 0;
    while (true) {
      ChangePage page = page(changes(t, "?after=" + after + "&limit=2"));
      assertThat(page.changes()).hasSizeLessThanOrEqualTo(2);
      page.changes().forEach(c -> seen.add(c.sequence()));
      if (page.changes().isEmpty()) {
        assertThat(page.next()).isEqualTo(after);
        break;
      }
      after = page.next();
    }
    assertThat(seen).containsExactly(1L, 2L, 3L, 4L, 5L);
  }

  @Test
  void aLongPollIsAnsweredWithTheEntryOfAWriteThatCommitsWhileItWaits() throws Exception {
    String t = newTable(FEED);
    put(t, "first", "{}");
    CompletableFuture<HttpResponse<byte[]>> waiting = poll(server.port(), t, "?after=1&wait=60s");
    awaitInFlight(server.port(), 1);
    assertThat(waiting).isNotDone();
    put(t, "second", "{\"x\":1}");
    ChangePage page = page(waiting.get(30, TimeUnit.SECONDS));
    assertThat(page.changes()).extracting(Change::sequence).containsExactly(2L);
    assertThat(page.changes().get(0).id()).isEqualTo("second");
  }

  @Test
  void parkedPollsHoldNoWorkerAndAllAnswerWhenAWriteCommits() throws Exception {
    String t = newTable(FEED);
    int polls = 4 * WORKERS + 8; // more than the workers and the poll threads
    List<CompletableFuture<HttpResponse<byte[]>>> waiting = new ArrayList<>();
    for (int i = 0; i < polls; i++) {
      waiting.add(poll(server.port(), t, "?wait=60s"));
    }
    awaitInFlight(server.port(), polls);
    // A query needs a worker: it is answered while every poll waits
    HttpResponse<byte[]> query = http.get("/v1/tables/" + t + "/items");
    assertThat(query.statusCode()).isEqualTo(200);
    assertThat(PageJson.read(query.body(), Limits.DEFAULT).items()).isEmpty();
    assertThat(waiting).noneMatch(CompletableFuture::isDone);
    put(t, "x", "{}");
    for (CompletableFuture<HttpResponse<byte[]>> w : waiting) {
      assertThat(page(w.get(30, TimeUnit.SECONDS)).changes())
          .extracting(Change::id)
          .containsExactly("x");
    }
  }

  @Test
  void aWaitThatRunsOutAnswersAnEmptyPage() {
    String t = newTable(FEED);
    put(t, "a", "{}");
    ChangePage page = page(changes(t, "?after=1&wait=100ms"));
    assertThat(page.changes()).isEmpty();
    assertThat(page.next()).isEqualTo(1);
    assertThat(page.latest()).isEqualTo(1);
    assertThat(page(changes(t, "?after=1&wait=0s")).changes()).isEmpty();
  }

  @Test
  void closingTheServerAnswersParkedPollsWithWhatIsThere() throws Exception {
    String t = newTable(FEED);
    ViewbaseServer other = startServer(db);
    CompletableFuture<HttpResponse<byte[]>> waiting = poll(other.port(), t, "?wait=60s");
    awaitInFlight(other.port(), 1);
    other.close();
    ChangePage page = page(waiting.get(30, TimeUnit.SECONDS));
    assertThat(page.changes()).isEmpty();
    assertThat(page.latest()).isZero();
  }

  @Test
  void aTableWithoutAFeedAnswers409ChangeFeedDisabled() {
    String t = newTable(null);
    assertError(changes(t, ""), 409, ErrorCode.ChangeFeedDisabled);
    assertError(changes(t, "?wait=1s"), 409, ErrorCode.ChangeFeedDisabled);
    assertError(changes("Nope" + t, ""), 404, ErrorCode.TableNotFound);
  }

  @Test
  void entriesNoLongerHeldAnswer410NamingTheOldest() {
    String t = newTable("{\"changeFeed\":{\"enabled\":true,\"maxEntries\":2}}");
    for (int i = 0; i < 5; i++) {
      put(t, "i" + i, "{}");
    }
    HttpResponse<byte[]> r = changes(t, "?after=0");
    assertError(r, 410, ErrorCode.ChangesExpired);
    Object oldest = ErrorJson.read(r.body()).orElseThrow().context().get("oldest");
    assertThat(((Number) oldest).longValue()).isEqualTo(4);
    assertThat(page(changes(t, "?after=3")).changes())
        .extracting(Change::sequence)
        .containsExactly(4L, 5L);
  }

  @Test
  void badParametersAnswer400InvalidQueryNamingTheParameter() {
    String t = newTable(FEED);
    for (String[] bad :
        new String[][] {
          {"?limit=0", "limit"},
          {"?limit=1001", "limit"},
          {"?limit=ten", "limit"},
          {"?after=-1", "after"},
          {"?after=1.5", "after"},
          {"?after=99999999999999999999", "after"},
          {"?wait=30", "wait"},
          {"?wait=1m", "wait"},
          {"?wait=61s", "wait"},
          {"?wait=PT30S", "wait"},
          {"?wait=", "wait"},
          {"?since=3", "since"},
          {"?after=1&after=2", "after"},
        }) {
      HttpResponse<byte[]> r = changes(t, bad[0]);
      assertError(r, 400, ErrorCode.InvalidQuery);
      assertThat(ErrorJson.read(r.body()).orElseThrow().context().get("parameter"))
          .as(bad[0])
          .isEqualTo(bad[1]);
    }
    assertError(changes(t, "?after=7"), 400, ErrorCode.InvalidInput); // after the latest
    assertError(
        http.send("POST", "/v1/tables/" + t + "/changes", "{}"), 405, ErrorCode.MethodNotAllowed);
  }

  @Test
  void optionsAreCreatedReadAndPatchedMemberByMember() {
    String t =
        newTable(
            "{\"changeFeed\":{\"enabled\":true,\"retention\":\"PT2H\",\"maxEntries\":500},"
                + "\"ttl\":\"PT1H\"}");
    TableOptions created = options(http.get("/v1/tables/" + t));
    assertThat(created.changeFeed())
        .isEqualTo(new TableOptions.ChangeFeed(true, false, Duration.ofHours(2), 500));
    assertThat(created.ttl()).isEqualTo(Duration.ofHours(1));

    HttpResponse<byte[]> patched =
        http.send("PATCH", "/v1/tables/" + t, "{\"changeFeed\":{\"beforeImages\":true}}");
    assertThat(patched.statusCode()).as(text(patched)).isEqualTo(200);
    TableOptions expected = created.withChangeFeed(created.changeFeed().withBeforeImages(true));
    assertThat(options(patched)).isEqualTo(expected);
    assertThat(options(http.get("/v1/tables/" + t))).isEqualTo(expected);
    assertThat(db.tableOptions(t)).isEqualTo(expected);

    assertThat(options(http.send("PATCH", "/v1/tables/" + t, "{\"ttl\":null}")).ttl()).isNull();
    assertThat(
            options(http.send("PATCH", "/v1/tables/" + t, "{\"changeFeed\":{\"enabled\":false}}"))
                .changeFeed()
                .enabled())
        .isFalse();
    assertError(changes(t, ""), 409, ErrorCode.ChangeFeedDisabled);
  }

  @Test
  void aTableCreatedWithoutABodyHasTheDefaultOptions() {
    String t = newTable(null);
    assertThat(options(http.get("/v1/tables/" + t))).isEqualTo(TableOptions.DEFAULT);
    assertThat(text(http.get("/v1/tables/" + t)))
        .contains(
            "\"options\":{\"changeFeed\":{\"enabled\":false,\"beforeImages\":false,"
                + "\"retention\":\"PT24H\",\"maxEntries\":10000000},\"ttl\":null}");
  }

  @Test
  void badOptionsAreRefusedAndChangeNothing() {
    String name = "Refused" + TABLES.incrementAndGet();
    HttpResponse<byte[]> r = http.send("PUT", "/v1/tables/" + name, "{\"changefeed\":{}}");
    assertError(r, 400, ErrorCode.InvalidJson);
    assertThat(ErrorJson.read(r.body()).orElseThrow().context().get("members"))
        .isEqualTo(List.of("changefeed"));
    assertError(http.get("/v1/tables/" + name), 404, ErrorCode.TableNotFound);
    assertError(
        http.send("PUT", "/v1/tables/" + name, "{\"ttl\":\"PT0S\"}"), 400, ErrorCode.InvalidInput);
    assertError(
        http.sendBytes("PUT", "/v1/tables/" + name, FEED.getBytes(), "text/plain"),
        415,
        ErrorCode.UnsupportedMediaType);

    String t = newTable(FEED);
    assertError(
        http.send("PATCH", "/v1/tables/" + t, "{\"changeFeed\":{\"enabled\":\"no\"}}"),
        400,
        ErrorCode.InvalidJson);
    assertError(http.send("PATCH", "/v1/tables/" + t, ""), 400, ErrorCode.InvalidJson);
    assertThat(options(http.get("/v1/tables/" + t)).changeFeed())
        .isEqualTo(TableOptions.ChangeFeed.ON);
    assertError(http.send("PATCH", "/v1/tables/Nope" + t, FEED), 404, ErrorCode.TableNotFound);
  }

  private static TableOptions options(HttpResponse<byte[]> r) {
    assertThat(r.statusCode()).as(text(r)).isBetween(200, 201);
    return TableOptionsJson.readDescribed(r.body()).orElseThrow();
  }
}
