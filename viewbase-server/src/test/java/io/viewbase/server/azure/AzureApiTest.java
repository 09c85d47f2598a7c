package io.viewbase.server.azure;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Value;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.Viewbase;
import io.viewbase.server.ViewBuilds;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The dialect's translation without a socket: requests in, Database calls, responses out. */
class AzureApiTest {
  private Database db;
  private AzureApi api;

  @BeforeEach
  void open() {
    db = Viewbase.open(OpenOptions.inMemory());
    api = new AzureApi(db, AzureOptions.defaults());
  }

  @AfterEach
  void close() {
    db.close();
  }

  private AzureResponse send(SignedRequests request) {
    return api.handle(request.build());
  }

  @Test
  void insertThenGetRoundTripsTypesAndTiesTheEtagToTheTimestamp() {
    db.createTable("People");
    AzureResponse inserted =
        send(
            SignedRequests.of("POST", "/People")
                .body(
                    "{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"n\":1,\"big@odata.type\":\"Edm.Int64\",\"big\":\"9\",\"d\":2.0}"));

    assertThat(inserted.status()).isEqualTo(201);
    AzureResponse read = send(SignedRequests.of("GET", "/People(PartitionKey='p',RowKey='r')"));

    assertThat(read.status()).isEqualTo(200);
    assertThat(read.header("ETag")).isEqualTo(inserted.header("ETag"));
    String timestamp = read.bodyText().replaceAll(".*\"Timestamp\":\"([^\"]+)\".*", "$1");
    assertThat(read.header("ETag"))
        .isEqualTo("W/\"datetime'" + timestamp.replace(":", "%3A") + "'\"");
    assertThat(read.bodyText())
        .contains(
            "\"n\":1",
            "\"big@odata.type\":\"Edm.Int64\",\"big\":\"9\"",
            "\"d\":2.0",
            "\"odata.metadata\":\"http://127.0.0.1:10002/devstoreaccount1/$metadata#People/@Element\"");
    assertThat(db.table("People").get("p", "r").orElseThrow().properties())
        .containsEntry("big", new Value.Int64(9))
        .containsEntry("d", new Value.Double(2.0));
  }

  @Test
  void insertWithReturnNoContentAnswers204WithPreferenceApplied() {
    db.createTable("People");

    AzureResponse r =
        send(
            SignedRequests.of("POST", "/People")
                .header("Prefer", "return-no-content")
                .body("{\"PartitionKey\":\"p\",\"RowKey\":\"r\"}"));

    assertThat(r.status()).isEqualTo(204);
    assertThat(r.header("Preference-Applied")).isEqualTo("return-no-content");
    assertThat(r.body()).isEmpty();
  }

  @Test
  void everyAnswerCarriesRequestIdVersionDateAndTheClientIdVerbatim() {
    AzureResponse r =
        send(SignedRequests.of("GET", "/Tables").header("x-ms-client-request-id", "a b;c=d"));

    assertThat(r.header("x-ms-client-request-id")).isEqualTo("a b;c=d");
    assertThat(r.header("x-ms-request-id"))
        .matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    assertThat(r.header("x-ms-version")).isEqualTo("2019-02-02");
    // HTTP's fixed-length date (HttpDate), as Azure and the DynamoDB dialect send it: two-digit
    // days
    assertThat(r.header("Date"))
        .matches("[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT");
  }

  @Test
  void missingEntityAnswersResourceNotFoundAndMissingTableTableNotFound() {
    db.createTable("People");

    AzureResponse noEntity =
        send(SignedRequests.of("GET", "/People(PartitionKey='p',RowKey='nobody')"));
    AzureResponse noTable =
        send(
            SignedRequests.of("POST", "/Nowhere")
                .body("{\"PartitionKey\":\"p\",\"RowKey\":\"r\"}"));

    assertThat(noEntity.status()).isEqualTo(404);
    assertThat(noEntity.header("x-ms-error-code")).isEqualTo("ResourceNotFound");
    assertThat(noEntity.bodyText())
        .startsWith(
            "{\"odata.error\":{\"code\":\"ResourceNotFound\",\"message\":"
                + "{\"lang\":\"en-US\",\"value\":\"The specified resource does not exist.\\nRequestId:");
    assertThat(noTable.status()).isEqualTo(404);
    assertThat(noTable.header("x-ms-error-code")).isEqualTo("TableNotFound");
  }

