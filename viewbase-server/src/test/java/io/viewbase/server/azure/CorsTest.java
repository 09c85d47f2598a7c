package io.viewbase.server.azure;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * CORS from the service properties' rules, without a socket: preflights and the headers of other
 * answers.
 */
class CorsTest {
  private static final String APP = "http://app.example";

  private Database db;
  private AzureApi api;

  @BeforeEach
  void open() {
    db = Viewbase.open(OpenOptions.inMemory());
    api = new AzureApi(db, AzureOptions.defaults());
    db.createTable("People");
  }

  @AfterEach
  void close() {
    db.close();
  }

  private void rules(String... rules) {
    AzureResponse r =
        api.handle(
            SignedRequests.of("PUT", "/?restype=service&comp=properties")
                .body(
                    "<StorageServiceProperties><Cors>"
                        + String.join("", rules)
                        + "</Cors></StorageServiceProperties>")
                .build());
    assertThat(r.status()).as(r.bodyText()).isEqualTo(202);
  }

  private static String rule(
      String origins, String methods, String allowedHeaders, String exposedHeaders, int maxAge) {
    return "<CorsRule><AllowedOrigins>"
        + origins
        + "</AllowedOrigins><AllowedMethods>"
        + methods
        + "</AllowedMethods><AllowedHeaders>"
        + allowedHeaders
        + "</AllowedHeaders><ExposedHeaders>"
        + exposedHeaders
        + "</ExposedHeaders><MaxAgeInSeconds>"
        + maxAge
        + "</MaxAgeInSeconds></CorsRule>";
  }

  private AzureResponse preflight(String path, String origin, String method, String headers) {
    SignedRequests r = SignedRequests.of("OPTIONS", path).unsigned();
    if (origin != null) {
      r.header("origin", origin);
    }
    if (method != null) {
      r.header("access-control-request-method", method);
    }
    if (headers != null) {
      r.header("access-control-request-headers", headers);
    }
    return api.handle(r.build());
  }

  @Test
  void aPreflightMatchingARuleAnswers200WithTheAllowHeaders() {
    rules(rule(APP, "GET,PUT,MERGE", "x-ms-*,content-type", "", 300));

    AzureResponse r =
        preflight("/People(PartitionKey='p',RowKey='r')", APP, "PUT", "x-ms-date,Content-Type");

    assertThat(r.status()).isEqualTo(200);
    assertThat(r.body()).isEmpty();
    assertThat(r.header("Access-Control-Allow-Origin")).isEqualTo(APP);
    assertThat(r.header("Access-Control-Allow-Methods")).isEqualTo("PUT");
    assertThat(r.header("Access-Control-Allow-Headers")).isEqualTo("x-ms-date,Content-Type");
    assertThat(r.header("Access-Control-Max-Age")).isEqualTo("300");
    assertThat(r.header("Access-Control-Allow-Credentials")).isEqualTo("true");
    assertThat(r.header("x-ms-request-id")).isNotNull();
  }

  @Test
  void aPreflightIsAnsweredOnAnyPathWhetherOrNotItExistsOrParses() {
    rules(rule("*", "GET", "", "", 5));

    for (String path :
        new String[] {
          "/Tables", "/Nowhere()", "/?restype=service&comp=properties", "/$batch", "/x(("
        }) {
      assertThat(preflight(path, APP, "GET", null).status()).as(path).isEqualTo(200);
    }
  }

  @Test
  void aPreflightWithoutOriginOrRequestMethodIs400() {
    rules(rule("*", "GET", "*", "", 5));

    for (AzureResponse r :
        new AzureResponse[] {
          preflight("/Tables", null, "GET", null), preflight("/Tables", APP, null, null)
        }) {
      assertThat(r.status()).isEqualTo(400);
      assertThat(r.header("x-ms-error-code")).isEqualTo("InvalidHeaderValue");
      assertThat(r.contentType()).isEqualTo("application/xml");
    }
  }

  @Test
  void aPreflightNoRuleMatchesIs403CorsPreflightFailure() {
    AzureResponse off = preflight("/Tables", APP, "GET", null);
    rules(rule(APP, "GET", "", "", 5));

    assertThat(off.status()).as("no rules").isEqualTo(403);
    assertThat(off.header("x-ms-error-code")).isEqualTo("CorsPreflightFailure");
    assertThat(off.bodyText())
        .contains("CORS not enabled or no matching rule found for this request.");
    assertThat(preflight("/Tables", "http://other.example", "GET", null).status()).isEqualTo(403);
    assertThat(preflight("/Tables", APP, "DELETE", null).status()).isEqualTo(403);
    assertThat(preflight("/Tables", APP, "GET", "x-ms-date").status())
        .as("no headers allowed")
        .isEqualTo(403);
    assertThat(preflight("/Tables", "HTTP://APP.EXAMPLE", "GET", null).status())
        .as("origins are case-sensitive")
        .isEqualTo(403);
    assertThat(preflight("/Tables", APP, "GET", null).status()).isEqualTo(200);
  }

