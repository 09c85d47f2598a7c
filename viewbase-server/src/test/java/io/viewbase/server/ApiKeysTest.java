package io.viewbase.server;

import static io.viewbase.server.TestHttp.code;
import static io.viewbase.server.TestHttp.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.api.ViewbaseException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * API keys on a real socket over RocksDB, with java.net.http as the client: who gets 401, who 403,
 * what each scope and table list allows, and that a refused request wrote nothing. The first admin
 * key is made on the database before the server starts, as {@code viewbase key create --data} does.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ApiKeysTest {
  private static final AtomicInteger NAMES = new AtomicInteger();

  Database db;
  ViewbaseServer server;
  TestHttp http;
  String admin;

  @BeforeAll
  void start(@TempDir Path dir) {
    db = Viewbase.open(OpenOptions.at(dir));
    admin = ApiKeys.of(db).create(KeyScope.ADMIN, List.of(), "first").secret();
    server = ViewbaseServer.start(db, ServerOptions.defaults().withPort(0).withIoThreads(2));
    http = new TestHttp(server.port());
  }

  @AfterAll
  void stop() {
    server.close();
    db.close();
  }

  private static String bearer(String key) {
    return "Bearer " + key;
  }

  private HttpResponse<byte[]> as(String key, String method, String path, String body) {
    return http.send(method, path, body, "Authorization", bearer(key));
  }

  private String newTable() {
    String name = "Keys" + NAMES.incrementAndGet();
    assertThat(as(admin, "PUT", "/v1/tables/" + name, null).statusCode()).isEqualTo(201);
    return name;
  }

  /** A key made over the API by the admin key: its secret. */
  private String key(String scope, String... tables) {
    String list = String.join("\",\"", tables);
    HttpResponse<byte[]> made =
        as(
            admin,
            "POST",
            "/v1/admin/keys",
            "{\"scope\":\""
                + scope
                + "\",\"tables\":["
                + (tables.length == 0 ? "" : "\"" + list + "\"")
                + "],\"name\":\"test\"}");
    assertThat(made.statusCode()).as(text(made)).isEqualTo(201);
    return KeyJson.readCreatedSecret(made.body());
  }

  private static String item(String pk, String id) {
    return "{\"partitionKey\":\"" + pk + "\",\"id\":\"" + id + "\",\"n\":1}";
  }

  @Test
  void aRequestWithoutAKeyIs401WithItsCodeAndABearerChallenge() {
    HttpResponse<byte[]> r = http.get("/v1/tables");
    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(code(r)).isEqualTo(ErrorCode.ApiKeyRequired);
    assertThat(r.headers().firstValue("WWW-Authenticate"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
    // every route, the unknown ones and item writes (served asynchronously) too
    assertThat(http.get("/v1/nothing/here").statusCode()).isEqualTo(401);
    assertThat(http.send("PUT", "/v1/tables/T1x/items/p/i", item("p", "i")).statusCode())
        .isEqualTo(401);
    assertThat(http.get("/v1/tables/T1x/changes").statusCode()).isEqualTo(401);
  }

  @Test
  void healthStaysOpenAndMetricsNeedsAKeyOfAnyScope() {
    assertThat(http.get("/v1/health").statusCode()).isEqualTo(200);
    assertThat(http.get("/metrics").statusCode()).isEqualTo(401);
    assertThat(as(key("read"), "GET", "/metrics", null).statusCode()).isEqualTo(200);
  }

  @Test
  void aWrongOrMalformedKeyIs401Invalid() {
    String good = key("read");
    int at = good.length() - 10; // one character of the secret changed, to another
    String wrongSecret =
        good.substring(0, at) + (good.charAt(at) == 'A' ? 'B' : 'A') + good.substring(at + 1);
    String unknownId = "vb_000000000000" + good.substring(15);
    for (String header :
        List.of(
            bearer(wrongSecret),
            bearer(unknownId),
            bearer("nonsense"),
            "Basic dXNlcjpwYXNz",
            bearer(good + "x"))) {
      HttpResponse<byte[]> r = http.send("GET", "/v1/tables", null, "Authorization", header);
      assertThat(r.statusCode()).as(header).isEqualTo(401);
      assertThat(code(r)).as(header).isEqualTo(ErrorCode.ApiKeyInvalid);
      assertThat(text(r)).doesNotContain(good.substring(16));
    }
    assertThat(as(good, "GET", "/v1/tables", null).statusCode()).isEqualTo(200);
  }

  @Test
  void aRevokedKeyIs401RightAfterTheRevoke() {
    String key = key("read");
    assertThat(as(key, "GET", "/v1/tables", null).statusCode()).isEqualTo(200);
    String id = key.substring(3, 15);
    assertThat(as(admin, "DELETE", "/v1/admin/keys/" + id, null).statusCode()).isEqualTo(204);
    HttpResponse<byte[]> r = as(key, "GET", "/v1/tables", null);
    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(code(r)).isEqualTo(ErrorCode.ApiKeyInvalid);
    HttpResponse<byte[]> again = as(admin, "DELETE", "/v1/admin/keys/" + id, null);
    assertThat(again.statusCode()).isEqualTo(404);
    assertThat(code(again)).isEqualTo(ErrorCode.ApiKeyNotFound);
  }

  @Test
  void aReadKeyReadsButItsWritesAre403AndWriteNothing() {
    String table = newTable();
    String path = "/v1/tables/" + table + "/items/p/i";
    assertThat(as(admin, "PUT", path, item("p", "i")).statusCode()).isEqualTo(200);
    String read = key("read");
    assertThat(as(read, "GET", path, null).statusCode()).isEqualTo(200);
    assertThat(as(read, "GET", "/v1/tables/" + table + "/items/p", null).statusCode())
        .isEqualTo(200);
    for (String method : List.of("PUT", "PATCH", "DELETE")) {
      HttpResponse<byte[]> r =
          as(read, method, path, method.equals("DELETE") ? null : item("p", "i"));
      assertThat(r.statusCode()).as(method).isEqualTo(403);
      assertThat(code(r)).isEqualTo(ErrorCode.ApiKeyDenied);
    }
    HttpResponse<byte[]> batch =
        as(
            read,
            "POST",
            "/v1/batch",
            "{\"operations\":["
                + BatchApiContract.op("upsert", table, "p", "j", item("p", "j"), null)
                + "]}");
    assertThat(batch.statusCode()).isEqualTo(403);
    assertThat(as(admin, "GET", "/v1/tables/" + table + "/items/p/j", null).statusCode())
        .isEqualTo(404);
    assertThat(as(read, "PUT", "/v1/tables/Other" + table, null).statusCode()).isEqualTo(403);
  }

  @Test
  void aTableScopedKeyReachesItsTablesOnlyAndListsOnlyThem() {
    String mine = newTable();
    String other = newTable();
    String write = key("write", mine);
    assertThat(as(write, "PUT", "/v1/tables/" + mine + "/items/p/i", item("p", "i")).statusCode())
        .isEqualTo(200);
    // table names compare case-insensitively, as everywhere
    assertThat(
            as(write, "GET", "/v1/tables/" + mine.toUpperCase() + "/items/p/i", null).statusCode())
        .isEqualTo(200);
    HttpResponse<byte[]> r = as(write, "PUT", "/v1/tables/" + other + "/items/p/i", item("p", "i"));
    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(code(r)).isEqualTo(ErrorCode.ApiKeyDenied);
    assertThat(as(write, "GET", "/v1/tables/" + other + "/items/p", null).statusCode())
        .isEqualTo(403);
    assertThat(as(write, "GET", "/v1/tables/" + other, null).statusCode()).isEqualTo(403);
    String listed = text(as(write, "GET", "/v1/tables", null));
    assertThat(listed).contains("\"" + mine + "\"").doesNotContain("\"" + other + "\"");
  }

  @Test
  void aBatchTouchingATableOutsideTheKeysListIs403AndWritesNothing() {
    String mine = newTable();
    String other = newTable();
    String write = key("write", mine);
    HttpResponse<byte[]> r =
        as(
            write,
            "POST",
            "/v1/batch",
            "{\"operations\":["
                + BatchApiContract.op("upsert", mine, "p", "a", item("p", "a"), null)
                + ","
                + BatchApiContract.op("upsert", other, "p", "b", item("p", "b"), null)
                + "]}");
    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(code(r)).isEqualTo(ErrorCode.ApiKeyDenied);
    assertThat(text(r)).contains("\"operationIndex\":1");
    assertThat(as(admin, "GET", "/v1/tables/" + mine + "/items/p/a", null).statusCode())
        .isEqualTo(404);
    assertThat(as(admin, "GET", "/v1/tables/" + other + "/items/p/b", null).statusCode())
        .isEqualTo(404);
    HttpResponse<byte[]> inside =
        as(
            write,
            "POST",
            "/v1/batch",
            "{\"operations\":["
                + BatchApiContract.op("upsert", mine, "p", "a", item("p", "a"), null)
                + "]}");
    assertThat(inside.statusCode()).as(text(inside)).isEqualTo(200);
  }

  @Test
  void onlyAnAdminKeyCreatesAndDropsTablesAndReachesAnyAdminRoute() {
    String write = key("write");
    String name = "Keys" + NAMES.incrementAndGet();
    assertThat(as(write, "PUT", "/v1/tables/" + name, null).statusCode()).isEqualTo(403);
    assertThat(as(admin, "PUT", "/v1/tables/" + name, null).statusCode()).isEqualTo(201);
    assertThat(as(write, "DELETE", "/v1/tables/" + name, null).statusCode()).isEqualTo(403);
    assertThat(as(write, "POST", "/v1/tables/" + name + "/expire", null).statusCode())
        .isEqualTo(403);
    // every path under /v1/admin needs admin, routes that do not exist (yet) among them
    assertThat(as(write, "GET", "/v1/admin/keys", null).statusCode()).isEqualTo(403);
    assertThat(as(write, "POST", "/v1/admin/backup", null).statusCode()).isEqualTo(403);
    assertThat(http.send("POST", "/v1/admin/backup", null).statusCode()).isEqualTo(401);
    assertThat(as(write, "POST", "/v1/admin/later", null).statusCode()).isEqualTo(403);
    assertThat(as(admin, "POST", "/v1/admin/later", null).statusCode()).isEqualTo(404);
    // the backup route's own refusal (a relative path), past the key check
    HttpResponse<byte[]> backup = as(admin, "POST", "/v1/admin/backup", "{\"to\":\"relative\"}");
    assertThat(backup.statusCode()).as(text(backup)).isEqualTo(400);
    assertThat(as(admin, "DELETE", "/v1/tables/" + name, null).statusCode()).isEqualTo(204);
  }

  @Test
  void aViewIsReadWithReadOnTheViewsOwnNameNotItsSources() {
    String source = newTable();
    String view = "View" + NAMES.incrementAndGet();
    HttpResponse<byte[]> made =
        as(
            admin,
            "PUT",
            "/v1/views/" + view,
            "{\"source\":\"" + source + "\",\"partitionBy\":\"all\",\"idBy\":\"{id}\"}");
    assertThat(made.statusCode()).as(text(made)).isIn(200, 201, 202);
    String viewKey = key("read", view);
    String sourceKey = key("read", source);
    assertThat(as(viewKey, "GET", "/v1/views/" + view, null).statusCode()).isEqualTo(200);
    assertThat(as(viewKey, "GET", "/v1/tables/" + source + "/items/p/i", null).statusCode())
        .isEqualTo(403);
    assertThat(as(sourceKey, "GET", "/v1/views/" + view, null).statusCode()).isEqualTo(403);
    assertThat(as(sourceKey, "GET", "/v1/tables/" + view + "/items", null).statusCode())
        .isEqualTo(403);
    assertThat(as(viewKey, "DELETE", "/v1/views/" + view, null).statusCode()).isEqualTo(403);
  }

  @Test
  void aListingShowsIdsScopesAndTablesButNoSecretOrHash() {
    String table = newTable();
    String key = key("write", table);
    String listing = text(as(admin, "GET", "/v1/admin/keys", null));
    assertThat(listing)
        .contains(key.substring(3, 15))
        .contains("\"scope\":\"write\"")
        .contains(table)
        .doesNotContain(key.substring(16))
        .doesNotContain("sha256");
  }

  @Test
  void aKeyRequestOfTheWrongShapeIs4xx() {
    assertThat(code(as(admin, "POST", "/v1/admin/keys", "{\"scope\":\"root\"}")))
        .isEqualTo(ErrorCode.InvalidInput);
    assertThat(
            code(as(admin, "POST", "/v1/admin/keys", "{\"scope\":\"admin\",\"tables\":[\"Abc\"]}")))
        .isEqualTo(ErrorCode.InvalidInput);
    assertThat(
            code(as(admin, "POST", "/v1/admin/keys", "{\"scope\":\"read\",\"tables\":[\"a b\"]}")))
        .isEqualTo(ErrorCode.InvalidTableName);
    assertThat(code(as(admin, "POST", "/v1/admin/keys", "{\"scope\":\"read\",\"other\":1}")))
        .isEqualTo(ErrorCode.InvalidJson);
    assertThat(code(as(admin, "POST", "/v1/admin/keys", "["))).isEqualTo(ErrorCode.InvalidJson);
  }

  /**
   * Another server on the same store is another database object over it (a second process on a
   * Cassandra keyspace): its changes reach this server by the refresh, not at once.
   */
  @Test
  void aKeyMadeOrRevokedThroughAnotherServerOnTheSameStoreAppliesWithinTheRefresh()
      throws Exception {
    Database sameStore = new DelegatingDatabase(db) {};
    try (ViewbaseServer second =
        ViewbaseServer.start(sameStore, ServerOptions.defaults().withPort(0).withIoThreads(1))) {
      KeyMaker there = new KeyMaker(second.port());
      String key = there.make();
      assertThat(awaitStatus(key, 200)).isEqualTo(200);
      assertThat(there.revoke(key)).isEqualTo(204);
      assertThat(awaitStatus(key, 401)).isEqualTo(401);
    }
  }

  /**
   * Polls this server with the key until it answers {@code wanted}, for three refreshes at most.
   */
  private int awaitStatus(String key, int wanted) throws InterruptedException {
    long deadline = System.nanoTime() + ApiKeys.REFRESH.toNanos() * 3;
    int status;
    do {
      status = as(key, "GET", "/v1/tables", null).statusCode();
      if (status != wanted) {
        Thread.sleep(100);
      }
    } while (status != wanted && System.nanoTime() < deadline);
    return status;
  }

  /** Makes a read key through the server on this port with the admin key. */
  private final class KeyMaker {
    private final TestHttp other;

    KeyMaker(int port) {
      other = new TestHttp(port);
    }

    String make() {
      HttpResponse<byte[]> made =
          other.send(
              "POST", "/v1/admin/keys", "{\"scope\":\"read\"}", "Authorization", bearer(admin));
      assertThat(made.statusCode()).isEqualTo(201);
      return KeyJson.readCreatedSecret(made.body());
    }

    int revoke(String key) {
      return other
          .send(
              "DELETE",
              "/v1/admin/keys/" + key.substring(3, 15),
              null,
              "Authorization",
              bearer(admin))
          .statusCode();
    }
  }

  @Test
  void keysSurviveARestartAndAreStoredHashed(@TempDir Path dir) {
    String secret;
    try (Database first = Viewbase.open(OpenOptions.at(dir))) {
      secret = ApiKeys.of(first).create(KeyScope.READ, List.of(), "restart").secret();
    }
    try (Database reopened = Viewbase.open(OpenOptions.at(dir));
        ViewbaseServer s =
            ViewbaseServer.start(reopened, ServerOptions.defaults().withPort(0).withIoThreads(1))) {
      TestHttp h = new TestHttp(s.port());
      assertThat(h.send("GET", "/v1/tables", null, "Authorization", bearer(secret)).statusCode())
          .isEqualTo(200);
      assertThat(h.get("/v1/tables").statusCode()).isEqualTo(401);
      String stored = reopened.setting(null, ApiKeys.SETTING).orElseThrow();
      String secretPart = secret.substring(16);
      assertThat(stored).contains(secret.substring(3, 15)).contains("sha256");
      assertThat(stored).doesNotContain(secretPart);
    }
  }

  @Test
  void aServerBeyondLoopbackWithoutKeysRefusesToStartUnlessInsecure(@TempDir Path dir) {
    try (Database empty = Viewbase.open(OpenOptions.at(dir))) {
      ServerOptions everywhere =
          ServerOptions.defaults().withBindAddress("0.0.0.0").withPort(0).withIoThreads(1);
      assertThatThrownBy(() -> ViewbaseServer.start(empty, everywhere))
          .isInstanceOfSatisfying(
              ViewbaseException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.ApiKeyRequired))
          .hasMessageContaining("viewbase key create --data");
      try (ViewbaseServer open = ViewbaseServer.start(empty, everywhere.withInsecure(true))) {
        assertThat(new TestHttp(open.port()).get("/v1/tables").statusCode()).isEqualTo(200);
      }
      // with a key it starts, needs keys, and stays closed once its last key is revoked
      ApiKeys keys = ApiKeys.of(empty);
      String only = keys.create(KeyScope.ADMIN, List.of(), "").secret();
      try (ViewbaseServer closed = ViewbaseServer.start(empty, everywhere)) {
        TestHttp h = new TestHttp(closed.port());
        assertThat(h.get("/v1/tables").statusCode()).isEqualTo(401);
        String id = only.substring(3, 15);
        assertThat(
                h.send("DELETE", "/v1/admin/keys/" + id, null, "Authorization", bearer(only))
                    .statusCode())
            .isEqualTo(204);
        HttpResponse<byte[]> after = h.get("/v1/tables");
        assertThat(after.statusCode()).isEqualTo(401);
        assertThat(code(after)).isEqualTo(ErrorCode.ApiKeyRequired);
        assertThat(h.get("/v1/health").statusCode()).isEqualTo(200);
      }
    }
  }

  @Test
  void theCatalogRefusesKeysBeyondItsLimit(@TempDir Path dir) {
    try (Database fresh = Viewbase.open(OpenOptions.at(dir).withSync(false))) {
      ApiKeys keys = ApiKeys.of(fresh);
      for (int i = 0; i < ApiKeys.MAX_KEYS; i++) {
        keys.create(KeyScope.READ, List.of("Abc" + i, "Def" + i), "key " + i);
      }
      assertThatThrownBy(() -> keys.create(KeyScope.READ, List.of(), "one more"))
          .isInstanceOfSatisfying(
              ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.InvalidInput))
          .hasMessageContaining("revoke one first");
      assertThat(keys.list()).hasSize(ApiKeys.MAX_KEYS);
    }
  }

  @Test
  void keysThatWouldNotFitTheSettingAreRefusedWithTheLimitNamed(@TempDir Path dir) {
    try (Database fresh = Viewbase.open(OpenOptions.at(dir).withSync(false))) {
      ApiKeys keys = ApiKeys.of(fresh);
      List<String> many = new ArrayList<>();
      for (int t = 0; t < KeyJson.MAX_TABLES; t++) {
        many.add("T" + t + "x".repeat(60));
      }
      ViewbaseException refused = null;
      int made = 0;
      while (refused == null && made < ApiKeys.MAX_KEYS) {
        try {
          keys.create(KeyScope.READ, many, "wide");
          made++;
        } catch (ViewbaseException e) {
          refused = e;
        }
      }
      assertThat(refused).isNotNull();
      assertThat(refused.code()).isEqualTo(ErrorCode.InvalidInput);
      assertThat(refused.getMessage()).contains("64 KiB");
      assertThat(keys.list()).hasSize(made);
      assertThat(ApiKeys.of(fresh).list()).hasSize(made);
    }
  }

  @Test
  void aServerWhoseStoredKeysDoNotParseRefusesToStartNamingTheSetting(@TempDir Path dir) {
    try (Database broken = Viewbase.open(OpenOptions.at(dir))) {
      broken.putSetting(null, ApiKeys.SETTING, "[{\"id\":");
      assertThatThrownBy(
              () ->
                  ViewbaseServer.start(
                      broken, ServerOptions.defaults().withPort(0).withIoThreads(1)))
          .isInstanceOfSatisfying(
              ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.InternalError))
          .hasMessageContaining(ApiKeys.SETTING);
    }
  }
}
