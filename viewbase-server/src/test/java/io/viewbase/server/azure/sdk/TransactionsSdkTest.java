package io.viewbase.server.azure.sdk;

import static io.viewbase.server.azure.sdk.SdkErrors.assertFails;
import static io.viewbase.server.azure.sdk.SdkErrors.assertTransactionFails;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionResponse;
import com.azure.data.tables.models.TableTransactionActionType;
import com.azure.data.tables.models.TableTransactionResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Entity group transactions ({@code $batch}) through the official Java SDK's submitTransaction. */
class TransactionsSdkTest {
  @RegisterExtension static final AzureSdkServer azure = new AzureSdkServer();

  /**
   * A new table and a client of it whose wire the tap sees (the SDK hides a failed batch's status).
   */
  private static TableClient tapped(String prefix, WireTap tap) {
    return azure.tableClient(azure.newTable(prefix).getTableName(), tap);
  }

  private static TableTransactionAction action(
      TableTransactionActionType type, TableEntity entity) {
    return new TableTransactionAction(type, entity);
  }

  /**
   * Every entity of the table with all its properties, ETag and Timestamp included: a write shows.
   */
  private static Map<String, Object> state(TableClient table) {
    Map<String, Object> state = new TreeMap<>();
    table
        .listEntities()
        .forEach(
            e ->
                state.put(
                    e.getPartitionKey() + "/" + e.getRowKey(), new TreeMap<>(e.getProperties())));
    return state;
  }

  @Test
  void submitTransactionAppliesCreateUpsertUpdateAndDeleteTogether() {
    TableClient table = azure.newTable("TxOk");
    table.createEntity(new TableEntity("p", "update").addProperty("v", 1).addProperty("keep", "k"));
    table.createEntity(new TableEntity("p", "merge").addProperty("v", 1).addProperty("keep", "k"));
    table.createEntity(new TableEntity("p", "delete").addProperty("v", 1));
    table.createEntity(
        new TableEntity("p", "upsertme").addProperty("v", 1).addProperty("keep", "k"));

    TableTransactionResult result =
        table.submitTransaction(
            List.of(
                action(
                    TableTransactionActionType.CREATE,
                    new TableEntity("p", "created").addProperty("v", 2)),
                action(
                    TableTransactionActionType.UPSERT_REPLACE,
                    new TableEntity("p", "upserted").addProperty("v", 2)),
                action(
                    TableTransactionActionType.UPSERT_MERGE,
                    new TableEntity("p", "upsertme").addProperty("v", 2)),
                action(
                    TableTransactionActionType.UPDATE_REPLACE,
                    new TableEntity("p", "update").addProperty("v", 2)),
                action(
                    TableTransactionActionType.UPDATE_MERGE,
                    new TableEntity("p", "merge").addProperty("v", 2)),
                action(TableTransactionActionType.DELETE, new TableEntity("p", "delete"))));

    assertThat(result.getTransactionActionResponses()).hasSize(6);
    assertThat(result.getTransactionActionResponses())
        .extracting(TableTransactionActionResponse::getStatusCode)
        .allSatisfy(status -> assertThat(status).isBetween(200, 299));
    assertThat(table.getEntity("p", "created").getProperty("v")).isEqualTo(2);
    assertThat(table.getEntity("p", "upserted").getProperty("v")).isEqualTo(2);
    assertThat(table.getEntity("p", "upsertme").getProperties())
        .containsEntry("v", 2)
        .containsEntry("keep", "k");
    assertThat(table.getEntity("p", "update").getProperties())
        .containsEntry("v", 2)
        .doesNotContainKey("keep");
    assertThat(table.getEntity("p", "merge").getProperties())
        .containsEntry("v", 2)
        .containsEntry("keep", "k");
    assertFails(404, "ResourceNotFound", () -> table.getEntity("p", "delete"));
  }

  @Test
  void submitTransactionWithIfUnchangedUsesEachEntitysEtag() {
    WireTap tap = new WireTap();
    TableClient table = tapped("TxEtag", tap);
    table.createEntity(new TableEntity("p", "a").addProperty("v", 1));
    TableEntity current = table.getEntity("p", "a");

    table.submitTransaction(
        List.of(
            new TableTransactionAction(
                TableTransactionActionType.UPDATE_MERGE, current.addProperty("v", 2), true)));

    assertThat(table.getEntity("p", "a").getProperty("v")).isEqualTo(2);
    assertTransactionFails(
        tap,
        412,
        "UpdateConditionNotSatisfied",
        0,
        () ->
            table.submitTransaction(
                List.of(
                    new TableTransactionAction(
                        TableTransactionActionType.UPDATE_MERGE,
                        current.addProperty("v", 3),
                        true))));
    assertThat(table.getEntity("p", "a").getProperty("v")).isEqualTo(2);
  }

