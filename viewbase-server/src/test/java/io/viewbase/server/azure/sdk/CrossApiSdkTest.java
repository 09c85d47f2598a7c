package io.viewbase.server.azure.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.viewbase.server.ServerOptions;
import io.viewbase.server.ViewbaseServer;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One database, two dialects: an entity written through the official Azure SDK reads back through
 * the native HTTP API with its types, and an item written through the native API reads back through
 * the SDK with the right Java types.
 */
class CrossApiSdkTest {
  @RegisterExtension static final AzureSdkServer azure = new AzureSdkServer();

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient NATIVE_HTTP =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(2))
          .build();

  private static ViewbaseServer nativeServer;

  @BeforeAll
  static void startNativeApi() {
    nativeServer = ViewbaseServer.start(azure.db(), ServerOptions.defaults().withPort(0));
  }

  @AfterAll
  static void stopNativeApi() {
    if (nativeServer != null) {
      nativeServer.close();
    }
  }

  private static HttpResponse<String> nativeCall(String method, String path, String body)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + nativeServer.port() + path))
            .timeout(Duration.ofSeconds(10));
    if (body == null) {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      request
          .header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString(body));
    }
    return NATIVE_HTTP.send(
        request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  private static String segment(String key) {
    return URLEncoder.encode(key, StandardCharsets.UTF_8).replace("+", "%20");
  }

  @Test
  void entityWrittenThroughTheSdkReadsBackThroughTheNativeApiWithItsTypes() throws Exception {
    TableClient table = azure.newTable("FromSdk");
    UUID guid = UUID.fromString("C9DA6455-213D-42C9-9A79-3E9149A57833");
    OffsetDateTime when = OffsetDateTime.of(2026, 11, 30, 12, 34, 56, 123_456_700, ZoneOffset.UTC);
    byte[] bytes = {0, 1, 2, (byte) 0xfe, (byte) 0xff};
    table.createEntity(
        new TableEntity("acme", "ann 1")
            .addProperty("s", "Ann")
            .addProperty("b", true)
            .addProperty("i32", 42)
            .addProperty("i64", 5L)
            .addProperty("i64big", Long.MAX_VALUE)
            .addProperty("d", 42.0)
            .addProperty("dfrac", 1.25)
            .addProperty("dt", when)
            .addProperty("g", guid)
            .addProperty("bin", bytes));
    String sdkEtag = table.getEntity("acme", "ann 1").getETag();

    HttpResponse<String> response =
        nativeCall(
            "GET", "/v1/tables/" + table.getTableName() + "/items/acme/" + segment("ann 1"), null);

    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode item = JSON.readTree(response.body());
    assertThat(item.get("partitionKey").asText()).isEqualTo("acme");
    assertThat(item.get("id").asText()).isEqualTo("ann 1");
    assertThat(item.get("_etag").asText()).isEqualTo(sdkEtag);
    assertThat(response.headers().firstValue("ETag")).contains(sdkEtag);
    assertThat(item.get("s").isTextual()).isTrue();
    assertThat(item.get("s").asText()).isEqualTo("Ann");
    assertThat(item.get("b").isBoolean()).isTrue();
    assertThat(item.get("i32").isInt()).isTrue();
    assertThat(item.get("i32").asInt()).isEqualTo(42);
    assertThat(item.has("i32@odata.type")).isFalse();
    assertThat(item.get("i64@odata.type").asText()).isEqualTo("Edm.Int64");
    assertThat(item.get("i64").asText()).isEqualTo("5");
    assertThat(item.get("i64big@odata.type").asText()).isEqualTo("Edm.Int64");
    assertThat(item.get("i64big").asText()).isEqualTo(Long.toString(Long.MAX_VALUE));
    assertThat(item.get("d").isFloatingPointNumber()).as("42.0 is written as a double").isTrue();
    assertThat(item.get("d").asDouble()).isEqualTo(42.0);
    assertThat(item.get("dfrac").asDouble()).isEqualTo(1.25);
    assertThat(item.get("dt@odata.type").asText()).isEqualTo("Edm.DateTime");
    assertThat(item.get("dt").asText()).isEqualTo("2026-11-30T12:34:56.1234567Z");
    assertThat(item.get("g@odata.type").asText()).isEqualTo("Edm.Guid");
    assertThat(item.get("g").asText()).isEqualTo("c9da6455-213d-42c9-9a79-3e9149a57833");
    assertThat(item.get("bin@odata.type").asText()).isEqualTo("Edm.Binary");
    assertThat(Base64.getDecoder().decode(item.get("bin").asText())).isEqualTo(bytes);
  }

  @Test
  void itemWrittenThroughTheNativeApiReadsBackThroughTheSdkWithJavaTypes() throws Exception {
    String name = AzureSdkServer.uniqueName("FromNative");
    assertThat(nativeCall("PUT", "/v1/tables/" + name, null).statusCode()).isEqualTo(201);
    String body =
        """
        {"name": "Bob", "active": false, "age": 41,
         "big": "9007199254740993", "big@odata.type": "Edm.Int64",
         "huge": "-9223372036854775808", "huge@odata.type": "Edm.Int64",
         "score": 3.0, "ratio": 0.1,
         "nan": "NaN", "nan@odata.type": "Edm.Double",
         "born": "1990-05-01T00:00:00.0000001Z", "born@odata.type": "Edm.DateTime",
         "ref": "0f8fad5b-d9cb-469f-a165-70867728950e", "ref@odata.type": "Edm.Guid",
         "blob": "AAEC/w==", "blob@odata.type": "Edm.Binary"}
        """;
    HttpResponse<String> put = nativeCall("PUT", "/v1/tables/" + name + "/items/acme/bob", body);
    assertThat(put.statusCode()).as(put.body()).isBetween(200, 201);

    TableEntity bob = azure.table(name).getEntity("acme", "bob");

    assertThat(bob.getProperty("name")).isEqualTo("Bob");
    assertThat(bob.getProperty("active")).isEqualTo(false);
    assertThat(bob.getProperty("age")).isEqualTo(41);
    assertThat(bob.getProperty("big")).isEqualTo(9_007_199_254_740_993L);
    assertThat(bob.getProperty("huge")).isEqualTo(Long.MIN_VALUE);
    assertThat(bob.getProperty("score")).isInstanceOf(Double.class).isEqualTo(3.0);
    assertThat(bob.getProperty("ratio")).isEqualTo(0.1);
    assertThat(bob.getProperty("nan"))
        .isInstanceOf(Double.class)
        .satisfies(v -> assertThat((Double) v).isNaN());
    assertThat(bob.getProperty("born"))
        .isEqualTo(OffsetDateTime.of(1990, 5, 1, 0, 0, 0, 100, ZoneOffset.UTC));
    assertThat(bob.getProperty("ref"))
        .isEqualTo(UUID.fromString("0f8fad5b-d9cb-469f-a165-70867728950e"));
    assertThat(bob.getProperty("blob")).isEqualTo(new byte[] {0, 1, 2, (byte) 0xff});
    assertThat(bob.getETag()).isEqualTo(JSON.readTree(put.body()).get("_etag").asText());
  }

  @Test
  void decimalsWrittenThroughTheNativeApiReadThroughTheSdkAsExactDoublesOrText() throws Exception {
    // Azure Tables has no decimal: a decimal that a double holds exactly is that double, any
    // other its text; filters still compare it as a number.
    String name = AzureSdkServer.uniqueName("Decimals");
    assertThat(nativeCall("PUT", "/v1/tables/" + name, null).statusCode()).isEqualTo(201);
    String body =
        """
        {"price": "12.50", "price@odata.type": "Edm.Decimal",
         "tenth": "0.1", "tenth@odata.type": "Edm.Decimal",
         "exact": 12345678901234567890.123456789012345678, "exact@odata.type": "Edm.Decimal"}
        """;
    HttpResponse<String> put = nativeCall("PUT", "/v1/tables/" + name + "/items/acme/r", body);
    assertThat(put.statusCode()).as(put.body()).isBetween(200, 201);

    TableEntity read = azure.table(name).getEntity("acme", "r");
    assertThat(read.getProperty("price")).isInstanceOf(Double.class).isEqualTo(12.5);
    assertThat(read.getProperty("tenth")).isEqualTo("0.1");
    assertThat(read.getProperty("exact")).isEqualTo("12345678901234567890.123456789012345678");

    var options = new com.azure.data.tables.models.ListEntitiesOptions();
    assertThat(azure.table(name).listEntities(options.setFilter("price eq 12.5"), null, null))
        .hasSize(1);
    assertThat(azure.table(name).listEntities(options.setFilter("tenth lt 0.1"), null, null))
        .as("the decimal 0.1 is below the double 0.1")
        .hasSize(1);
    assertThat(azure.table(name).listEntities(options.setFilter("tenth eq '0.1'"), null, null))
        .as("a decimal is no string")
        .isEmpty();
    JsonNode item =
        JSON.readTree(nativeCall("GET", "/v1/tables/" + name + "/items/acme/r", null).body());
    assertThat(item.get("exact@odata.type").asText()).isEqualTo("Edm.Decimal");
    assertThat(item.get("exact").asText()).isEqualTo("12345678901234567890.123456789012345678");
  }

  @Test
  void nativeItemWithAnObjectPropertyIsReadableThroughTheSdk() throws Exception {
    // Objects and arrays exist only in the native API; the Azure dialect must still answer the
    // read.
    String name = AzureSdkServer.uniqueName("Nested");
    nativeCall("PUT", "/v1/tables/" + name, null);
    HttpResponse<String> put =
        nativeCall(
            "PUT",
            "/v1/tables/" + name + "/items/p/r",
            "{\"plain\": 1, \"address\": {\"city\": \"Oslo\"}, \"tags\": [\"a\", \"b\"]}");
    assertThat(put.statusCode()).as(put.body()).isBetween(200, 201);

    TableEntity read = azure.table(name).getEntity("p", "r");

    assertThat(read.getProperty("plain")).isEqualTo(1);
  }

  @Test
  void deleteThroughTheSdkIsSeenByTheNativeApi() throws Exception {
    TableClient table = azure.newTable("Deleted");
    table.createEntity(new TableEntity("p", "r"));

    table.deleteEntity("p", "r");

    assertThat(
            nativeCall("GET", "/v1/tables/" + table.getTableName() + "/items/p/r", null)
                .statusCode())
        .isEqualTo(404);
  }

  @Test
  void reservedAzureNamesAreSeenByTheNativeApiAsDollarNamesAndBack() throws Exception {
    // id, partitionKey and _x are ordinary Azure names; the native API shows them as $id,
    // $partitionKey, $_x.
    TableClient table = azure.newTable("Escaped");
    table.createEntity(new TableEntity("p", "sdk").addProperty("id", "A-1").addProperty("_n", 3));
    String name = table.getTableName();

    JsonNode item =
        JSON.readTree(nativeCall("GET", "/v1/tables/" + name + "/items/p/sdk", null).body());
    HttpResponse<String> found =
        nativeCall(
            "GET",
            "/v1/tables/" + name + "/items?filter=" + segment("$id eq 'A-1' and $_n eq 3"),
            null);
    HttpResponse<String> put =
        nativeCall(
            "PUT",
            "/v1/tables/" + name + "/items/p/native",
            "{\"$id\": \"B-2\", \"$partitionKey\": \"q\", \"$other\": 1}");

    assertThat(item.get("id").asText()).isEqualTo("sdk");
    assertThat(item.get("$id").asText()).isEqualTo("A-1");
    assertThat(item.get("$_n").asInt()).isEqualTo(3);
    assertThat(item.has("_n")).isFalse();
    assertThat(found.statusCode()).as(found.body()).isEqualTo(200);
    assertThat(JSON.readTree(found.body()).get("items"))
        .extracting(i -> i.get("id").asText())
        .containsExactly("sdk");
    assertThat(put.statusCode()).as(put.body()).isBetween(200, 201);
    TableEntity back = table.getEntity("p", "native");
    assertThat(back.getProperties())
        .containsEntry("id", "B-2")
        .containsEntry("partitionKey", "q")
        .containsEntry("$other", 1)
        .doesNotContainKey("$id");
    assertThat(back.getRowKey()).isEqualTo("native");
  }

  @Test
  void emptyKeysAreAddressableThroughTheNativeApiAsEmptyPathSegments() throws Exception {
    TableClient table = azure.newTable("EmptyKeys");
    table.createEntity(new TableEntity("", "").addProperty("v", 1));
    String items = "/v1/tables/" + table.getTableName() + "/items/";

    HttpResponse<String> both = nativeCall("GET", items + "/", null);
    HttpResponse<String> put = nativeCall("PUT", items + "p/", "{\"v\": 2}");
    HttpResponse<String> partition = nativeCall("GET", items, null);

    assertThat(both.statusCode()).as(both.body()).isEqualTo(200);
    assertThat(JSON.readTree(both.body()).get("v").asInt()).isEqualTo(1);
    assertThat(put.statusCode()).as(put.body()).isBetween(200, 201);
    assertThat(table.getEntity("p", "").getProperty("v")).isEqualTo(2);
    assertThat(partition.statusCode()).as(partition.body()).isEqualTo(200);
    assertThat(JSON.readTree(partition.body()).get("items"))
        .extracting(i -> i.get("partitionKey").asText() + "/" + i.get("id").asText())
        .containsExactly("/");
  }
}
