package io.viewbase.server.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.data.tables.implementation.TableSasGenerator;
import com.azure.data.tables.sas.TableSasPermission;
import com.azure.data.tables.sas.TableSasSignatureValues;
import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Table;
import io.viewbase.api.TableInfo;
import io.viewbase.api.Viewbase;
import io.viewbase.server.DelegatingDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Requests no SDK sends, as raw signed requests to the dialect: each as Azure answers it, and every
 * refused one leaves the data as it was.
 */
class AzureFidelityTest {
  private static final AzureNamedKeyCredential CREDENTIAL =
      new AzureNamedKeyCredential(AzureOptions.DEV_ACCOUNT, AzureOptions.DEV_KEY);

  private Database db;
  private AzureApi api;

  @BeforeEach
  void open() {
    db = Viewbase.open(OpenOptions.inMemory());
    api = new AzureApi(db, AzureOptions.defaults());
    db.createTable("People");
    db.table("People").insert(Item.builder("p", "r").put("v", 1).put("b", true).build());
  }

  @AfterEach
  void close() {
    db.close();
  }

  private AzureResponse send(SignedRequests request) {
    return api.handle(request.build());
  }

  private static String code(AzureResponse r) {
    return r.header("x-ms-error-code");
  }

  @Test
  void pathsEndingInASlashNameTheSameResourceSignedAsSent() {
    AzureResponse tables = send(SignedRequests.of("GET", "/Tables/"));
    AzureResponse entity = send(SignedRequests.of("GET", "/People(PartitionKey='p',RowKey='r')/"));
    AzureResponse entities = send(SignedRequests.of("GET", "/People()/?$filter=v%20eq%201"));

    assertThat(tables.status()).isEqualTo(200);
    assertThat(tables.bodyText()).contains("\"TableName\":\"People\"");
    assertThat(entity.status()).isEqualTo(200);
    assertThat(entities.status()).isEqualTo(200);
    assertThat(entities.bodyText()).contains("\"RowKey\":\"r\"");
  }

  @Test
  void anUnknownOrMalformedVersionIs400InvalidHeaderValueAndAnswersCarryTheImplementedVersion() {
    for (String bad : List.of("2019-02-03", "latest", "2019-2-2", "2019-13-01", "")) {
      AzureResponse r =
          send(
              SignedRequests.of("POST", "/People")
                  .header("x-ms-version", bad)
                  .body("{\"PartitionKey\":\"p\",\"RowKey\":\"" + bad + "x\"}"));
      assertThat(r.status()).as(bad).isEqualTo(400);
      assertThat(code(r)).as(bad).isEqualTo("InvalidHeaderValue");
      assertThat(r.header("x-ms-version")).isEqualTo("2019-02-02");
    }
    assertThat(db.table("People").get("p", "2019-02-03x")).isEmpty();

    AzureResponse newer =
        send(SignedRequests.of("GET", "/Tables").header("x-ms-version", "2021-12-02"));
    AzureResponse future =
        send(SignedRequests.of("GET", "/Tables").header("x-ms-version", "2099-01-01"));
    assertThat(newer.status()).isEqualTo(200);
    assertThat(newer.header("x-ms-version")).isEqualTo("2019-02-02");
    assertThat(future.status()).isEqualTo(200);
  }

  @Test
  void aQueryParameterGivenTwiceIsRefused() {
    AzureResponse twoFilters =
        send(SignedRequests.of("GET", "/People()?$filter=v%20eq%202&$filter=v%20eq%201"));
    AzureResponse twoTops = send(SignedRequests.of("GET", "/Tables?$top=1&$top=2"));

    assertThat(twoFilters.status()).isEqualTo(400);
    assertThat(code(twoFilters)).isEqualTo("InvalidQueryParameterValue");
    assertThat(twoFilters.bodyText()).contains("given more than once (parameter: $filter)");
    assertThat(twoTops.status()).isEqualTo(400);
  }

  @Test
  void aSasGivenTwiceASignatureIsRefusedNotFirstWins() {
    String sas = tableSas("People", "r");
    String sig = sas.substring(sas.indexOf("sig="));

    AzureResponse r =
        send(
            SignedRequests.of("GET", "/People(PartitionKey='p',RowKey='r')?" + sas + "&" + sig)
                .unsigned());

    assertThat(r.status()).isEqualTo(400);
    assertThat(code(r)).isEqualTo("InvalidQueryParameterValue");
  }

