package io.viewbase.server.azure.sdk;

import static io.viewbase.server.azure.sdk.SdkErrors.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.http.rest.Response;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Insert, read, update, merge, upsert and delete single entities through the official Java SDK. */
class EntitiesSdkTest {
  @RegisterExtension static final AzureSdkServer azure = new AzureSdkServer();

  /**
   * The entity's own properties: without the keys, Timestamp and the {@code odata.*} and annotation
   * entries the SDK keeps from full-metadata answers (it asks for full metadata on reads).
   */
  private static Map<String, Object> custom(TableEntity entity) {
    Map<String, Object> properties = new TreeMap<>(entity.getProperties());
    properties
        .keySet()
        .removeIf(
            name ->
                name.equals("PartitionKey")
                    || name.equals("RowKey")
                    || name.equals("Timestamp")
                    || name.startsWith("odata.")
                    || name.contains("@odata."));
    return properties;
  }

  @Test
  void createEntityWithoutReturnedContentAnswers204AndStoresTheEntity() {
    WireTap tap = new WireTap();
    TableClient table = azure.tableClient(azure.newTable("Insert").getTableName(), tap);

    Response<Void> response =
        table.createEntityWithResponse(
            new TableEntity("p", "r").addProperty("name", "Ann").addProperty("age", 34),
            null,
            null);

    assertThat(response.getStatusCode()).isEqualTo(204);
    assertThat(tap.body()).isEmpty();
    assertThat(tap.header("ETag")).startsWith("W/\"datetime'");
    TableEntity stored = table.getEntity("p", "r");
    assertThat(custom(stored))
        .containsExactlyEntriesOf(new TreeMap<>(Map.of("age", 34, "name", "Ann")));
  }

  @Test
  void createEntityWithPreferReturnContentAnswers201WithTheStoredEntity() {
    String name = azure.newTable("InsertBack").getTableName();
    WireTap tap = new WireTap().withRequestHeader("Prefer", "return-content");
    TableClient table = azure.tableClient(name, tap);

    Response<Void> response =
        table.createEntityWithResponse(
            new TableEntity("p", "r").addProperty("name", "Ann").addProperty("big", 5_000_000_000L),
            null,
            null);

    assertThat(response.getStatusCode()).isEqualTo(201);
    assertThat(tap.header("Preference-Applied")).isEqualTo("return-content");
    assertThat(tap.body())
        .contains(
            "\"PartitionKey\":\"p\"",
            "\"RowKey\":\"r\"",
            "\"name\":\"Ann\"",
            "\"big@odata.type\":\"Edm.Int64\"",
            "\"big\":\"5000000000\"",
            "\"Timestamp\"",
            "\"odata.etag\"");
    assertThat(tap.body()).contains("\"odata.etag\":" + json(table.getEntity("p", "r").getETag()));
  }

  @Test
  void etagHeaderOnTheWireIsTheEntitysOdataEtag() {
    // Raw requests: the SDK's TableScrubEtagPolicy strips the ETag header's closing quote before
    // its
    // other policies see the answer.
    String name = azure.newTable("WireEtag").getTableName();
    SignedHttp http = new SignedHttp(azure);

    com.azure.core.http.HttpResponse inserted =
        http.send(
            com.azure.core.http.HttpMethod.POST,
            "/" + name,
            "{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"v\":1}",
            "Prefer",
            "return-content");
    com.azure.core.http.HttpResponse read =
        http.send(
            com.azure.core.http.HttpMethod.GET, "/" + name + "(PartitionKey='p',RowKey='r')", null);

    assertThat(inserted.getStatusCode()).isEqualTo(201);
    String etag = inserted.getHeaderValue("ETag");
    assertThat(etag)
        .matches("W/\"datetime'\\d{4}-\\d\\d-\\d\\dT\\d\\d%3A\\d\\d%3A\\d\\d\\.\\d{7}Z'\"");
    assertThat(SignedHttp.body(inserted)).contains("\"odata.etag\":" + json(etag));
    assertThat(read.getStatusCode()).isEqualTo(200);
    assertThat(read.getHeaderValue("ETag")).isEqualTo(etag);
    assertThat(SignedHttp.body(read)).contains("\"odata.etag\":" + json(etag));
    assertThat(table(name).getEntity("p", "r").getETag()).isEqualTo(etag);
  }

