package io.viewbase.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Query;
import io.viewbase.api.ViewbaseException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Path matching, percent-decoding and query translation: the parts of the API that need no
 * database.
 */
class RoutingTest {

  @ParameterizedTest
  @CsvSource({
    "/v1/health, HEALTH",
    "/metrics, METRICS",
    "/v1/tables, TABLES",
    "/v1/tables/People, TABLE",
    "/v1/tables/People/items, TABLE_QUERY",
    "/v1/tables/People/items/p1, PARTITION_QUERY",
    "/v1/tables/People/items/p1/i1, ITEM",
    "/v1/batch, BATCH",
    "/v1/views/ByEmail, VIEW",
    "/v1/views/ByEmail/verify, VIEW_VERIFY",
    "/v1/tables/People/rows/p1, UNKNOWN",
    "/v1/tables/People/items/p/i/x, UNKNOWN",
    "/v2/tables, UNKNOWN",
    "/, UNKNOWN",
    "/v1/health/x, UNKNOWN",
    "/v1/, UNKNOWN",
    "/v1/healthy, UNKNOWN",
    "/v1/tables/, TABLE",
    "/v1/tables/T/itemsx/p, UNKNOWN",
    "/v1/tables/T/items/p/, ITEM",
    "/v1/tables/T/items/p/i/, UNKNOWN",
    "/v1/views/V/verify/, UNKNOWN",
    "/v1/batch/, UNKNOWN",
  })
  void matchMapsPathsToRoutes(String path, Route route) {
    assertThat(RouteMatch.of(path).route()).isEqualTo(route);
  }

  @ParameterizedTest
  @CsvSource({
    "GET, /v1/tables/T/items/p/i, true",
    "PUT, /v1/tables/T/items/p/i, false",
    "GET, /v1/tables/T/items/p, false",
    "GET, /v1/views/V, true",
    "PUT, /v1/views/V, false",
    "DELETE, /v1/views/V, false",
    "POST, /v1/views/V/verify, false",
    "GET, /v1/tables, true",
  })
  void runsInlineOnlyForCatalogAndPointReads(String method, String path, boolean inline) {
    assertThat(NativeApi.runsInline(method, RouteMatch.of(path))).isEqualTo(inline);
  }

  @Test
  void matchKeepsEmptySegmentsAsEmptyParams() {
    assertThat(RouteMatch.of("/v1/tables/T/items//i").rawParams()).containsExactly("T", "", "i");
    assertThat(RouteMatch.of("/v1/tables/T/items/p/").rawParams()).containsExactly("T", "p", "");
    assertThat(RouteMatch.of("/v1/tables/").rawParams()).containsExactly("");
  }

  @Test
  void paramDecodesEachSegmentOnItsOwn() {
    RouteMatch m = RouteMatch.of("/v1/tables/T/items/a%2Fb%23c%20d+e/%E2%82%AC%F0%9F%98%80");
    assertThat(m.route()).isEqualTo(Route.ITEM);
    assertThat(m.param(1)).isEqualTo("a/b#c d+e");
    assertThat(m.param(2)).isEqualTo("€😀");
  }

  @Test
  void targetSplitsPathAndQuery() {
    ApiRequest r = ApiRequest.of("GET", "/v1/tables/T/items/p?limit=5&prefix=a%2Bb+c");
    assertThat(r.rawPath()).isEqualTo("/v1/tables/T/items/p");
    assertThat(r.rawQuery()).isEqualTo("limit=5&prefix=a%2Bb+c");
    assertThat(ApiRequest.of("GET", "http://host:8080/v1/health").rawPath())
        .isEqualTo("/v1/health");
  }