  private static String tableSas(String table, String permissions) {
    return new TableSasGenerator(
            new TableSasSignatureValues(
                OffsetDateTime.now(ZoneOffset.UTC).plusHours(1),
                TableSasPermission.parse(permissions)),
            table,
            CREDENTIAL)
        .getSas();
  }

  @Test
  void aTableSasWithoutTnIsForTheTableTheUrlNames() {
    db.createTable("Other");
    db.table("Other").insert(Item.builder("p", "r").build());
    String withoutTn = withoutParameter(tableSas("People", "r"), "tn");

    AzureResponse read =
        send(
            SignedRequests.of("GET", "/People(PartitionKey='p',RowKey='r')?" + withoutTn)
                .unsigned());
    AzureResponse query = send(SignedRequests.of("GET", "/People()?" + withoutTn).unsigned());
    AzureResponse other =
        send(
            SignedRequests.of("GET", "/Other(PartitionKey='p',RowKey='r')?" + withoutTn)
                .unsigned());
    AzureResponse write =
        send(
            SignedRequests.of("POST", "/People?" + withoutTn)
                .unsigned()
                .body("{\"PartitionKey\":\"p\",\"RowKey\":\"sas\"}"));

    assertThat(read.status()).isEqualTo(200);
    assertThat(query.status()).isEqualTo(200);
    assertThat(other.status()).isEqualTo(403); // signed for People: the signature does not match
    assertThat(code(other)).isEqualTo("AuthenticationFailed");
    assertThat(write.status()).isEqualTo(403);
    assertThat(db.table("People").get("p", "sas")).isEmpty();
  }

  private static String withoutParameter(String query, String name) {
    StringBuilder out = new StringBuilder();
    for (String pair : query.split("&")) {
      if (!pair.startsWith(name + "=")) {
        out.append(out.length() == 0 ? "" : "&").append(pair);
      }
    }
    return out.toString();
  }

  @Test
  void ifMatchIsReadAsAzureReadsIt() {
    Table people = db.table("People");
    String etag = people.get("p", "r").orElseThrow().etag();
    String lowerW = "w" + etag.substring(1);
    String plainColons = etag.replace("%3A", ":");

    AzureResponse lower =
        send(
            SignedRequests.of("MERGE", "/People(PartitionKey='p',RowKey='r')")
                .header("If-Match", lowerW)
                .body("{\"v\":2}"));
    String etag2 = lower.header("ETag");
    AzureResponse plain =
        send(
            SignedRequests.of("MERGE", "/People(PartitionKey='p',RowKey='r')")
                .header("If-Match", etag2.replace("%3A", ":"))
                .body("{\"v\":3}"));
    AzureResponse strong =
        send(
            SignedRequests.of("MERGE", "/People(PartitionKey='p',RowKey='r')")
                .header("If-Match", "\"abc\"")
                .body("{\"v\":9}"));
    AzureResponse empty =
        send(
            SignedRequests.of("DELETE", "/People(PartitionKey='p',RowKey='r')")
                .header("If-Match", ""));
    AzureResponse foreignWeak =
        send(
            SignedRequests.of("MERGE", "/People(PartitionKey='p',RowKey='r')")
                .header("If-Match", "W/\"abc\"")
                .body("{\"v\":9}"));
    AzureResponse stale =
        send(
            SignedRequests.of("DELETE", "/People(PartitionKey='p',RowKey='r')")
                .header("If-Match", plainColons));

    assertThat(lower.status()).isEqualTo(204);
    assertThat(plain.status()).isEqualTo(204);
    assertThat(strong.status()).isEqualTo(400);
    assertThat(code(strong)).isEqualTo("InvalidInput");
    assertThat(empty.status()).isEqualTo(400);
    assertThat(foreignWeak.status()).isEqualTo(412);
    assertThat(code(foreignWeak)).isEqualTo("UpdateConditionNotSatisfied");
    assertThat(stale.status()).isEqualTo(412);
    assertThat(people.get("p", "r").orElseThrow().properties().get("v"))
        .isEqualTo(io.viewbase.api.Value.of(3));
  }

  @Test
  void createTableWithContentAfterItsJsonIsRefusedAndCreatesNothing() {
    AzureResponse r =
        send(SignedRequests.of("POST", "/Tables").body("{\"TableName\": \"Trail1\"}garbage"));
    AzureResponse two =
        send(SignedRequests.of("POST", "/Tables").body("{\"TableName\": \"Trail2\"} {}"));

    assertThat(r.status()).isEqualTo(400);
    assertThat(code(r)).isEqualTo("InvalidInput");
    assertThat(two.status()).isEqualTo(400);
    assertThat(db.listTables()).extracting(TableInfo::name).containsExactly("People");
  }