  @Test
  void submitTransactionWhoseFourthActionFailsReportsIndexThreeAndAppliesNothing() {
    WireTap tap = new WireTap();
    TableClient table = tapped("TxFail", tap);
    table.createEntity(new TableEntity("p", "exists").addProperty("v", 1));
    table.createEntity(new TableEntity("p", "touched").addProperty("v", 1));
    table.createEntity(new TableEntity("p", "touched2").addProperty("v", 1));
    Map<String, Object> before = state(table);

    assertTransactionFails(
        tap,
        409,
        "EntityAlreadyExists",
        3,
        () ->
            table.submitTransaction(
                List.of(
                    action(
                        TableTransactionActionType.CREATE,
                        new TableEntity("p", "new1").addProperty("v", 2)),
                    action(
                        TableTransactionActionType.UPSERT_REPLACE,
                        new TableEntity("p", "touched").addProperty("v", 2)),
                    action(TableTransactionActionType.DELETE, new TableEntity("p", "touched2")),
                    action(
                        TableTransactionActionType.CREATE,
                        new TableEntity("p", "exists").addProperty("v", 2)),
                    action(
                        TableTransactionActionType.CREATE,
                        new TableEntity("p", "new2").addProperty("v", 2)))));

    assertThat(state(table)).isEqualTo(before);
  }

  @Test
  void submitTransactionFailingOnAMissingEntityReportsItsIndex() {
    WireTap tap = new WireTap();
    TableClient table = tapped("TxMissing", tap);

    assertTransactionFails(
        tap,
        404,
        "ResourceNotFound",
        1,
        () ->
            table.submitTransaction(
                List.of(
                    action(TableTransactionActionType.CREATE, new TableEntity("p", "a")),
                    action(
                        TableTransactionActionType.UPDATE_MERGE,
                        new TableEntity("p", "nobody").addProperty("v", 1)))));

    assertThat(table.listEntities()).isEmpty();
  }

  @Test
  void submitTransactionOverTwoPartitionsIsRefusedAndAppliesNothing() {
    WireTap tap = new WireTap();
    TableClient table = tapped("TxParts", tap);

    assertTransactionFails(
        tap,
        400,
        "CommandsInBatchActOnDifferentPartitions",
        1,
        () ->
            table.submitTransaction(
                List.of(
                    action(TableTransactionActionType.CREATE, new TableEntity("p1", "a")),
                    action(TableTransactionActionType.CREATE, new TableEntity("p2", "b")))));

    assertThat(table.listEntities()).isEmpty();
  }

  @Test
  void submitTransactionOfMoreThanAHundredActionsIsRefusedAndAppliesNothing() {
    WireTap tap = new WireTap();
    TableClient table = tapped("TxBig", tap);
    List<TableTransactionAction> actions = new ArrayList<>();
    for (int i = 0; i < 101; i++) {
      actions.add(action(TableTransactionActionType.CREATE, new TableEntity("p", "r" + i)));
    }

    // Azure's index for this limit is not documented (0 or 99 have been seen), so any index will
    // do.
    assertTransactionFails(tap, 400, "InvalidInput", null, () -> table.submitTransaction(actions));
    assertThat(table.listEntities()).isEmpty();
  }

  @Test
  void submitTransactionOfExactlyAHundredActionsSucceeds() {
    TableClient table = azure.newTable("TxHundred");
    List<TableTransactionAction> actions = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      actions.add(
          action(
              TableTransactionActionType.UPSERT_MERGE,
              new TableEntity("p", "r" + i).addProperty("i", i)));
    }

    TableTransactionResult result = table.submitTransaction(actions);

    assertThat(result.getTransactionActionResponses()).hasSize(100);
    assertThat(table.listEntities().stream().count()).isEqualTo(100);
  }

  @Test
  void submitTransactionNamingOneEntityTwiceIsRefusedWithInvalidDuplicateRow() {
    WireTap tap = new WireTap();
    TableClient table = tapped("TxDupRow", tap);

    assertTransactionFails(
        tap,
        400,
        "InvalidDuplicateRow",
        1,
        () ->
            table.submitTransaction(
                List.of(
                    action(TableTransactionActionType.CREATE, new TableEntity("p", "a")),
                    action(
                        TableTransactionActionType.UPSERT_MERGE,
                        new TableEntity("p", "a").addProperty("v", 1)))));
    assertThat(table.listEntities()).isEmpty();
  }

  @Test
  void submitTransactionOnAMissingTableFailsWithTableNotFound() {
    WireTap tap = new WireTap();
    TableClient table = azure.tableClient(AzureSdkServer.uniqueName("TxNoTable"), tap);

    assertTransactionFails(
        tap,
        404,
        "TableNotFound",
        0,
        () ->
            table.submitTransaction(
                List.of(action(TableTransactionActionType.CREATE, new TableEntity("p", "a")))));
  }

  @Test
  void submitTransactionResponsesCarryEachWritesEtag() {
    // The SDK exposes no sub-response headers, so the tap reads them off the wire.
    WireTap tap = new WireTap();
    TableClient table = tapped("TxEtags", tap);

    TableTransactionResult result =
        table.submitTransaction(
            List.of(
                action(TableTransactionActionType.CREATE, new TableEntity("p", "a")),
                action(TableTransactionActionType.UPSERT_REPLACE, new TableEntity("p", "b"))));

    assertThat(result.getTransactionActionResponses())
        .extracting(TableTransactionActionResponse::getStatusCode)
        .containsExactly(204, 204);
    String body = tap.body();
    int first = body.indexOf("ETag: " + table.getEntity("p", "a").getETag() + "\r\n");
    // Writes of one transaction may share a version (Azure gives them one Timestamp), so look after
    // the first.
    int second = body.indexOf("ETag: " + table.getEntity("p", "b").getETag() + "\r\n", first + 1);
    assertThat(first).as(body).isPositive();
    assertThat(second).as(body).isGreaterThan(first);
  }
}
