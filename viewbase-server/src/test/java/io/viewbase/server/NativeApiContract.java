package io.viewbase.server;

import static io.viewbase.server.TestHttp.code;
import static io.viewbase.server.TestHttp.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.Page;
import io.viewbase.api.QueryPlan;
import io.viewbase.api.Table;
import io.viewbase.api.TableInfo;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import io.viewbase.json.ItemJson;
import io.viewbase.json.PageJson;
import io.viewbase.json.TableInfoJson;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The native API v1 over a real socket, with java.net.http as the client. Subclasses say which
 * database to serve; every test works in a table of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class NativeApiContract {
  private static final AtomicInteger TABLES = new AtomicInteger();

  Database db;
  ViewbaseServer server;
  TestHttp http;

  abstract Database open(Path dir);

  @BeforeAll
  void start(@TempDir Path dir) {
    db = open(dir);
    server =
        ViewbaseServer.start(
            db, ServerOptions.defaults().withPort(0).withWorkerThreads(16).withIoThreads(2));
    http = new TestHttp(server.port());
  }

  @AfterAll
  void stop() {
    server.close();
    db.close();
  }

  String newTable() {
    String name = "T" + TABLES.incrementAndGet() + "x" + getClass().getSimpleName().length();
    assertThat(http.send("PUT", "/v1/tables/" + name, null).statusCode()).isEqualTo(201);
    return name;
  }

  static String enc(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private Item stored(HttpResponse<byte[]> r) {
    return ItemJson.readStored(r.body(), Limits.DEFAULT);
  }

  private HttpResponse<byte[]> put(String t, String pk, String id, String body, String... headers) {
    return http.send("PUT", "/v1/tables/" + t + "/items/" + enc(pk) + "/" + enc(id), body, headers);
  }

  private HttpResponse<byte[]> getItem(String t, String pk, String id) {
    return http.get("/v1/tables/" + t + "/items/" + enc(pk) + "/" + enc(id));
  }

  @Test
  void healthAnswersOkAsJson() {
    HttpResponse<byte[]> r = http.get("/v1/health");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(text(r)).isEqualTo("{\"status\":\"ok\"}");
  }

  @Test
  void metricsCountAnsweredRequestsByRouteAndStatus() {
    http.get("/v1/health");
    http.get("/v1/nowhere");
    HttpResponse<byte[]> r = http.get("/metrics");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(text(r))
        .contains(
            "viewbase_http_requests_seconds_count{dialect=\"native\",route=\"health\",status=\"200\"}")
        .contains(
            "viewbase_http_requests_seconds_count{dialect=\"native\",route=\"unknown\",status=\"404\"}")
        .contains("viewbase_http_requests_in_flight{dialect=\"native\"} 1");
  }

  @Test
  void createTableAnswers201ThenTheNameIsTaken() {
    HttpResponse<byte[]> r = http.send("PUT", "/v1/tables/People" + TABLES.incrementAndGet(), null);
    assertThat(r.statusCode()).isEqualTo(201);
    TableInfo info = TableInfoJson.read(r.body());
    assertThat(info.kind()).isEqualTo(TableInfo.TABLE);
    assertThat(r.headers().firstValue("Location")).hasValue("/v1/tables/" + info.name());

    HttpResponse<byte[]> again = http.send("PUT", "/v1/tables/" + info.name().toUpperCase(), null);
    assertThat(again.statusCode()).isEqualTo(409);
    assertThat(code(again)).isEqualTo(ErrorCode.TableAlreadyExists);

    assertThat(TableInfoJson.readList(http.get("/v1/tables").body())).contains(info);
    assertThat(TableInfoJson.read(http.get("/v1/tables/" + info.name()).body())).isEqualTo(info);
  }

  @Test
  void dropTableAnswers204ThenTableNotFound() {
    String t = newTable();
    assertThat(http.send("DELETE", "/v1/tables/" + t, null).statusCode()).isEqualTo(204);
    HttpResponse<byte[]> again = http.send("DELETE", "/v1/tables/" + t, null);
    assertThat(again.statusCode()).isEqualTo(404);
    assertThat(code(again)).isEqualTo(ErrorCode.TableNotFound);
    assertThat(code(http.get("/v1/tables/" + t))).isEqualTo(ErrorCode.TableNotFound);
  }

  @Test
  void createTableWithBadNameFailsWithInvalidTableName() {
    HttpResponse<byte[]> r = http.send("PUT", "/v1/tables/1bad", null);
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(code(r)).isEqualTo(ErrorCode.InvalidTableName);
  }

  @Test
  void putThenGetReturnsTheItemWithItsEtag() {
    String t = newTable();
    HttpResponse<byte[]> w =
        put(t, "p", "i", "{\"name\":\"Ada\",\"n@odata.type\":\"Edm.Int64\",\"n\":\"12\"}");
    assertThat(w.statusCode()).isEqualTo(200);
    Item written = stored(w);
    assertThat(w.headers().firstValue("ETag")).hasValue(written.etag());
    assertThat(written.properties())
        .containsEntry("n", new Value.Int64(12))
        .containsEntry("name", Value.of("Ada"));

    HttpResponse<byte[]> r = getItem(t, "p", "i");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("ETag")).hasValue(written.etag());
    assertThat(stored(r)).isEqualTo(written);
  }

  @Test
  void putWithStaleIfMatchFailsWithPreconditionFailedAndChangesNothing() {
    String t = newTable();
    String first = stored(put(t, "p", "i", "{\"v\":1}")).etag();
    Item current = stored(put(t, "p", "i", "{\"v\":2}"));

    HttpResponse<byte[]> stale = put(t, "p", "i", "{\"v\":3}", "If-Match", first);
    assertThat(stale.statusCode()).isEqualTo(412);
    assertThat(code(stale)).isEqualTo(ErrorCode.PreconditionFailed);
    assertThat(stored(getItem(t, "p", "i"))).isEqualTo(current);

    HttpResponse<byte[]> fresh = put(t, "p", "i", "{\"v\":3}", "If-Match", current.etag());
    assertThat(fresh.statusCode()).isEqualTo(200);
    assertThat(stored(fresh).properties()).containsEntry("v", Value.of(3));
  }

  @Test
  void putWithIfMatchOnAbsentItemFailsWithNotFoundForStarAndPreconditionForEtag() {
    String t = newTable();
    String etag = stored(put(t, "p", "other", "{}")).etag();
    assertThat(code(put(t, "p", "i", "{}", "If-Match", "*"))).isEqualTo(ErrorCode.ItemNotFound);
    // 404 or 412 for a real ETag on an absent item is the engine's call; the server passes it on.
    ErrorCode engine = engineCode(() -> db.table(t).replace(Item.of("p", "i", Map.of()), etag));
    assertThat(code(put(t, "p", "i", "{}", "If-Match", etag))).isEqualTo(engine);
    assertThat(getItem(t, "p", "i").statusCode()).isEqualTo(404);
  }

  @Test
  void putWithIfNoneMatchStarInsertsOnceThenFailsWithItemAlreadyExists() {
    String t = newTable();
    HttpResponse<byte[]> created = put(t, "p", "i", "{\"v\":1}", "If-None-Match", "*");
    assertThat(created.statusCode()).isEqualTo(201);
    HttpResponse<byte[]> again = put(t, "p", "i", "{\"v\":2}", "If-None-Match", "*");
    assertThat(again.statusCode()).isEqualTo(409);
    assertThat(code(again)).isEqualTo(ErrorCode.ItemAlreadyExists);
    assertThat(stored(getItem(t, "p", "i"))).isEqualTo(stored(created));
  }

  @Test
  void patchMergesAndWithStaleEtagFailsWithPreconditionFailed() {
    String t = newTable();
    String old = stored(put(t, "p", "i", "{\"a\":1,\"b\":1}")).etag();
    HttpResponse<byte[]> merged =
        http.send("PATCH", "/v1/tables/" + t + "/items/p/i", "{\"b\":2,\"c\":3}");
    assertThat(merged.statusCode()).isEqualTo(200);
    assertThat(stored(merged).properties())
        .containsEntry("a", Value.of(1))
        .containsEntry("b", Value.of(2))
        .containsEntry("c", Value.of(3));

    HttpResponse<byte[]> stale =
        http.send("PATCH", "/v1/tables/" + t + "/items/p/i", "{\"d\":4}", "If-Match", old);
    assertThat(stale.statusCode()).isEqualTo(412);
    assertThat(stored(getItem(t, "p", "i"))).isEqualTo(stored(merged));

    HttpResponse<byte[]> upsert =
        http.send("PATCH", "/v1/tables/" + t + "/items/p/new", "{\"d\":4}");
    assertThat(upsert.statusCode()).isEqualTo(200);
    HttpResponse<byte[]> absent =
        http.send("PATCH", "/v1/tables/" + t + "/items/p/none", "{}", "If-Match", "*");
    assertThat(code(absent)).isEqualTo(ErrorCode.ItemNotFound);
  }

  @Test
  void deleteAnswers204ThenItemNotFound() {
    String t = newTable();
    Item item = stored(put(t, "p", "i", "{}"));
    put(t, "p", "i2", "{}");
    HttpResponse<byte[]> stale =
        http.send(
            "DELETE",
            "/v1/tables/" + t + "/items/p/i",
            null,
            "If-Match",
            stored(getItem(t, "p", "i2")).etag());
    assertThat(stale.statusCode()).isEqualTo(412);
    assertThat(
            http.send("DELETE", "/v1/tables/" + t + "/items/p/i", null, "If-Match", item.etag())
                .statusCode())
        .isEqualTo(204);
    assertThat(code(getItem(t, "p", "i"))).isEqualTo(ErrorCode.ItemNotFound);
    HttpResponse<byte[]> again = http.send("DELETE", "/v1/tables/" + t + "/items/p/i", null);
    assertThat(again.statusCode()).isEqualTo(404);
    assertThat(code(again)).isEqualTo(ErrorCode.ItemNotFound);
  }

  @Test
  void partitionQueryPagesThroughEveryItemWithContinuations() throws Exception {
    String t = newTable();
    Table table = db.table(t);
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try {
      List<Future<?>> writes = new ArrayList<>();
      for (int i = 0; i < 2500; i++) {
        String id = String.format("id%05d", i);
        writes.add(pool.submit(() -> table.upsert(Item.builder("p", id).put("i", id).build())));
      }
      for (Future<?> w : writes) {
        w.get();
      }
    } finally {
      pool.shutdown();
    }
    table.upsert(Item.builder("other", "x").build());

    List<String> ids = new ArrayList<>();
    List<Integer> sizes = new ArrayList<>();
    String continuation = null;
    do {
      String path =
          "/v1/tables/"
              + t
              + "/items/p"
              + (continuation == null ? "" : "?continuation=" + enc(continuation));
      HttpResponse<byte[]> r = http.get(path);
      assertThat(r.statusCode()).as(text(r)).isEqualTo(200);
      Page page = PageJson.read(r.body(), Limits.DEFAULT);
      page.items().forEach(item -> ids.add(item.id()));
      sizes.add(page.items().size());
      continuation = page.continuation();
    } while (continuation != null && sizes.size() < 10);

    assertThat(sizes.subList(0, 2)).containsExactly(1000, 1000);
    assertThat(ids).hasSize(2500).isSorted().doesNotHaveDuplicates();
  }

  @Test
  void partitionQueryHonoursPrefixRangeOrderSelectAndLimit() {
    String t = newTable();
    for (String id : List.of("a1", "a2", "b1", "b2", "c1")) {
      put(t, "p", id, "{\"x\":1,\"y\":2}");
    }
    assertThat(ids(http.get("/v1/tables/" + t + "/items/p?prefix=b"))).containsExactly("b1", "b2");
    assertThat(ids(http.get("/v1/tables/" + t + "/items/p?from=a2&to=c1")))
        .containsExactly("a2", "b1", "b2");
    assertThat(ids(http.get("/v1/tables/" + t + "/items/p?desc=true&limit=2")))
        .containsExactly("c1", "b2");
    Page selected =
        PageJson.read(
            http.get("/v1/tables/" + t + "/items/p?select=x&limit=1").body(), Limits.DEFAULT);
    assertThat(selected.items().get(0).properties()).containsOnlyKeys("x");
    assertThat(selected.continuation()).isNotNull();
  }

  @Test
  void tableQueryReadsAcrossPartitions() {
    String t = newTable();
    put(t, "p1", "i", "{}");
    put(t, "p2", "i", "{}");
    Page page = PageJson.read(http.get("/v1/tables/" + t + "/items").body(), Limits.DEFAULT);
    assertThat(page.items()).extracting(Item::partitionKey).containsExactly("p1", "p2");
  }

  private static List<String> ids(HttpResponse<byte[]> r) {
    assertThat(r.statusCode()).as(text(r)).isEqualTo(200);
    return PageJson.read(r.body(), Limits.DEFAULT).items().stream().map(Item::id).toList();
  }

  @Test
  void percentEncodedKeysAddressExactlyThatItem() {
    String t = newTable();
    String pk = "$platform#org/1 a+b";
    String id = "id?x=1&y=é😀%";
    HttpResponse<byte[]> w = put(t, pk, id, "{\"partitionKey\":\"" + pk + "\",\"v\":1}");
    assertThat(w.statusCode()).as(text(w)).isEqualTo(200);
    Item item = stored(getItem(t, pk, id));
    assertThat(item.partitionKey()).isEqualTo(pk);
    assertThat(item.id()).isEqualTo(id);
    assertThat(ids(http.get("/v1/tables/" + t + "/items/" + enc(pk)))).containsExactly(id);
    assertThat(db.table(t).get(pk, id)).isPresent();
  }

  @Test
  void badItemWritesAnswer4xxWithAStableCodeAndChangeNothing() {
    String t = newTable();
    Item original = stored(put(t, "p", "i", "{\"v\":1}"));
    String item = "/v1/tables/" + t + "/items/p/i";

    assertError(http.send("PUT", item, "{\"v\":"), 400, ErrorCode.InvalidJson);
    assertError(http.send("PUT", item, "[1]"), 400, ErrorCode.InvalidJson);
    assertError(http.send("PUT", item, ""), 400, ErrorCode.InvalidJson);
    assertError(http.send("PUT", item, "{\"_secret\":1}"), 400, ErrorCode.InvalidPropertyName);
    assertError(http.send("PUT", item, "{\"id\":\"other\"}"), 400, ErrorCode.KeyMismatch);
    assertError(http.send("PATCH", item, "{\"partitionKey\":\"q\"}"), 400, ErrorCode.KeyMismatch);
    assertError(
        http.send("PUT", item, "{\"v\":\"x\",\"v@odata.type\":\"Edm.Guid\"}"),
        400,
        ErrorCode.InvalidValue);
    assertError(
        http.sendBytes("PUT", item, "v=1".getBytes(StandardCharsets.UTF_8), "text/plain"),
        415,
        ErrorCode.UnsupportedMediaType);
    assertError(
        http.send("PUT", item, "{}", "If-None-Match", "\"x\""), 400, ErrorCode.InvalidHeader);
    String big = "{\"v\":\"" + "x".repeat(1_100_000) + "\"}";
    assertError(http.send("PUT", item, big), 400, ErrorCode.ItemTooLarge);

    assertThat(stored(getItem(t, "p", "i"))).isEqualTo(original);
  }

  @Test
  void badKeysAnswerInvalidKeyAndStoreNothing() {
    String t = newTable();
    assertError(
        http.send("PUT", "/v1/tables/" + t + "/items/p/a%01b", "{}"), 400, ErrorCode.InvalidKey);
    assertError(
        http.send("PUT", "/v1/tables/" + t + "/items/" + "k".repeat(1025) + "/i", "{}"),
        400,
        ErrorCode.InvalidKey);
    assertError(
        http.send("PUT", "/v1/tables/" + t + "/items/p/%C3%28", "{}"), 400, ErrorCode.InvalidInput);
    assertThat(PageJson.read(http.get("/v1/tables/" + t + "/items").body(), Limits.DEFAULT).items())
        .isEmpty();
  }

  @Test
  void badAddressesAndQueriesAnswerTheirCodes() {
    String t = newTable();
    assertError(http.get("/v1/tables/Nope" + t + "/items/p/i"), 404, ErrorCode.TableNotFound);
    assertError(
        http.send("PUT", "/v1/tables/Nope" + t + "/items/p/i", "{}"), 404, ErrorCode.TableNotFound);
    assertError(http.get("/v1/nowhere"), 404, ErrorCode.UnknownEndpoint);
    HttpResponse<byte[]> post = http.send("POST", "/v1/tables/" + t, "{}");
    assertError(post, 405, ErrorCode.MethodNotAllowed);
    assertThat(post.headers().firstValue("Allow")).hasValue("DELETE, GET, PATCH, PUT");
    assertError(http.get("/v1/tables/" + t + "/items/p?limit=0"), 400, ErrorCode.InvalidQuery);
    assertError(http.get("/v1/tables/" + t + "/items/p?limit=1001"), 400, ErrorCode.InvalidQuery);
    assertError(
        http.get("/v1/tables/" + t + "/items/p?continuation=AAAAtampered"),
        400,
        ErrorCode.InvalidContinuation);
    assertError(http.send("GET", "/v1/batch", null), 405, ErrorCode.MethodNotAllowed);
  }

  /**
   * Every endpoint takes only the query parameters it documents (most take none), so that a typo or
   * a parameter meant for another endpoint is refused instead of silently ignored.
   */
  @Test
  void anUnknownQueryParameterOnAnyEndpointFailsWithInvalidQueryNamingItAndWritesNothing() {
    String t = newTable();
    Item original = stored(put(t, "pa", "p0", "{\"v\":1}"));
    String item = "/v1/tables/" + t + "/items/pa/p0";

    HttpResponse<byte[]> patch = http.send("PATCH", item + "?a=b", "{\"v\":2}");
    assertError(patch, 400, ErrorCode.InvalidQuery);
    assertThat(text(patch)).contains("\"parameter\":\"a\"").contains("takes none");
    assertError(http.send("PUT", item + "?ifMatch=x", "{\"v\":3}"), 400, ErrorCode.InvalidQuery);
    assertError(
        http.send("PUT", "/v1/tables/" + t + "/items/pa/new?x=1", "{}"),
        400,
        ErrorCode.InvalidQuery);
    assertError(http.send("DELETE", item + "?force=true", null), 400, ErrorCode.InvalidQuery);
    assertError(http.get(item + "?select=v"), 400, ErrorCode.InvalidQuery);
    String batch =
        "{\"operations\":[{\"op\":\"upsert\",\"table\":\""
            + t
            + "\",\"partitionKey\":\"pa\",\"id\":\"b1\",\"item\":{}}]}";
    assertError(http.send("POST", "/v1/batch?ifmatch=x", batch), 400, ErrorCode.InvalidQuery);
    assertError(
        http.send("PUT", "/v1/tables/Other" + t + "?kind=view", null), 400, ErrorCode.InvalidQuery);
    assertError(
        http.send("DELETE", "/v1/tables/" + t + "?cascade=false", null),
        400,
        ErrorCode.InvalidQuery);

    HttpResponse<byte[]> tables = http.get("/v1/tables?bogus=1");
    assertError(tables, 400, ErrorCode.InvalidQuery);
    assertThat(text(tables))
        .contains("\"parameter\":\"bogus\"")
        .contains("\"endpoint\":\"/v1/tables\"");
    assertError(http.get("/v1/tables/" + t + "?x"), 400, ErrorCode.InvalidQuery);
    assertError(http.get("/v1/health?verbose=1"), 400, ErrorCode.InvalidQuery);
    HttpResponse<byte[]> query = http.get("/v1/tables/" + t + "/items/pa?top=5");
    assertError(query, 400, ErrorCode.InvalidQuery);
    assertThat(text(query))
        .contains("takes continuation, desc, explain, filter, from, limit, prefix, select, to");

    assertThat(stored(getItem(t, "pa", "p0"))).isEqualTo(original);
    assertThat(ids(http.get("/v1/tables/" + t + "/items/pa"))).containsExactly("p0");
    assertThat(http.get("/v1/tables/Other" + t).statusCode()).isEqualTo(404);
    // an empty query, or empty pairs, name no parameter
    assertThat(http.get(item + "?").statusCode()).isEqualTo(200);
    assertThat(http.get("/v1/tables?&").statusCode()).isEqualTo(200);
  }

  @Test
  void tamperedContinuationFromARealPageFailsWithInvalidContinuation() {
    String t = newTable();
    put(t, "p", "a", "{}");
    put(t, "p", "b", "{}");
    String token =
        PageJson.read(http.get("/v1/tables/" + t + "/items/p?limit=1").body(), Limits.DEFAULT)
            .continuation();
    char last = token.charAt(token.length() - 2);
    String tampered =
        token.substring(0, token.length() - 2)
            + (last == 'A' ? 'B' : 'A')
            + token.charAt(token.length() - 1);
    assertError(
        http.get("/v1/tables/" + t + "/items/p?limit=1&continuation=" + enc(tampered)),
        400,
        ErrorCode.InvalidContinuation);
  }

  private static ErrorCode engineCode(Runnable call) {
    try {
      call.run();
    } catch (ViewbaseException e) {
      return e.code();
    }
    throw new AssertionError("the engine accepted the call");
  }

  static void assertError(HttpResponse<byte[]> r, int status, ErrorCode code) {
    assertThat(r.statusCode()).as(text(r)).isEqualTo(status);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(code(r)).isEqualTo(code);
    assertThat(text(r)).doesNotContain("Exception").doesNotContain("\tat ");
  }

  @Test
  void filterSelectsItemsAndExplainShowsThePlan() {
    String t = newTable();
    for (int i = 0; i < 6; i++) {
      assertThat(put(t, "p" + (i % 2), "id" + i, "{\"v\":" + i + "}").statusCode()).isEqualTo(200);
    }
    HttpResponse<byte[]> r =
        http.get(
            "/v1/tables/"
                + t
                + "/items?filter="
                + enc("PartitionKey eq 'p1' and v ge 3")
                + "&explain=true");
    assertThat(r.statusCode()).as(text(r)).isEqualTo(200);
    assertThat(PageJson.read(r.body(), Limits.DEFAULT).items())
        .extracting(Item::id)
        .containsExactly("id3", "id5");
    QueryPlan plan = PageJson.readPlan(r.body());
    assertThat(plan.kind()).isEqualTo(QueryPlan.KEY_RANGE);
    assertThat(plan.description()).contains("partition 'p1'");
    HttpResponse<byte[]> scan = http.get("/v1/tables/" + t + "/items/p0?filter=" + enc("v eq 2"));
    assertThat(PageJson.read(scan.body(), Limits.DEFAULT).items())
        .extracting(Item::id)
        .containsExactly("id2");
    assertThat(PageJson.readPlan(scan.body())).isNull();
  }

  @Test
  void aMalformedFilterIsA400NamingThePosition() {
    String t = newTable();
    HttpResponse<byte[]> r = http.get("/v1/tables/" + t + "/items?filter=" + enc("(v eq 1"));
    assertError(r, 400, ErrorCode.InvalidFilter);
    assertThat(text(r)).contains("expected ')'").contains("\"position\"");
  }
}