  @Test
  void updateWithAStaleEtagIsUpdateConditionNotSatisfiedAndChangesNothing() {
    db.createTable("People");
    Item first = db.table("People").insert(Item.builder("p", "r").put("v", 1).build());
    db.table("People").upsert(Item.builder("p", "r").put("v", 2).build());

    AzureResponse r =
        send(
            SignedRequests.of("PUT", "/People(PartitionKey='p',RowKey='r')")
                .header("If-Match", first.etag())
                .body("{\"v\":3}"));

    assertThat(r.status()).isEqualTo(412);
    assertThat(r.header("x-ms-error-code")).isEqualTo("UpdateConditionNotSatisfied");
    assertThat(db.table("People").get("p", "r").orElseThrow().get("v")).contains(Value.of(2));
  }

  @Test
  void mergeThroughPostWithXHttpMethodKeepsOtherProperties() {
    db.createTable("People");
    db.table("People").insert(Item.builder("p", "r").put("a", 1).put("b", 2).build());

    AzureResponse r =
        send(
            SignedRequests.of("POST", "/People(PartitionKey='p',RowKey='r')")
                .header("X-HTTP-Method", "MERGE")
                .header("If-Match", "*")
                .body("{\"a\":10}"));

    assertThat(r.status()).isEqualTo(204);
    assertThat(db.table("People").get("p", "r").orElseThrow().properties())
        .containsEntry("a", Value.of(10))
        .containsEntry("b", Value.of(2));
  }

  @Test
  void ifMatchThatIsNotAnEtagIsInvalidInput() {
    db.createTable("People");
    db.table("People").insert(Item.builder("p", "r").build());

    AzureResponse r =
        send(
            SignedRequests.of("DELETE", "/People(PartitionKey='p',RowKey='r')")
                .header("If-Match", "yesterday"));

    assertThat(r.status()).isEqualTo(400);
    assertThat(r.header("x-ms-error-code")).isEqualTo("InvalidInput");
    assertThat(db.table("People").get("p", "r")).isPresent();
  }

  @Test
  void keysWithCharactersAzureForbidsAreRefusedOnWrite() {
    db.createTable("People");

    AzureResponse r =
        send(
            SignedRequests.of("POST", "/People")
                .body("{\"PartitionKey\":\"a/b\",\"RowKey\":\"r\"}"));

    assertThat(r.status()).isEqualTo(400);
    assertThat(r.bodyText()).contains("U+002F");
  }

  @Test
  void queryPagesCarryTheContinuationInNextPartitionKeyAndResumeFromIt() {
    db.createTable("People");
    for (int i = 0; i < 5; i++) {
      db.table("People").insert(Item.builder("p", "r" + i).put("i", i).build());
    }

    AzureResponse first = send(SignedRequests.of("GET", "/People()?$top=3"));
    String token = first.header(EntityEndpoints.NEXT_PARTITION_KEY);
    AzureResponse second =
        send(SignedRequests.of("GET", "/People()?$top=3&NextPartitionKey=" + token));

    assertThat(first.bodyText())
        .contains("\"RowKey\":\"r0\"", "\"RowKey\":\"r2\"")
        .doesNotContain("\"r3\"");
    assertThat(token).isNotNull().doesNotContain(";");
    assertThat(second.bodyText())
        .contains("\"RowKey\":\"r3\"", "\"RowKey\":\"r4\"")
        .doesNotContain("\"r2\"");
    assertThat(second.header(EntityEndpoints.NEXT_PARTITION_KEY)).isNull();
  }