  @Test
  void queryTablesTakesTheEntityFilterLanguageWithItsLimits() {
    db.createTable("Alpha");
    AzureResponse none = send(SignedRequests.of("GET", "/Tables?$filter=false"));
    AzureResponse all = send(SignedRequests.of("GET", "/Tables?$filter=true"));
    AzureResponse notAlpha =
        send(SignedRequests.of("GET", "/Tables?$filter=not%20(TableName%20eq%20'Alpha')"));
    AzureResponse capitalised =
        send(SignedRequests.of("GET", "/Tables?$filter=True%20and%20TableName%20ge%20'P'"));

    assertThat(none.status()).isEqualTo(200);
    assertThat(none.bodyText()).doesNotContain("TableName");
    assertThat(all.bodyText()).contains("\"Alpha\"", "\"People\"");
    assertThat(notAlpha.bodyText()).contains("\"People\"").doesNotContain("\"Alpha\"");
    assertThat(capitalised.bodyText()).contains("\"People\"").doesNotContain("\"Alpha\"");
  }

  /**
   * Once, thousands of parentheses or nots overflowed the Query Tables parser's stack: no answer at
   * all.
   */
  @Test
  void deeplyNestedFiltersAre400NotAnUnansweredRequest() {
    String parens = "(".repeat(3000) + "TableName%20eq%20'a'" + ")".repeat(3000);
    String nots = "not%20".repeat(5000) + "true";

    for (String path :
        List.of(
            "/Tables?$filter=" + parens,
            "/Tables?$filter=" + nots,
            "/People()?$filter=" + parens,
            "/People()?$filter=" + nots)) {
      AzureResponse r = send(SignedRequests.of("GET", path));
      assertThat(r.status()).as(path.substring(0, 12)).isEqualTo(400);
      assertThat(code(r)).isEqualTo("InvalidInput");
    }
  }

  @Test
  void entityFiltersReadCapitalisedBooleans() {
    AzureResponse r =
        send(SignedRequests.of("GET", "/People()?$filter=b%20eq%20True%20and%20not%20False"));

    assertThat(r.status()).isEqualTo(200);
    assertThat(r.bodyText()).contains("\"RowKey\":\"r\"");
  }

  /**
   * An Error (here a StackOverflowError, as a parser without a depth limit once raised) is answered
   * 500 once, on a real socket, and the connection serves the next request. No input can raise one
   * now, so a database that throws it stands in for the bug.
   */
  @Test
  void anErrorInAHandlerIsAnswered500AndTheConnectionLivesOn() throws Exception {
    try (Database real = Viewbase.open(OpenOptions.inMemory());
        OverflowingListing broken = new OverflowingListing(real);
        AzureTablesServer server =
            AzureTablesServer.start(
                broken, AzureOptions.defaults().withPort(0).withAnonymousAccess(true))) {
      real.createTable("Kept");
      broken.armed.set(true);
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      String base = "http://127.0.0.1:" + server.port() + "/devstoreaccount1";

      HttpResponse<String> failed =
          http.send(
              HttpRequest.newBuilder(URI.create(base + "/Tables"))
                  .timeout(Duration.ofSeconds(10))
                  .header("Accept", "application/json;odata=nometadata")
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      HttpResponse<String> next =
          http.send(
              HttpRequest.newBuilder(URI.create(base + "/Kept()"))
                  .timeout(Duration.ofSeconds(10))
                  .header("Accept", "application/json;odata=nometadata")
                  .build(),
              HttpResponse.BodyHandlers.ofString());

      assertThat(failed.statusCode()).isEqualTo(500);
      assertThat(failed.headers().firstValue("x-ms-error-code")).contains("InternalError");
      assertThat(failed.body()).doesNotContain("StackOverflowError");
      assertThat(next.statusCode()).isEqualTo(200);
    }
  }

  /**
   * A real database whose table listing overflows the stack: a fault no real database can be made
   * to raise.
   */
  private static final class OverflowingListing extends DelegatingDatabase {
    final java.util.concurrent.atomic.AtomicBoolean armed =
        new java.util.concurrent.atomic.AtomicBoolean();

    OverflowingListing(Database real) {
      super(real);
    }

    @Override
    public List<TableInfo> listTables() {
      if (armed.get()) {
        throw new StackOverflowError();
      }
      return real.listTables();
    }
  }
}