  @Test
  void deleteWithoutIfMatchIsUnconditional() {
    // The SDKs always send If-Match; a raw client may not (Azurite answers such a delete with 412).
    String name = azure.newTable("DelNoMatch").getTableName();
    table(name).createEntity(new TableEntity("p", "r"));

    com.azure.core.http.HttpResponse deleted =
        new SignedHttp(azure)
            .send(
                com.azure.core.http.HttpMethod.DELETE,
                "/" + name + "(PartitionKey='p',RowKey='r')",
                null);

    assertThat(deleted.getStatusCode()).isEqualTo(204);
    assertFails(404, "ResourceNotFound", () -> table(name).getEntity("p", "r"));
  }

  @Test
  void aBodyNamingOtherKeysThanTheUrlIsRefusedWithInvalidInputAndStoresNothing() {
    // The SDKs always send the keys they address; a raw client may not agree with itself.
    String name = azure.newTable("KeysDiffer").getTableName();
    table(name).createEntity(new TableEntity("p", "r").addProperty("v", 1));
    SignedHttp http = new SignedHttp(azure);

    com.azure.core.http.HttpResponse put =
        http.send(
            com.azure.core.http.HttpMethod.PUT,
            "/" + name + "(PartitionKey='p',RowKey='r')",
            "{\"PartitionKey\":\"other\",\"RowKey\":\"r\",\"v\":2}");
    com.azure.core.http.HttpResponse merge =
        http.send(
            com.azure.core.http.HttpMethod.PATCH,
            "/" + name + "(PartitionKey='p',RowKey='r')",
            "{\"PartitionKey\":\"p\",\"RowKey\":\"other\",\"v\":3}");

    assertThat(put.getStatusCode()).isEqualTo(400);
    assertThat(put.getHeaderValue("x-ms-error-code")).isEqualTo("InvalidInput");
    assertThat(SignedHttp.body(put)).contains("differ from those in the URL");
    assertThat(merge.getStatusCode()).isEqualTo(400);
    assertThat(merge.getHeaderValue("x-ms-error-code")).isEqualTo("InvalidInput");
    assertThat(table(name).getEntity("p", "r").getProperty("v")).isEqualTo(1);
    assertThat(table(name).listEntities()).hasSize(1);
  }

  @Test
  void getOfOneTableByNameIsNotServedAndSaysSo() {
    // No SDK sends GET /Tables('t'); Azure answers the table, Azurite a query of its entities.
    String name = azure.newTable("GetOne").getTableName();

    com.azure.core.http.HttpResponse got =
        new SignedHttp(azure)
            .send(com.azure.core.http.HttpMethod.GET, "/Tables('" + name + "')", null);

    assertThat(got.getStatusCode()).isEqualTo(405);
    assertThat(got.getHeaderValue("x-ms-error-code")).isEqualTo("UnsupportedHttpVerb");
  }

  @Test
  void aVersionLaterThanAnyKnownATimeoutAndIfNoneMatchAreIgnoredAndTheReadServed() {
    // a later x-ms-version is served as the version implemented; ?timeout= and If-None-Match change
    // nothing.
    String name = azure.newTable("Ignored").getTableName();
    table(name).createEntity(new TableEntity("p", "r").addProperty("v", 1));

    com.azure.core.http.HttpResponse read =
        new SignedHttp(azure)
            .send(
                com.azure.core.http.HttpMethod.GET,
                "/" + name + "(PartitionKey='p',RowKey='r')?timeout=30",
                null,
                "x-ms-version",
                "2099-12-31",
                "If-None-Match",
                "*");

    assertThat(read.getStatusCode()).isEqualTo(200);
    assertThat(SignedHttp.body(read)).contains("\"v\":1");
    assertThat(read.getHeaderValue("x-ms-version")).isEqualTo("2019-02-02");
  }

  @Test
  void aForgedEtagFromTheFutureIs412AndMovesNoLaterTimestamp() {
    TableClient table = azure.newTable("Forged");
    table.createEntity(new TableEntity("p", "r").addProperty("v", 1));
    String forged = "W/\"datetime'2126-01-01T00%3A00%3A00.0000000Z'\"";
    TableEntity withForgedEtag =
        new TableEntity("p", "r").addProperty("v", 2).addProperty("odata.etag", forged);

    assertFails(
        412,
        "UpdateConditionNotSatisfied",
        () ->
            table.updateEntityWithResponse(
                withForgedEtag, TableEntityUpdateMode.REPLACE, true, null, null));
    assertFails(
        412,
        "UpdateConditionNotSatisfied",
        () ->
            table.updateEntityWithResponse(
                withForgedEtag, TableEntityUpdateMode.MERGE, true, null, null));
    assertFails(
        412,
        "UpdateConditionNotSatisfied",
        () -> table.deleteEntityWithResponse(withForgedEtag, true, null, null));
    table.createEntity(new TableEntity("p", "later"));

    java.time.OffsetDateTime soon = java.time.OffsetDateTime.now().plusMinutes(1);
    assertThat(table.getEntity("p", "later").getTimestamp()).isBefore(soon);
    assertThat(table.getEntity("p", "r").getProperty("v")).isEqualTo(1);
  }