  @Test
  void queryTablesFiltersOnTableNameAndPagesWithNextTableName() {
    for (String name : List.of("Alpha", "Beta", "Gamma", "Delta")) {
      db.createTable(name);
    }

    AzureResponse page =
        send(SignedRequests.of("GET", "/Tables?$top=2&$filter=TableName%20ne%20'Beta'"));
    AzureResponse rest =
        send(
            SignedRequests.of(
                "GET",
                "/Tables?$top=2&$filter=TableName%20ne%20'Beta'&NextTableName="
                    + page.header(TableEndpoints.NEXT_TABLE_NAME)));

    assertThat(page.bodyText())
        .isEqualTo(
            "{\"odata.metadata\":\"http://127.0.0.1:10002/devstoreaccount1/$metadata#Tables\","
                + "\"value\":[{\"TableName\":\"Alpha\"},{\"TableName\":\"Delta\"}]}");
    assertThat(page.header(TableEndpoints.NEXT_TABLE_NAME)).isEqualTo("Gamma");
    assertThat(rest.bodyText()).contains("Gamma").doesNotContain("Alpha");
    assertThat(rest.header(TableEndpoints.NEXT_TABLE_NAME)).isNull();
  }

  @Test
  void fullMetadataAddsTypeIdEditLinkAndTimestampAnnotation() {
    db.createTable("People");
    db.table("People").insert(Item.builder("o'k", "r").build());

    AzureResponse r =
        send(
            SignedRequests.of(
                "GET",
                "/People(PartitionKey='o''k',RowKey='r')?$format=application/json;odata=fullmetadata"));

    assertThat(r.contentType()).startsWith("application/json;odata=fullmetadata");
    assertThat(r.bodyText())
        .contains(
            "\"odata.type\":\"devstoreaccount1.People\"",
            "\"odata.id\":\"http://127.0.0.1:10002/devstoreaccount1/People(PartitionKey='o''k',RowKey='r')\"",
            "\"odata.editLink\":\"People(PartitionKey='o''k',RowKey='r')\"",
            "\"Timestamp@odata.type\":\"Edm.DateTime\"");
  }

  @Test
  void aViewIsListedReadableAndRefusesWritesNamingItself() {
    db.createTable("People");
    db.table("People").insert(Item.builder("acme", "ann").put("email", "ann@x.org").build());
    db.createView(ViewDefinition.of("PeopleByEmail", "People", "all", "{email}"));
    awaitReady("PeopleByEmail");

    AzureResponse tables = send(SignedRequests.of("GET", "/Tables"));
    AzureResponse read =
        send(SignedRequests.of("GET", "/PeopleByEmail(PartitionKey='all',RowKey='ann%40x.org')"));
    AzureResponse write =
        send(
            SignedRequests.of("POST", "/PeopleByEmail")
                .body("{\"PartitionKey\":\"all\",\"RowKey\":\"bob@x.org\"}"));
    AzureResponse drop = send(SignedRequests.of("DELETE", "/Tables('PeopleByEmail')"));

    assertThat(tables.bodyText()).contains("\"PeopleByEmail\"", "\"People\"");
    assertThat(read.status()).isEqualTo(200);
    assertThat(write.status()).isEqualTo(409);
    assertThat(write.bodyText()).contains("PeopleByEmail", "view");
    assertThat(drop.status()).isEqualTo(409);
    assertThat(db.listTables()).extracting(t -> t.name()).contains("PeopleByEmail");
  }