  @Test
  void theFirstRuleMatchingOriginAndMethodDecidesEvenIfALaterOneAllowsTheHeaders() {
    // Azure's example: the second rule matches origin and method, refuses the header; the third is
    // never tried
    rules(
        rule("http://www.contoso.com", "PUT", "x-ms-meta-*", "", 5),
        rule("*", "PUT,GET", "x-ms-meta-target", "", 5),
        rule("*", "GET", "*", "", 5));

    assertThat(preflight("/Tables", "http://www.contoso.com", "PUT", "x-ms-meta-anything").status())
        .isEqualTo(200);
    assertThat(preflight("/Tables", "http://www.fabrikam.com", "PUT", "x-ms-meta-target").status())
        .isEqualTo(200);
    assertThat(
            preflight("/Tables", "http://www.fabrikam.com", "GET", "x-ms-client-request-id")
                .status())
        .isEqualTo(403);
  }

  @Test
  void headerNamesMatchIgnoringCaseLiterallyByPrefixOrAll() {
    rules(rule(APP, "GET", "X-Ms-Meta*,Accept", "", 5), rule(APP, "PUT", "*", "", 5));

    assertThat(preflight("/Tables", APP, "GET", "x-ms-meta-one, ACCEPT").status()).isEqualTo(200);
    assertThat(preflight("/Tables", APP, "GET", "x-ms-met").status()).isEqualTo(403);
    assertThat(preflight("/Tables", APP, "PUT", "anything,at-all").status()).isEqualTo(200);
  }

  @Test
  void aMatchingOriginGetsAllowOriginCredentialsExposeAndVaryOnEveryAnswerErrorsToo() {
    rules(rule(APP, "GET,PUT", "*", "x-ms-request-id,content-type,x-ms-custom", 5));

    AzureResponse tables =
        api.handle(SignedRequests.of("GET", "/Tables").header("origin", APP).build());
    AzureResponse missing =
        api.handle(
            SignedRequests.of("GET", "/People(PartitionKey='p',RowKey='none')")
                .header("origin", APP)
                .build());
    AzureResponse put =
        api.handle(
            SignedRequests.of("PUT", "/People(PartitionKey='p',RowKey='r')")
                .header("origin", APP)
                .body("{}")
                .build());

    assertThat(tables.status()).isEqualTo(200);
    assertThat(missing.status()).isEqualTo(404);
    for (AzureResponse r : new AzureResponse[] {tables, missing, put}) {
      assertThat(r.header("Access-Control-Allow-Origin")).isEqualTo(APP);
      assertThat(r.header("Access-Control-Allow-Credentials")).isEqualTo("true");
      assertThat(r.header("Access-Control-Expose-Headers"))
          .isEqualTo("x-ms-request-id,content-type,x-ms-custom");
    }
    assertThat(tables.header("Vary")).isEqualTo("Origin");
    assertThat(missing.header("Vary")).isEqualTo("Origin");
    assertThat(put.status()).isEqualTo(204);
    assertThat(put.header("Vary")).as("Azure sets Vary on GET and HEAD only").isNull();
  }

  @Test
  void aRuleForAllOriginsGivesAStarAndNoVaryEvenWithoutAnOrigin() {
    rules(rule("*", "GET", "", "x-ms-*", 5));

    AzureResponse withOrigin =
        api.handle(SignedRequests.of("GET", "/Tables").header("origin", APP).build());
    AzureResponse without = api.handle(SignedRequests.of("GET", "/Tables").build());

    for (AzureResponse r : new AzureResponse[] {withOrigin, without}) {
      assertThat(r.header("Access-Control-Allow-Origin")).isEqualTo("*");
      assertThat(r.header("Access-Control-Allow-Credentials")).isNull();
      assertThat(r.header("Vary")).isNull();
      assertThat(r.header("Access-Control-Expose-Headers"))
          .isEqualTo("x-ms-request-id,x-ms-version");
    }
  }

  @Test
  void noMatchingRuleGivesOnlyVaryAndNoRulesNothing() {
    AzureResponse before =
        api.handle(SignedRequests.of("GET", "/Tables").header("origin", APP).build());
    rules(rule("http://other.example", "GET", "", "", 5));

    AzureResponse after =
        api.handle(SignedRequests.of("GET", "/Tables").header("origin", APP).build());
    AzureResponse sdk = api.handle(SignedRequests.of("GET", "/Tables").build());

    assertThat(before.headers())
        .noneSatisfy(h -> assertThat(h).startsWithIgnoringCase("access-control"))
        .doesNotContain("Vary");
    assertThat(after.header("Access-Control-Allow-Origin")).isNull();
    assertThat(after.header("Vary")).isEqualTo("Origin");
    assertThat(sdk.header("Access-Control-Allow-Origin")).isNull();
    assertThat(sdk.header("Vary")).isEqualTo("Origin");
  }

  @Test
  void anotherDialectOverTheSameDatabaseReadsTheStoredRulesOnStart() {
    rules(rule(APP, "GET", "", "", 5));

    AzureApi restarted = new AzureApi(db, AzureOptions.defaults());

    assertThat(
            restarted
                .handle(
                    SignedRequests.of("OPTIONS", "/Tables")
                        .unsigned()
                        .header("origin", APP)
                        .header("access-control-request-method", "GET")
                        .build())
                .status())
        .isEqualTo(200);
  }
}