  @ParameterizedTest
  @CsvSource({"a%2", "a%zz", "%FF", "%C3%28"})
  void segmentWithBrokenEncodingFailsWithInvalidInput(String raw) {
    assertThatThrownBy(() -> PercentDecoding.segment(raw))
        .isInstanceOfSatisfying(
            ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.InvalidInput));
  }

  @Test
  void queryComponentReadsPlusAsSpaceAndPathSegmentAsPlus() {
    assertThat(PercentDecoding.queryComponent("a+b%2Bc")).isEqualTo("a b+c");
    assertThat(PercentDecoding.segment("a+b")).isEqualTo("a+b");
  }

  /** A partition query's parameters as its endpoint reads them. */
  private static Query partitionQuery(String rawQuery) {
    return QueryParameters.toQuery(
        "p", QueryParameters.parse(rawQuery, Route.PARTITION_QUERY), 1000);
  }

  @Test
  void toQueryTranslatesEveryParameter() {
    Query q =
        partitionQuery(
            "prefix=x&from=a&to=z&desc=true&filter=age+gt+3&select=a,+b&limit=10&continuation=tok");
    assertThat(q)
        .isEqualTo(new Query("p", "a", "z", "x", true, List.of("a", "b"), "age gt 3", 10, "tok"));
    assertThat(QueryParameters.toQuery(null, QueryParameters.parse("", Route.TABLE_QUERY), 1000))
        .isEqualTo(Query.all());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "limit=0",
        "limit=1001",
        "limit=ten",
        "limit=",
        "desc=yes",
        "select=a,,b",
        "top=5",
        "limit=1&limit=2"
      })
  void toQueryWithBadParameterFailsWithInvalidQuery(String raw) {
    assertThatThrownBy(() -> partitionQuery(raw))
        .isInstanceOfSatisfying(
            ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.InvalidQuery));
  }

  @ParameterizedTest
  @CsvSource({
    "ITEM, a=b, a",
    "TABLES, bogus=1, bogus",
    "BATCH, ifmatch=x, ifmatch",
    "HEALTH, x, x",
    "TABLE, %74op=1, top",
    "VIEW_VERIFY, repair=true&fix=1, fix",
    "TABLE_QUERY, top=5, top"
  })
  void parseRefusesANameItsRouteDoesNotTakeNamingItAndTheEndpoint(
      Route route, String raw, String name) {
    assertThatThrownBy(() -> QueryParameters.parse(raw, route))
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.InvalidQuery);
              assertThat(e.context())
                  .containsEntry("parameter", name)
                  .containsEntry("endpoint", route.template());
              assertThat(e.getMessage())
                  .contains(route.parameters().isEmpty() ? "takes none" : "takes ");
            });
  }

  @Test
  void parseOfAnEmptyQueryOrEmptyPairsNamesNothingOnEveryRoute() {
    for (Route route : Route.values()) {
      assertThat(QueryParameters.parse("", route)).isEmpty();
      assertThat(QueryParameters.parse("&&", route)).isEmpty();
    }
  }

  @Test
  void metricsRenderCountsAndLatencyByDialectRouteAndStatus() {
    ServerMetrics metrics = new ServerMetrics();
    RequestMeters requests = metrics.requests("native");
    for (int status : new int[] {200, 200, 412}) {
      requests.started();
      requests.finished(Route.ITEM.label(), status, 300_000);
    }
    requests.started();
    assertThat(metrics.scrape())
        .contains(
            "viewbase_http_requests_seconds_count{dialect=\"native\",route=\"item\",status=\"200\"} 2\n")
        .contains(
            "viewbase_http_requests_seconds_count{dialect=\"native\",route=\"item\",status=\"412\"} 1\n")
        // 300 µs: above the 100 µs bucket, within the 500 µs one
        .contains(
            "viewbase_http_requests_seconds_bucket{dialect=\"native\",route=\"item\",status=\"200\",le=\"1.0E-4\"} 0\n")
        .contains(
            "viewbase_http_requests_seconds_bucket{dialect=\"native\",route=\"item\",status=\"200\",le=\"5.0E-4\"} 2\n")
        .contains("viewbase_http_requests_in_flight{dialect=\"native\"} 1")
        .doesNotContain("status=\"500\"");
  }
}