  @Test
  void historyAndPartitionsViewsReadAsReadOnlyTables() {
    db.createTable("People");
    db.createView(ViewDefinition.history("PeopleHistory", "People"));
    db.createView(ViewDefinition.partitions("PeopleCounts", "People"));
    awaitReady("PeopleHistory");
    awaitReady("PeopleCounts");
    db.table("People").insert(Item.builder("acme", "ann").put("email", "ann@x.org").build());
    db.table("People").delete("acme", "ann", null);
    db.table("People").insert(Item.builder("acme", "bo").build());

    AzureResponse history =
        send(SignedRequests.of("GET", "/PeopleHistory()?$filter=PartitionKey%20eq%20'acme%23ann'"));
    AzureResponse count =
        send(SignedRequests.of("GET", "/PeopleCounts(PartitionKey='all',RowKey='acme')"));
    AzureResponse write =
        send(
            SignedRequests.of("POST", "/PeopleCounts")
                .body("{\"PartitionKey\":\"all\",\"RowKey\":\"x\"}"));

    assertThat(history.status()).as(history.bodyText()).isEqualTo(200);
    assertThat(history.bodyText())
        .contains("\"_operation\":\"insert\"", "\"_operation\":\"delete\"", "\"_deleted\":true")
        .contains("ann@x.org");
    assertThat(count.status()).as(count.bodyText()).isEqualTo(200);
    assertThat(count.bodyText()).contains("\"count\"").contains("\"RowKey\":\"acme\"");
    assertThat(write.status()).isEqualTo(409);
  }

  private void awaitReady(String view) {
    ViewBuilds.awaitReady(db, view);
  }

  @Test
  void aclRoundTripsAsXmlAndIsKeptAsATableSettingNotATable() {
    db.createTable("People");
    String xml =
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><SignedIdentifiers><SignedIdentifier><Id>ro</Id>"
            + "<AccessPolicy><Start>2026-01-01T00:00:00Z</Start><Expiry>2036-01-01T00:00:00Z</Expiry>"
            + "<Permission>r</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>";

    AzureResponse set =
        send(
            SignedRequests.of("PUT", "/People?comp=acl")
                .body(xml)
                .header("content-type", "application/xml"));
    AzureResponse get = send(SignedRequests.of("GET", "/People?comp=acl"));
    AzureResponse tables = send(SignedRequests.of("GET", "/Tables"));

    assertThat(set.status()).isEqualTo(204);
    assertThat(get.bodyText())
        .contains(
            "<Id>ro</Id>",
            "<Start>2026-01-01T00:00:00.0000000Z</Start>",
            "<Permission>r</Permission>");
    assertThat(tables.bodyText())
        .isEqualTo(
            "{\"odata.metadata\":\"http://127.0.0.1:10002/devstoreaccount1/$metadata"
                + "#Tables\",\"value\":[{\"TableName\":\"People\"}]}");
    assertThat(db.listTables()).extracting(t -> t.name()).containsExactly("People");
    assertThat(db.setting("People", AclStore.SETTING))
        .hasValueSatisfying(v -> assertThat(v).contains("<Id>ro</Id>"));
  }

  @Test
  void aclOfAMissingTableAnswersAnXmlError() {
    AzureResponse r = send(SignedRequests.of("GET", "/Nowhere?comp=acl"));

    assertThat(r.status()).isEqualTo(404);
    assertThat(r.contentType()).isEqualTo("application/xml");
    assertThat(r.bodyText()).contains("<Code>TableNotFound</Code>");
  }

  @Test
  void aCorsPreflightIsAnsweredWithoutAuthenticationAlikeSignedUnsignedAndInAnonymousMode() {
    AzureRequest unsigned =
        SignedRequests.of("OPTIONS", "/Tables")
            .header("origin", "http://localhost:3000")
            .header("access-control-request-method", "GET")
            .unsigned()
            .build();
    AzureRequest signed =
        SignedRequests.of("OPTIONS", "/Tables")
            .header("origin", "http://localhost:3000")
            .header("access-control-request-method", "GET")
            .build();
    AzureApi anonymous = new AzureApi(db, AzureOptions.defaults().withAnonymousAccess(true));

    for (AzureResponse r :
        List.of(api.handle(unsigned), api.handle(signed), anonymous.handle(unsigned))) {
      // no CORS rules are set: Azure's refusal, in XML
      assertThat(r.status()).isEqualTo(403);
      assertThat(r.header("x-ms-error-code")).isEqualTo("CorsPreflightFailure");
      assertThat(r.contentType()).isEqualTo("application/xml");
      assertThat(r.header("x-ms-request-id")).isNotNull();
    }
  }

