package io.viewbase.server.azure.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.ListTablesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableItem;
import com.azure.data.tables.models.TableServiceException;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import io.viewbase.server.ViewBuilds;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A view, created through the native Java API, is a read-only table to the official Java SDK: it is
 * listed, read and queried like a table, and every write to it is refused with 409
 * OperationNotAllowedOnView naming it.
 */
class ViewsSdkTest {
  @RegisterExtension static final AzureSdkServer azure = new AzureSdkServer();

  /** Viewbase's code for a write to a view; Azure has no views, so no code of its own. */
  private static final String READ_ONLY = "OperationNotAllowedOnView";

  private static TableClient people;
  private static String viewName;
  private static TableClient byEmail;

  @BeforeAll
  static void createSourceAndView() throws InterruptedException {
    people = azure.newTable("People");
    people.createEntity(
        new TableEntity("acme", "ann")
            .addProperty("email", "Ann@Example.com")
            .addProperty("name", "Ann")
            .addProperty("age", 34)
            .addProperty("big", 7L));
    people.createEntity(
        new TableEntity("acme", "bob")
            .addProperty("email", "bob@example.com")
            .addProperty("name", "Bob")
            .addProperty("age", 41));
    people.createEntity(
        new TableEntity("globex", "cat")
            .addProperty("email", "cat@example.com")
            .addProperty("name", "Cat")
            .addProperty("age", 29));

    viewName = AzureSdkServer.uniqueName("PeopleByEmail");
    azure
        .db()
        .createView(ViewDefinition.of(viewName, people.getTableName(), "all", "{email|lower}"));
    ViewBuilds.awaitReady(azure.db(), viewName);
    byEmail = azure.table(viewName);
  }

  @Test
  void viewAppearsInListTables() {
    assertThat(azure.service().listTables().stream().map(TableItem::getName))
        .contains(viewName, people.getTableName());
    assertThat(
            azure
                .service()
                .listTables(
                    new ListTablesOptions().setFilter("TableName eq '" + viewName + "'"),
                    null,
                    null)
                .stream()
                .map(TableItem::getName))
        .containsExactly(viewName);
  }

  @Test
  void getEntityReadsTheViewByItsKeyWithTheSourcesTypes() {
    TableEntity ann = byEmail.getEntity("all", "ann@example.com");

    assertThat(ann.getPartitionKey()).isEqualTo("all");
    assertThat(ann.getRowKey()).isEqualTo("ann@example.com");
    assertThat(ann.getProperty("name")).isEqualTo("Ann");
    assertThat(ann.getProperty("age")).isEqualTo(34);
    assertThat(ann.getProperty("big")).isEqualTo(7L);
    assertThat(ann.getETag()).startsWith("W/\"datetime'");
  }

  @Test
  void getEntityOfAKeyNotInTheViewFailsWithResourceNotFound() {
    SdkErrors.assertFails(
        404, "ResourceNotFound", () -> byEmail.getEntity("all", "nobody@example.com"));
  }

  @Test
  void listEntitiesWithAFilterQueriesTheViewInItsKeyOrder() {
    List<String> rows =
        byEmail.listEntities(new ListEntitiesOptions().setFilter("age lt 40"), null, null).stream()
            .map(TableEntity::getRowKey)
            .toList();
    List<String> all = byEmail.listEntities().stream().map(TableEntity::getRowKey).toList();

    assertThat(rows).containsExactly("ann@example.com", "cat@example.com");
    assertThat(all).containsExactly("ann@example.com", "bob@example.com", "cat@example.com");
  }

  @Test
  void writesToTheSourceThroughTheSdkAreInTheViewWhenTheyAnswer() {
    people.createEntity(
        new TableEntity("initech", "dan")
            .addProperty("email", "Dan@example.com")
            .addProperty("age", 50));

    assertThat(byEmail.getEntity("all", "dan@example.com").getProperty("age")).isEqualTo(50);

    people.deleteEntity("initech", "dan");
    SdkErrors.assertFails(
        404, "ResourceNotFound", () -> byEmail.getEntity("all", "dan@example.com"));
  }

