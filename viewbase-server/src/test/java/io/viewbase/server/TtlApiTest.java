package io.viewbase.server;

import static io.viewbase.server.TestHttp.code;
import static io.viewbase.server.TestHttp.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.SweepStatus;
import io.viewbase.api.TableOptions;
import io.viewbase.core.CoreDatabaseProvider;
import io.viewbase.json.SweepStatusJson;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Time-to-live over the native API on a real socket, RocksDB behind it (docs/ttl.md): {@code _ttl}
 * in bodies, expired items absent to reads and writes, the forced sweep {@code POST
 * /v1/tables/{t}/expire} and the sweep status in {@code GET /v1/tables/{t}}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TtlApiTest {
  private final MovableClock clock = new MovableClock();
  private Database db;
  private ViewbaseServer server;
  private TestHttp http;

  @BeforeAll
  void start(@TempDir Path dir) {
    db = CoreDatabaseProvider.open(OpenOptions.at(dir), clock);
    server = ViewbaseServer.start(db, ServerOptions.defaults().withPort(0).withIoThreads(2));
    http = new TestHttp(server.port());
  }

  @AfterAll
  void stop() {
    server.close();
    db.close();
  }

  private HttpResponse<byte[]> put(String path, String body, String... headers) {
    return http.send("PUT", path, body, headers);
  }

  @Test
  void anItemsTtlIsStoredShownAndEndsItsLifeForEveryReadAndWrite() {
    assertThat(http.send("PUT", "/v1/tables/Sessions", null).statusCode()).isEqualTo(201);
    assertThat(put("/v1/tables/Sessions/items/u/1", "{\"_ttl\": 60, \"n\": 1}").statusCode())
        .isEqualTo(200);
    assertThat(put("/v1/tables/Sessions/items/u/2", "{\"_ttl\": 60, \"n\": 2}").statusCode())
        .isEqualTo(200);
    assertThat(put("/v1/tables/Sessions/items/u/3", "{\"_ttl\": 8640000, \"n\": 3}").statusCode())
        .isEqualTo(200);
    assertThat(text(http.get("/v1/tables/Sessions/items/u/1"))).contains("\"_ttl\":60");

    clock.advance(Duration.ofMinutes(2));
    HttpResponse<byte[]> gone = http.get("/v1/tables/Sessions/items/u/1");
    assertThat(gone.statusCode()).isEqualTo(404);
    assertThat(code(gone)).isEqualTo(ErrorCode.ItemNotFound);
    assertThat(text(http.get("/v1/tables/Sessions/items/u"))).doesNotContain("\"id\":\"1\"");
    assertThat(text(http.get("/v1/tables/Sessions/items?filter=n%20eq%201")))
        .contains("\"items\":[]");
    HttpResponse<byte[]> merge =
        http.send("PATCH", "/v1/tables/Sessions/items/u/2", "{\"n\": 9}", "If-Match", "*");
    assertThat(code(merge)).isEqualTo(ErrorCode.ItemNotFound);
    HttpResponse<byte[]> insert =
        put("/v1/tables/Sessions/items/u/1", "{\"n\": 10}", "If-None-Match", "*");
    assertThat(insert.statusCode()).isEqualTo(201); // over the expired item

    HttpResponse<byte[]> swept = http.send("POST", "/v1/tables/Sessions/expire", null);
    assertThat(swept.statusCode()).isEqualTo(200);
    assertThat(text(swept)).isEqualTo("{\"table\":\"Sessions\",\"expired\":1}");
    SweepStatus status =
        SweepStatusJson.readFromDescription(http.get("/v1/tables/Sessions").body());
    assertThat(status.swept()).isTrue();
    assertThat(status.itemsExpired()).isEqualTo(1);
    assertThat(status.itemsScanned()).isEqualTo(3);
    assertThat(status.lastSweepEnded()).isNotNull();
    assertThat(text(http.get("/v1/tables/Sessions")))
        .startsWith("{\"name\":\"Sessions\",\"kind\":\"table\"")
        .contains(",\"sweep\":{\"swept\":true,\"itemsExpired\":1,\"itemsScanned\":3,");
  }

  @Test
  void theTableDefaultTtlAppliesToItemsPutOverHttp() {
    db.createTable("Carts", TableOptions.DEFAULT.withTtl(Duration.ofHours(1)));
    assertThat(put("/v1/tables/Carts/items/u/1", "{\"n\": 1}").statusCode()).isEqualTo(200);
    clock.advance(Duration.ofHours(2));
    assertThat(http.get("/v1/tables/Carts/items/u/1").statusCode()).isEqualTo(404);
    assertThat(text(http.send("POST", "/v1/tables/Carts/expire", null))).contains("\"expired\":1");
  }

  @Test
  void aBadTtlAnswers400InvalidValueAndStoresNothing() {
    assertThat(http.send("PUT", "/v1/tables/BadTtl", null).statusCode()).isEqualTo(201);
    for (String ttl : new String[] {"0", "-1", "1.5", "\"1h\"", "true", "{}", "2147483648"}) {
      HttpResponse<byte[]> r = put("/v1/tables/BadTtl/items/u/1", "{\"_ttl\": " + ttl + "}");
      assertThat(r.statusCode()).as(ttl).isEqualTo(400);
      assertThat(code(r)).as(ttl).isEqualTo(ErrorCode.InvalidValue);
    }
    assertThat(http.get("/v1/tables/BadTtl/items/u/1").statusCode()).isEqualTo(404);
    assertThat(code(put("/v1/tables/BadTtl/items/u/1", "{\"_other\": 1}")))
        .isEqualTo(ErrorCode.InvalidPropertyName);
  }

  @Test
  void theExpireEndpointAnswersOnlyPostAndKnownTables() {
    assertThat(code(http.send("POST", "/v1/tables/Nope/expire", null)))
        .isEqualTo(ErrorCode.TableNotFound);
    assertThat(http.get("/v1/tables/Nope/expire").statusCode()).isEqualTo(405);
    assertThat(code(http.send("POST", "/v1/tables/Nope/expire?now=1", null)))
        .isEqualTo(ErrorCode.InvalidQuery);
  }
}
