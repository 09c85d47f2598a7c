package io.viewbase.server.azure.sdk;

import static io.viewbase.server.azure.sdk.SdkErrors.assertFails;
import static io.viewbase.server.azure.sdk.SdkErrors.assertUnmappedFails;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.http.HttpMethod;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableServiceCorsRule;
import com.azure.data.tables.models.TableServiceLogging;
import com.azure.data.tables.models.TableServiceMetrics;
import com.azure.data.tables.models.TableServiceProperties;
import com.azure.data.tables.models.TableServiceRetentionPolicy;
import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.server.azure.AzureOptions;
import io.viewbase.server.azure.AzureTablesServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Set/Get Table Service Properties through the SDK, and CORS from their rules: preflights (raw,
 * signed and not) and the Access-Control headers on the SDK's own requests. Each test sets the
 * rules it relies on (they are the server's, shared by the class's tests).
 */
class CorsSdkTest {
  @RegisterExtension static final AzureSdkServer azure = new AzureSdkServer();

  private static final String APP = "http://app.example";
  private static final HttpClient RAW = HttpClient.newHttpClient();

  private static TableServiceCorsRule appRule() {
    return new TableServiceCorsRule()
        .setAllowedOrigins(APP)
        .setAllowedMethods("GET,PUT,MERGE,DELETE")
        .setAllowedHeaders("x-ms-*,content-type,accept")
        .setExposedHeaders("x-ms-*,etag")
        .setMaxAgeInSeconds(300);
  }

  private static TableServiceProperties everything() {
    return new TableServiceProperties()
        .setLogging(
            new TableServiceLogging()
                .setAnalyticsVersion("1.0")
                .setDeleteLogged(true)
                .setReadLogged(false)
                .setWriteLogged(true)
                .setRetentionPolicy(
                    new TableServiceRetentionPolicy().setEnabled(true).setDaysToRetain(7)))
        .setHourMetrics(
            new TableServiceMetrics()
                .setVersion("1.0")
                .setEnabled(true)
                .setIncludeApis(true)
                .setRetentionPolicy(
                    new TableServiceRetentionPolicy().setEnabled(true).setDaysToRetain(30)))
        .setMinuteMetrics(
            new TableServiceMetrics()
                .setVersion("1.0")
                .setEnabled(false)
                .setRetentionPolicy(new TableServiceRetentionPolicy().setEnabled(false)))
        .setCorsRules(
            List.of(
                appRule(),
                new TableServiceCorsRule()
                    .setAllowedOrigins("*")
                    .setAllowedMethods("GET")
                    .setMaxAgeInSeconds(10)));
  }

