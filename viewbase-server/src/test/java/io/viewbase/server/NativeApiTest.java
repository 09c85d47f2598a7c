package io.viewbase.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Limits;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Table;
import io.viewbase.api.TableInfo;
import io.viewbase.api.Viewbase;
import io.viewbase.json.ErrorJson;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The translation layer without a socket: requests in, responses out. */
class NativeApiTest {

  private static ApiRequest put(String target, String body) {
    return new ApiRequest(
        "PUT",
        target,
        null,
        null,
        "application/json; charset=utf-8",
        body.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void handlePutThenGetAnswersTheStoredItemWithItsEtag() {
    try (Database db = Viewbase.open(OpenOptions.inMemory())) {
      NativeApi api = new NativeApi(db);
      assertThat(api.handle(ApiRequest.of("PUT", "/v1/tables/Things")).status()).isEqualTo(201);
      ApiResponse written = api.handle(put("/v1/tables/Things/items/p/i", "{\"v\":1}"));
      assertThat(written.status()).isEqualTo(200);
      ApiResponse read = api.handle(ApiRequest.of("GET", "/v1/tables/Things/items/p/i"));
      assertThat(read.status()).isEqualTo(200);
      assertThat(read.headers().get("ETag")).isEqualTo(written.headers().get("ETag")).isNotNull();
      assertThat(read.bodyText()).contains("\"v\":1");
    }
  }

  /**
   * A property-name limit under 64 once turned a long name into a 500 (the error's context cut it
   * at 64).
   */
  @Test
  void putWithANameOverALimitUnder64Answers400InvalidPropertyNameAndStoresNothing() {
    Limits d = Limits.DEFAULT;
    Limits shortNames =
        new Limits(
            d.maxKeyBytes(),
            d.maxItemBytes(),
            d.maxProperties(),
            10,
            d.maxNestingDepth(),
            d.maxPageSize());
    try (Database db = Viewbase.open(OpenOptions.inMemory().withLimits(shortNames))) {
      NativeApi api = new NativeApi(db);
      api.handle(ApiRequest.of("PUT", "/v1/tables/Things"));

      ApiResponse r = api.handle(put("/v1/tables/Things/items/p/i", "{\"elevenchars\":1}"));

      assertThat(r.status()).isEqualTo(400);
      assertThat(ErrorJson.read(r.body()).orElseThrow().code())
          .isEqualTo(ErrorCode.InvalidPropertyName);
      assertThat(db.table("Things").get("p", "i")).isEmpty();
    }
  }

  @Test
  void handleOnAClosedDatabaseAnswers503() {
    Database db = Viewbase.open(OpenOptions.inMemory());
    NativeApi api = new NativeApi(db);
    db.close();
    ApiResponse r = api.handle(ApiRequest.of("GET", "/v1/tables"));
    assertThat(r.status()).isEqualTo(503);
    assertThat(ErrorJson.read(r.body()).orElseThrow().code()).isEqualTo(ErrorCode.DatabaseClosed);
  }

  @Test
  void handleWhenTheDatabaseFailsUnexpectedlyAnswers500WithoutDetails() {
    ApiResponse r = new NativeApi(new BrokenDatabase()).handle(ApiRequest.of("GET", "/v1/tables"));
    assertThat(r.status()).isEqualTo(500);
    assertThat(ErrorJson.read(r.body()).orElseThrow().code()).isEqualTo(ErrorCode.InternalError);
    assertThat(r.bodyText()).doesNotContain("secret").doesNotContain("IllegalStateException");
  }

  @Test
  void handleWrongMethodAnswers405WithAllow() {
    try (Database db = Viewbase.open(OpenOptions.inMemory())) {
      ApiResponse r = new NativeApi(db).handle(ApiRequest.of("DELETE", "/v1/tables"));
      assertThat(r.status()).isEqualTo(405);
      assertThat(r.headers()).containsEntry("Allow", "GET");
    }
  }

  /**
   * A database failing in a way no real one can be made to (a bug): the only way to see that the
   * server hides the details. Everything but listTables is unused.
   */
  private static final class BrokenDatabase implements Database {
    @Override
    public List<TableInfo> listTables() {
      throw new IllegalStateException("secret internals");
    }

    @Override
    public TableInfo createTable(String name) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void dropTable(String name) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Table table(String name) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Limits limits() {
      return Limits.DEFAULT;
    }

    @Override
    public void close() {}
  }
}