  @Test
  void singleEntityWritesAndOnlyThoseAreServedAsynchronously() {
    assertThat(AzureApi.isEntityWrite(SignedRequests.of("POST", "/People").build())).isTrue();
    assertThat(
            AzureApi.isEntityWrite(
                SignedRequests.of("PUT", "/People(PartitionKey='p',RowKey='r')").build()))
        .isTrue();
    assertThat(
            AzureApi.isEntityWrite(
                SignedRequests.of("MERGE", "/People(PartitionKey='p',RowKey='r')").build()))
        .isTrue();
    assertThat(
            AzureApi.isEntityWrite(
                SignedRequests.of("PATCH", "/People(PartitionKey='p',RowKey='r')").build()))
        .isTrue();
    assertThat(
            AzureApi.isEntityWrite(
                SignedRequests.of("DELETE", "/People(PartitionKey='p',RowKey='r')").build()))
        .isTrue();
    assertThat(
            AzureApi.isEntityWrite(
                SignedRequests.of("POST", "/People(PartitionKey='p',RowKey='r')")
                    .header("X-HTTP-Method", "MERGE")
                    .build()))
        .isTrue();

    assertThat(AzureApi.isEntityWrite(SignedRequests.of("POST", "/Tables").build()))
        .as("create table")
        .isFalse();
    assertThat(AzureApi.isEntityWrite(SignedRequests.of("DELETE", "/Tables('People')").build()))
        .isFalse();
    assertThat(AzureApi.isEntityWrite(SignedRequests.of("POST", "/$batch").build())).isFalse();
    assertThat(AzureApi.isEntityWrite(SignedRequests.of("PUT", "/People?comp=acl").build()))
        .isFalse();
    assertThat(
            AzureApi.isEntityWrite(
                SignedRequests.of("GET", "/People(PartitionKey='p',RowKey='r')").build()))
        .isFalse();
    assertThat(AzureApi.isEntityWrite(SignedRequests.of("GET", "/People()").build())).isFalse();
  }

  @Test
  void handleAsyncAnswersAWriteWhenItIsDoneAndItsErrorsAsAnswers() {
    db.createTable("People");

    AzureResponse created =
        api.handleAsync(
                SignedRequests.of("POST", "/People")
                    .body("{\"PartitionKey\":\"p\",\"RowKey\":\"r\"}")
                    .build())
            .join();
    AzureResponse again =
        api.handleAsync(
                SignedRequests.of("POST", "/People")
                    .body("{\"PartitionKey\":\"p\",\"RowKey\":\"r\"}")
                    .build())
            .join();
    AzureResponse stale =
        api.handleAsync(
                SignedRequests.of("PUT", "/People(PartitionKey='p',RowKey='r')")
                    .header("If-Match", "W/\"datetime'2020-01-01T00%3A00%3A00.0000000Z'\"")
                    .body("{}")
                    .build())
            .join();
    AzureResponse noTable =
        api.handleAsync(
                SignedRequests.of("DELETE", "/Nobody(PartitionKey='p',RowKey='r')")
                    .header("If-Match", "*")
                    .build())
            .join();

    assertThat(created.status()).isEqualTo(201);
    assertThat(created.header("x-ms-request-id")).isNotBlank();
    assertThat(again.status()).isEqualTo(409);
    assertThat(again.header("x-ms-error-code")).isEqualTo("EntityAlreadyExists");
    assertThat(stale.status()).isEqualTo(412);
    assertThat(noTable.status()).isEqualTo(404);
    assertThat(noTable.header("x-ms-error-code")).isEqualTo("TableNotFound");
    assertThat(db.table("People").get("p", "r").orElseThrow().etag())
        .isEqualTo(created.header("ETag"));
  }
}