  private static TableClient table(String name) {
    return azure.table(name);
  }

  /** The text as a JSON string literal (ETags hold quotes). */
  private static String json(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  @Test
  void createEntityWhenItExistsFailsWithEntityAlreadyExistsAndKeepsTheOriginal() {
    TableClient table = azure.newTable("Dup");
    table.createEntity(new TableEntity("p", "r").addProperty("v", 1));

    assertFails(
        409,
        "EntityAlreadyExists",
        () -> table.createEntity(new TableEntity("p", "r").addProperty("v", 2)));
    assertThat(table.getEntity("p", "r").getProperty("v")).isEqualTo(1);
  }

  @Test
  void createEntityWithEmptyKeysIsAllowed() {
    TableClient table = azure.newTable("EmptyKeys");

    table.createEntity(new TableEntity("", "").addProperty("v", 1));
    table.createEntity(new TableEntity("", "r").addProperty("v", 2));
    table.createEntity(new TableEntity("p", "").addProperty("v", 3));

    assertThat(table.getEntity("", "").getProperty("v")).isEqualTo(1);
    assertThat(
            table
                .listEntities(new ListEntitiesOptions().setFilter("PartitionKey eq ''"), null, null)
                .stream()
                .map(TableEntity::getRowKey)
                .toList())
        .containsExactly("", "r");
    assertThat(
            table
                .listEntities(new ListEntitiesOptions().setFilter("RowKey eq ''"), null, null)
                .stream()
                .map(TableEntity::getPartitionKey)
                .toList())
        .containsExactly("", "p");
    table.updateEntity(new TableEntity("p", "").addProperty("w", 4), TableEntityUpdateMode.MERGE);
    assertThat(table.getEntity("p", "").getProperties())
        .containsEntry("v", 3)
        .containsEntry("w", 4);
    table.deleteEntity("", "");
    assertFails(404, "ResourceNotFound", () -> table.getEntity("", ""));
  }

  @Test
  void createEntityWithKeysHoldingQuotesAndSpacesReadsBack() {
    TableClient table = azure.newTable("OddKeys");
    String pk = "O'Brien & co";
    String rk = "it's 100% {ok} ünïcode";

    table.createEntity(new TableEntity(pk, rk).addProperty("v", 1));

    TableEntity read = table.getEntity(pk, rk);
    assertThat(read.getPartitionKey()).isEqualTo(pk);
    assertThat(read.getRowKey()).isEqualTo(rk);
  }

  @Test
  void getEntityReturnsKeysTimestampAndEtag() {
    TableClient table = azure.newTable("Get");
    table.createEntity(new TableEntity("p", "r").addProperty("v", "x"));

    TableEntity read = table.getEntity("p", "r");

    assertThat(read.getPartitionKey()).isEqualTo("p");
    assertThat(read.getRowKey()).isEqualTo("r");
    assertThat(read.getTimestamp()).isNotNull();
    assertThat(read.getETag()).startsWith("W/\"datetime'").endsWith("'\"");
    assertThat(read.getProperty("v")).isEqualTo("x");
  }

  @Test
  void getEntityWhenMissingFailsWithResourceNotFound() {
    TableClient table = azure.newTable("GetMissing");

    assertFails(404, "ResourceNotFound", () -> table.getEntity("p", "nobody"));
  }

  @Test
  void getEntityWithSelectReturnsOnlyTheSelectedProperties() {
    TableClient table = azure.newTable("GetSelect");
    table.createEntity(
        new TableEntity("p", "r").addProperty("a", 1).addProperty("b", 2).addProperty("c", 3));

    TableEntity read =
        table.getEntityWithResponse("p", "r", java.util.List.of("a", "c"), null, null).getValue();

    assertThat(read.getProperties())
        .containsEntry("a", 1)
        .containsEntry("c", 3)
        .doesNotContainKey("b");
  }

  @Test
  void updateEntityReplaceWithTheCurrentEtagReplacesEveryProperty() {
    TableClient table = azure.newTable("Replace");
    table.createEntity(new TableEntity("p", "r").addProperty("a", 1).addProperty("b", 2));
    TableEntity current = table.getEntity("p", "r");

    table.updateEntityWithResponse(
        new TableEntity("p", "r").addProperty("a", 10).addProperty("odata.etag", current.getETag()),
        TableEntityUpdateMode.REPLACE,
        true,
        null,
        null);

    TableEntity after = table.getEntity("p", "r");
    assertThat(custom(after)).containsExactlyEntriesOf(Map.of("a", 10));
    assertThat(after.getETag()).isNotEqualTo(current.getETag());
  }

  @Test
  void updateEntityMergeWithTheCurrentEtagKeepsTheOtherProperties() {
    TableClient table = azure.newTable("Merge");
    table.createEntity(new TableEntity("p", "r").addProperty("a", 1).addProperty("b", 2));
    TableEntity current = table.getEntity("p", "r");

    TableEntity patch = new TableEntity("p", "r").addProperty("a", "ten").addProperty("c", true);
    table.updateEntityWithResponse(
        withEtag(patch, current.getETag()), TableEntityUpdateMode.MERGE, true, null, null);

    assertThat(custom(table.getEntity("p", "r")))
        .containsExactlyEntriesOf(new TreeMap<>(Map.of("a", "ten", "b", 2, "c", true)));
  }

  @Test
  void updateEntityReplaceWithAStaleEtagFailsWithUpdateConditionNotSatisfied() {
    TableClient table = azure.newTable("StaleReplace");
    table.createEntity(new TableEntity("p", "r").addProperty("v", 1));
    String stale = table.getEntity("p", "r").getETag();
    table.updateEntity(new TableEntity("p", "r").addProperty("v", 2));

    assertFails(
        412,
        "UpdateConditionNotSatisfied",
        () ->
            table.updateEntityWithResponse(
                withEtag(new TableEntity("p", "r").addProperty("v", 3), stale),
                TableEntityUpdateMode.REPLACE,
                true,
                null,
                null));
    assertThat(table.getEntity("p", "r").getProperty("v")).isEqualTo(2);
  }

  @Test
  void updateEntityMergeWithAStaleEtagFailsWithUpdateConditionNotSatisfied() {
    TableClient table = azure.newTable("StaleMerge");
    table.createEntity(new TableEntity("p", "r").addProperty("v", 1));
    String stale = table.getEntity("p", "r").getETag();
    table.updateEntity(new TableEntity("p", "r").addProperty("v", 2), TableEntityUpdateMode.MERGE);

    assertFails(
        412,
        "UpdateConditionNotSatisfied",
        () ->
            table.updateEntityWithResponse(
                withEtag(new TableEntity("p", "r").addProperty("w", 3), stale),
                TableEntityUpdateMode.MERGE,
                true,
                null,
                null));
    assertThat(table.getEntity("p", "r").getProperties()).doesNotContainKey("w");
  }

  @Test
  void updateEntityUnconditionalIgnoresTheEtag() {
    TableClient table = azure.newTable("Uncond");
    table.createEntity(new TableEntity("p", "r").addProperty("v", 1));
    String stale = table.getEntity("p", "r").getETag();
    table.updateEntity(new TableEntity("p", "r").addProperty("v", 2));

    table.updateEntityWithResponse(
        withEtag(new TableEntity("p", "r").addProperty("v", 3), stale),
        TableEntityUpdateMode.REPLACE,
        false,
        null,
        null);

    assertThat(table.getEntity("p", "r").getProperty("v")).isEqualTo(3);
  }

  @Test
  void updateEntityWhenMissingFailsWithResourceNotFound() {
    TableClient table = azure.newTable("UpdMissing");

    assertFails(
        404,
        "ResourceNotFound",
        () -> table.updateEntity(new TableEntity("p", "r").addProperty("v", 1)));
    assertFails(
        404,
        "ResourceNotFound",
        () ->
            table.updateEntity(
                new TableEntity("p", "r").addProperty("v", 1), TableEntityUpdateMode.MERGE));
  }

  @Test
  void upsertEntityReplaceInsertsThenReplacesEveryProperty() {
    TableClient table = azure.newTable("UpsertRep");

    table.upsertEntityWithResponse(
        new TableEntity("p", "r").addProperty("a", 1).addProperty("b", 2),
        TableEntityUpdateMode.REPLACE,
        null,
        null);
    assertThat(custom(table.getEntity("p", "r")))
        .containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 1, "b", 2)));

    table.upsertEntityWithResponse(
        new TableEntity("p", "r").addProperty("c", 3), TableEntityUpdateMode.REPLACE, null, null);
    assertThat(custom(table.getEntity("p", "r"))).containsExactlyEntriesOf(Map.of("c", 3));
  }

  @Test
  void upsertEntityMergeInsertsThenMergesIntoTheStoredProperties() {
    TableClient table = azure.newTable("UpsertMrg");

    Response<Void> inserted =
        table.upsertEntityWithResponse(
            new TableEntity("p", "r").addProperty("a", 1), TableEntityUpdateMode.MERGE, null, null);
    Response<Void> merged =
        table.upsertEntityWithResponse(
            new TableEntity("p", "r").addProperty("b", 2), TableEntityUpdateMode.MERGE, null, null);

    assertThat(inserted.getStatusCode()).isEqualTo(204);
    assertThat(merged.getStatusCode()).isEqualTo(204);
    assertThat(custom(table.getEntity("p", "r")))
        .containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 1, "b", 2)));
  }

  @Test
  void deleteEntityWithTheCurrentEtagDeletesIt() {
    TableClient table = azure.newTable("DelEtag");
    table.createEntity(new TableEntity("p", "r"));
    TableEntity current = table.getEntity("p", "r");

    Response<Void> response = table.deleteEntityWithResponse(current, true, null, null);

    assertThat(response.getStatusCode()).isEqualTo(204);
    assertFails(404, "ResourceNotFound", () -> table.getEntity("p", "r"));
  }

  @Test
  void deleteEntityWithAStaleEtagFailsWithUpdateConditionNotSatisfied() {
    TableClient table = azure.newTable("DelStale");
    table.createEntity(new TableEntity("p", "r").addProperty("v", 1));
    TableEntity stale = table.getEntity("p", "r");
    table.updateEntity(new TableEntity("p", "r").addProperty("v", 2));

    assertFails(
        412,
        "UpdateConditionNotSatisfied",
        () -> table.deleteEntityWithResponse(stale, true, null, null));
    assertThat(table.getEntity("p", "r").getProperty("v")).isEqualTo(2);
  }

  @Test
  void deleteEntityWithStarDeletesWhateverVersion() {
    TableClient table = azure.newTable("DelStar");
    table.createEntity(new TableEntity("p", "r"));
    table.updateEntity(new TableEntity("p", "r").addProperty("v", 2));

    table.deleteEntity("p", "r");

    assertFails(404, "ResourceNotFound", () -> table.getEntity("p", "r"));
  }

  @Test
  void deleteEntityWhenMissingAnswers404ResourceNotFoundWhichTheSdkSwallows() {
    String name = azure.newTable("DelMissing").getTableName();
    WireTap tap = new WireTap();
    TableClient table = azure.tableClient(name, tap);

    Response<Void> response =
        table.deleteEntityWithResponse(new TableEntity("p", "nobody"), false, null, null);

    assertThat(response.getStatusCode()).isEqualTo(404);
    assertThat(tap.header("x-ms-error-code")).isEqualTo("ResourceNotFound");
  }

  @Test
  void entityOperationsOnAMissingTableFailWithTableNotFound() {
    TableClient table = azure.table(AzureSdkServer.uniqueName("NoSuchTable"));

    assertFails(404, "TableNotFound", () -> table.createEntity(new TableEntity("p", "r")));
    assertFails(404, "TableNotFound", () -> table.upsertEntity(new TableEntity("p", "r")));
  }

  @Test
  void clientRequestIdIsEchoedExactlyAndEveryAnswerCarriesARequestId() {
    String name = azure.newTable("Echo").getTableName();
    WireTap tap =
        new WireTap().withRequestHeader("x-ms-client-request-id", "my id; with Odd/chars=1");
    TableClient table = azure.tableClient(name, tap);

    table.createEntity(new TableEntity("p", "r"));

    assertThat(tap.header("x-ms-client-request-id")).isEqualTo("my id; with Odd/chars=1");
    assertThat(tap.header("x-ms-request-id")).isNotBlank();
    assertThat(tap.header("x-ms-version")).isNotBlank();
  }

  private static TableEntity withEtag(TableEntity entity, String etag) {
    // The SDK sends If-Match from the entity's odata.etag, as it was read from the service.
    return entity.addProperty("odata.etag", etag);
  }
}