  @Test
  void insertIntoTheViewFailsWithOperationNotAllowedOnViewNamingTheView() {
    assertWriteRefused(
        () ->
            byEmail.createEntity(new TableEntity("all", "eve@example.com").addProperty("age", 1)));
  }

  @Test
  void upsertUpdateAndDeleteOnTheViewAreRefusedAndChangeNothing() {
    assertWriteRefused(
        () ->
            byEmail.upsertEntity(new TableEntity("all", "ann@example.com").addProperty("age", 1)));
    assertWriteRefused(
        () ->
            byEmail.updateEntity(new TableEntity("all", "ann@example.com").addProperty("age", 1)));
    assertWriteRefused(() -> byEmail.deleteEntity("all", "ann@example.com"));

    assertThat(byEmail.getEntity("all", "ann@example.com").getProperty("age")).isEqualTo(34);
    assertThat(people.getEntity("acme", "ann").getProperty("age")).isEqualTo(34);
  }

  @Test
  void deleteTableOfTheViewIsRefusedAndTheViewStays() {
    TableServiceException e =
        SdkErrors.assertFails(409, READ_ONLY, () -> azure.service().deleteTable(viewName));

    assertThat(e.getValue().getErrorMessage()).contains(viewName);
    assertThat(azure.db().viewStatus(viewName).isReady()).isTrue();
    assertThat(byEmail.getEntity("all", "bob@example.com").getProperty("name")).isEqualTo("Bob");
  }

  @Test
  void createTableWithTheViewsNameFailsWithTableAlreadyExists() {
    SdkErrors.assertFails(409, "TableAlreadyExists", () -> azure.service().createTable(viewName));
  }

  @Test
  void transactionOnTheViewIsRefusedNamingTheView() {
    WireTap tap = new WireTap();
    TableClient viaTap = azure.tableClient(viewName, tap);

    TableServiceException e =
        SdkErrors.assertTransactionFails(
            tap,
            409,
            READ_ONLY,
            0,
            () ->
                viaTap.submitTransaction(
                    List.of(
                        new TableTransactionAction(
                            TableTransactionActionType.UPSERT_MERGE,
                            new TableEntity("all", "ann@example.com").addProperty("age", 1)))));

    assertThat(e.getValue().getErrorMessage()).as("the message names the view").contains(viewName);
    assertThat(byEmail.getEntity("all", "ann@example.com").getProperty("age")).isEqualTo(34);
  }

  @Test
  void aViewThatFailedItsBackfillAnswersViewNotReadyAndQueriesOfItsSourceStillScan()
      throws InterruptedException {
    TableClient twins = azure.newTable("Twins");
    twins.createEntity(new TableEntity("a", "1").addProperty("email", "same@example.com"));
    twins.createEntity(new TableEntity("b", "2").addProperty("email", "same@example.com"));
    String failing = AzureSdkServer.uniqueName("TwinsByEmail");
    azure.db().createView(ViewDefinition.of(failing, twins.getTableName(), "all", "{email}"));
    ViewStatus built = ViewBuilds.awaitBuilt(azure.db(), failing);
    TableClient view = azure.table(failing);

    assertThat(built.state()).as("two sources share the view key").isEqualTo(ViewStatus.FAILED);
    SdkErrors.assertFails(409, "ViewNotReady", () -> view.getEntity("all", "same@example.com"));
    SdkErrors.assertUnmappedFails(409, "ViewNotReady", () -> view.listEntities().stream().count());
    // the planner uses only a ready view: the source's equality query still answers both twins
    assertThat(
            twins
                .listEntities(
                    new ListEntitiesOptions().setFilter("email eq 'same@example.com'"), null, null)
                .stream()
                .map(TableEntity::getRowKey))
        .containsExactly("1", "2");
  }

  private static void assertWriteRefused(ThrowingCallable write) {
    TableServiceException e = SdkErrors.assertFails(409, READ_ONLY, write);
    assertThat(e.getValue().getErrorMessage()).as("the message names the view").contains(viewName);
  }
}