  private static HttpResponse<String> preflight(
      String endpoint, String path, String origin, String method, String headers) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(endpoint + path))
            .method("OPTIONS", BodyPublishers.noBody());
    if (origin != null) {
      b.header("Origin", origin);
    }
    if (method != null) {
      b.header("Access-Control-Request-Method", method);
    }
    if (headers != null) {
      b.header("Access-Control-Request-Headers", headers);
    }
    return RAW.send(b.build(), BodyHandlers.ofString());
  }

  @Test
  void propertiesSetThroughTheSdkReadBackAsSet() {
    azure.service().setProperties(everything());

    TableServiceProperties read = azure.service().getProperties();

    assertThat(read.getLogging().isDeleteLogged()).isTrue();
    assertThat(read.getLogging().isReadLogged()).isFalse();
    assertThat(read.getLogging().isWriteLogged()).isTrue();
    assertThat(read.getLogging().getRetentionPolicy().getDaysToRetain()).isEqualTo(7);
    assertThat(read.getHourMetrics().isEnabled()).isTrue();
    assertThat(read.getHourMetrics().isIncludeApis()).isTrue();
    assertThat(read.getHourMetrics().getTableServiceRetentionPolicy().getDaysToRetain())
        .isEqualTo(30);
    assertThat(read.getMinuteMetrics().isEnabled()).isFalse();
    assertThat(read.getCorsRules()).hasSize(2);
    TableServiceCorsRule first = read.getCorsRules().get(0);
    assertThat(first.getAllowedOrigins()).isEqualTo(APP);
    assertThat(first.getAllowedMethods()).isEqualTo("GET,PUT,MERGE,DELETE");
    assertThat(first.getAllowedHeaders()).isEqualTo("x-ms-*,content-type,accept");
    assertThat(first.getExposedHeaders()).isEqualTo("x-ms-*,etag");
    assertThat(first.getMaxAgeInSeconds()).isEqualTo(300);
    assertThat(read.getCorsRules().get(1).getAllowedHeaders())
        .as("left out by the SDK: empty")
        .isNullOrEmpty();
  }

  @Test
  void partsASetLeavesOutKeepTheirStoredValues() {
    azure.service().setProperties(everything());

    azure.service().setProperties(new TableServiceProperties().setCorsRules(List.of(appRule())));
    TableServiceProperties afterCors = azure.service().getProperties();
    azure
        .service()
        .setProperties(
            new TableServiceProperties()
                .setLogging(
                    new TableServiceLogging()
                        .setAnalyticsVersion("1.0")
                        .setRetentionPolicy(new TableServiceRetentionPolicy().setEnabled(false))));
    TableServiceProperties afterLogging = azure.service().getProperties();

    assertThat(afterCors.getCorsRules()).hasSize(1);
    assertThat(afterCors.getLogging().isDeleteLogged()).isTrue();
    assertThat(afterCors.getHourMetrics().isEnabled()).isTrue();
    assertThat(afterLogging.getLogging().isDeleteLogged()).isFalse();
    assertThat(afterLogging.getCorsRules()).hasSize(1);
  }

  @Test
  void aRefusedSetLeavesThePropertiesUnchanged() {
    azure.service().setProperties(everything());
    List<TableServiceCorsRule> six = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      six.add(appRule());
    }

    assertUnmappedFails(
        400,
        "InvalidXmlDocument",
        () -> azure.service().setProperties(new TableServiceProperties().setCorsRules(six)));
    assertUnmappedFails(
        400,
        "InvalidXmlNodeValue",
        () ->
            azure
                .service()
                .setProperties(
                    new TableServiceProperties()
                        .setCorsRules(List.of(appRule().setAllowedMethods("GET,TRACE")))));
    assertUnmappedFails(
        400,
        "InvalidXmlNodeValue",
        () ->
            azure
                .service()
                .setProperties(
                    new TableServiceProperties()
                        .setLogging(
                            everything()
                                .getLogging()
                                .setRetentionPolicy(
                                    new TableServiceRetentionPolicy()
                                        .setEnabled(true)
                                        .setDaysToRetain(400)))));

    TableServiceProperties read = azure.service().getProperties();
    assertThat(read.getCorsRules()).hasSize(2);
    assertThat(read.getLogging().getRetentionPolicy().getDaysToRetain()).isEqualTo(7);
  }

  @Test
  void aPreflightIsAnsweredFromTheRulesSignedOrNot() throws Exception {
    azure.service().setProperties(new TableServiceProperties().setCorsRules(List.of(appRule())));
    String table = azure.newTable("Cors").getTableName();

    HttpResponse<String> unsigned =
        preflight(
            azure.endpoint(),
            "/" + table + "(PartitionKey='p',RowKey='r')",
            APP,
            "PUT",
            "x-ms-date,x-ms-version,content-type");
    com.azure.core.http.HttpResponse signed =
        new SignedHttp(azure)
            .send(
                HttpMethod.OPTIONS,
                "/Tables",
                null,
                "Origin",
                APP,
                "Access-Control-Request-Method",
                "DELETE");

    assertThat(unsigned.statusCode()).isEqualTo(200);
    assertThat(unsigned.headers().firstValue("Access-Control-Allow-Origin")).hasValue(APP);
    assertThat(unsigned.headers().firstValue("Access-Control-Allow-Methods")).hasValue("PUT");
    assertThat(unsigned.headers().firstValue("Access-Control-Allow-Headers"))
        .hasValue("x-ms-date,x-ms-version,content-type");
    assertThat(unsigned.headers().firstValue("Access-Control-Max-Age")).hasValue("300");
    assertThat(unsigned.headers().firstValue("Access-Control-Allow-Credentials")).hasValue("true");
    assertThat(signed.getStatusCode()).isEqualTo(200);
    assertThat(signed.getHeaderValue("Access-Control-Allow-Methods")).isEqualTo("DELETE");
  }

  @Test
  void aPreflightNoRuleAllowsIs403AndOneMissingItsHeadersIs400() throws Exception {
    azure.service().setProperties(new TableServiceProperties().setCorsRules(List.of(appRule())));

    HttpResponse<String> otherOrigin =
        preflight(azure.endpoint(), "/Tables", "http://evil.example", "GET", null);
    HttpResponse<String> otherMethod = preflight(azure.endpoint(), "/Tables", APP, "PATCH", null);
    HttpResponse<String> otherHeader =
        preflight(azure.endpoint(), "/Tables", APP, "GET", "authorization");
    HttpResponse<String> noMethod = preflight(azure.endpoint(), "/Tables", APP, null, null);
    azure.service().setProperties(new TableServiceProperties().setCorsRules(List.of()));
    HttpResponse<String> corsOff = preflight(azure.endpoint(), "/Tables", APP, "GET", null);

    for (HttpResponse<String> r : List.of(otherOrigin, otherMethod, otherHeader, corsOff)) {
      assertThat(r.statusCode()).isEqualTo(403);
      assertThat(r.headers().firstValue("x-ms-error-code")).hasValue("CorsPreflightFailure");
      assertThat(r.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
      assertThat(r.body()).contains("<Code>CorsPreflightFailure</Code>");
    }
    assertThat(noMethod.statusCode()).isEqualTo(400);
    assertThat(noMethod.headers().firstValue("x-ms-error-code")).hasValue("InvalidHeaderValue");
  }

  @Test
  void anSdkRequestFromAnAllowedOriginCarriesTheCorsHeadersErrorsToo() {
    azure.service().setProperties(new TableServiceProperties().setCorsRules(List.of(appRule())));
    TableClient created = azure.newTable("CorsRead");
    created.createEntity(new TableEntity("p", "r").addProperty("v", 1));
    WireTap tap = new WireTap().withRequestHeader("Origin", APP);
    TableClient fromApp = azure.tableClient(created.getTableName(), tap);

    fromApp.getEntity("p", "r");
    String origin = tap.header("Access-Control-Allow-Origin");
    String exposed = tap.header("Access-Control-Expose-Headers");
    String vary = tap.header("Vary");
    assertFails(404, "ResourceNotFound", () -> fromApp.getEntity("p", "missing"));

    assertThat(origin).isEqualTo(APP);
    assertThat(vary).isEqualTo("Origin");
    assertThat(exposed).contains("x-ms-request-id", "x-ms-version", "etag");
    assertThat(tap.header("Access-Control-Allow-Origin")).as("on the 404 too").isEqualTo(APP);
    assertThat(tap.header("Access-Control-Allow-Credentials")).isEqualTo("true");
  }

  @Test
  void anSdkRequestWithoutAnOriginGetsNoCorsHeadersButVary() {
    azure.service().setProperties(new TableServiceProperties().setCorsRules(List.of(appRule())));
    WireTap tap = new WireTap();
    TableClient plain = azure.tableClient(azure.newTable("CorsPlain").getTableName(), tap);

    plain.listEntities().stream().toList();

    assertThat(tap.header("Access-Control-Allow-Origin")).isNull();
    assertThat(tap.header("Vary")).isEqualTo("Origin");
  }

  @Test
  void propertiesAndRulesSurviveAServerRestartOnTheSameData(@TempDir Path dir) throws Exception {
    OpenOptions options = AzureSdkServer.openOptions(dir);
    try (Database db = Viewbase.open(options);
        AzureTablesServer server =
            AzureTablesServer.start(db, AzureOptions.defaults().withPort(0))) {
      client(server.port()).setProperties(everything());
    }

    try (Database db = Viewbase.open(options);
        AzureTablesServer server =
            AzureTablesServer.start(db, AzureOptions.defaults().withPort(0))) {
      TableServiceProperties read = client(server.port()).getProperties();
      HttpResponse<String> allowed =
          preflight(
              "http://127.0.0.1:" + server.port() + "/" + AzureSdkServer.ACCOUNT,
              "/Tables",
              APP,
              "MERGE",
              "x-ms-version");

      assertThat(read.getCorsRules())
          .extracting(TableServiceCorsRule::getAllowedOrigins)
          .containsExactly(APP, "*");
      assertThat(read.getLogging().getRetentionPolicy().getDaysToRetain()).isEqualTo(7);
      assertThat(allowed.statusCode()).isEqualTo(200);
    }
  }

  private static TableServiceClient client(int port) {
    return new TableServiceClientBuilder()
        .connectionString(
            "DefaultEndpointsProtocol=http;AccountName="
                + AzureSdkServer.ACCOUNT
                + ";AccountKey="
                + AzureSdkServer.KEY
                + ";TableEndpoint=http://127.0.0.1:"
                + port
                + "/"
                + AzureSdkServer.ACCOUNT
                + ";")
        .retryOptions(AzureSdkServer.noRetries())
        .httpClient(AzureSdkServer.HTTP)
        .buildClient();
  }
}
