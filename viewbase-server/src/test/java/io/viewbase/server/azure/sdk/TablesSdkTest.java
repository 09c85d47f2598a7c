package io.viewbase.server.azure.sdk;

import static io.viewbase.server.azure.sdk.SdkErrors.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.core.http.rest.Response;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListTablesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableItem;
import com.azure.data.tables.models.TableServiceGeoReplicationStatus;
import com.azure.data.tables.models.TableServiceProperties;
import com.azure.data.tables.models.TableServiceStatistics;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Create, list and delete tables through the official Java SDK. */
class TablesSdkTest {
  @RegisterExtension static final AzureSdkServer azure = new AzureSdkServer();

  private static List<String> tableNames(TableServiceClient service, ListTablesOptions options) {
    return service.listTables(options, null, null).stream().map(TableItem::getName).toList();
  }

  @Test
  void createTableMakesATableThatTheSdkCanWriteTo() {
    String name = AzureSdkServer.uniqueName("Created");
    TableClient table = azure.service().createTable(name);

    assertThat(table.getTableName()).isEqualTo(name);
    table.createEntity(new TableEntity("p", "r").addProperty("x", 1));
    assertThat(table.getEntity("p", "r").getProperty("x")).isEqualTo(1);
    assertThat(tableNames(azure.service(), new ListTablesOptions())).contains(name);
  }

  @Test
  void createTableWhenItExistsFailsWithTableAlreadyExists() {
    String name = AzureSdkServer.uniqueName("Twice");
    azure.service().createTable(name);

    assertFails(409, "TableAlreadyExists", () -> azure.service().createTable(name));
  }

  @Test
  void createTableWhenItExistsInAnotherCaseFailsWithTableAlreadyExists() {
    String name = AzureSdkServer.uniqueName("Cased");
    azure.service().createTable(name);

    assertFails(
        409,
        "TableAlreadyExists",
        () -> azure.service().createTable(name.toUpperCase(Locale.ROOT)));
  }

  @Test
  void createTableWithAnInvalidNameFailsWithInvalidResourceName() {
    assertFails(400, "InvalidResourceName", () -> azure.service().createTable("1startsWithADigit"));
    assertFails(400, "InvalidResourceName", () -> azure.service().createTable("has-dash"));
    assertFails(400, "InvalidResourceName", () -> azure.service().createTable("Tables"));
  }

  @Test
  void createTableWithANameOfTheWrongLengthFailsWithOutOfRangeInput() {
    assertFails(400, "OutOfRangeInput", () -> azure.service().createTable("ab"));
    assertFails(400, "OutOfRangeInput", () -> azure.service().createTable("a" + "b".repeat(63)));
  }

  @Test
  void createTableIfNotExistsCreatesOnceAndThenReturnsTheExistingTable() {
    String name = AzureSdkServer.uniqueName("IfNot");

    TableClient first = azure.service().createTableIfNotExists(name);
    first.createEntity(new TableEntity("p", "r"));
    TableClient second = azure.service().createTableIfNotExists(name);

    assertThat(second.getTableName()).isEqualTo(name);
    assertThat(second.getEntity("p", "r").getRowKey()).isEqualTo("r");
    assertThat(
            tableNames(
                azure.service(), new ListTablesOptions().setFilter("TableName eq '" + name + "'")))
        .containsExactly(name);
  }

  @Test
  void listTablesWithoutFilterListsEveryTableCreated() {
    String a = AzureSdkServer.uniqueName("ListAll");
    String b = AzureSdkServer.uniqueName("ListAll");
    azure.service().createTable(a);
    azure.service().createTable(b);

    assertThat(tableNames(azure.service(), new ListTablesOptions()))
        .contains(a, b)
        .doesNotHaveDuplicates();
  }

  @Test
  void listTablesWithAnEqualityFilterListsOnlyThatTable() {
    String wanted = AzureSdkServer.uniqueName("Wanted");
    azure.service().createTable(wanted);
    azure.service().createTable(AzureSdkServer.uniqueName("Unwanted"));

    assertThat(
            tableNames(
                azure.service(),
                new ListTablesOptions().setFilter("TableName eq '" + wanted + "'")))
        .containsExactly(wanted);
  }

  @Test
  void listTablesWithAPrefixRangeFilterListsTheTablesInTheRange() {
    String one = AzureSdkServer.uniqueName("RangeQq");
    String two = AzureSdkServer.uniqueName("RangeQq");
    azure.service().createTable(one);
    azure.service().createTable(two);
    azure.service().createTable(AzureSdkServer.uniqueName("RangeQr"));

    assertThat(
            tableNames(
                azure.service(),
                new ListTablesOptions()
                    .setFilter("TableName ge 'RangeQq' and TableName lt 'RangeQr'")))
        .containsExactlyInAnyOrder(one, two);
  }

  @Test
  void listTablesWithTopPagesThroughEveryTable() {
    String prefix = "Paged" + AzureSdkServer.uniqueName("T");
    for (int i = 0; i < 5; i++) {
      azure.service().createTable(prefix + "x" + i);
    }
    ListTablesOptions options =
        new ListTablesOptions()
            .setTop(2)
            .setFilter("TableName ge '" + prefix + "x' and TableName lt '" + prefix + "y'");

    List<Integer> pageSizes =
        azure
            .service()
            .listTables(options, null, null)
            .streamByPage()
            .map(page -> page.getValue().size())
            .toList();

    assertThat(pageSizes).allSatisfy(size -> assertThat(size).isLessThanOrEqualTo(2));
    assertThat(pageSizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(5);
    assertThat(tableNames(azure.service(), options)).hasSize(5).doesNotHaveDuplicates();
  }

  @Test
  void deleteTableRemovesItAndItsEntities() {
    TableClient table = azure.newTable("Deleted");
    table.createEntity(new TableEntity("p", "r"));

    azure.service().deleteTable(table.getTableName());

    assertThat(tableNames(azure.service(), new ListTablesOptions()))
        .doesNotContain(table.getTableName());
    assertFails(404, "TableNotFound", () -> table.createEntity(new TableEntity("p", "r2")));
  }

  @Test
  void deleteTableWhenMissingAnswers404ResourceNotFoundWhichTheSdkSwallows() {
    WireTap tap = new WireTap();
    TableServiceClient service = azure.serviceClient(AzureSdkServer.KEY, tap);

    Response<Void> response =
        service.deleteTableWithResponse(AzureSdkServer.uniqueName("Missing"), null, null);

    assertThat(response.getStatusCode()).isEqualTo(404);
    assertThat(tap.header("x-ms-error-code")).isEqualTo("ResourceNotFound");
  }

  @Test
  void recreatingADeletedTableStartsEmpty() {
    TableClient table = azure.newTable("Again");
    table.createEntity(new TableEntity("p", "r"));
    azure.service().deleteTable(table.getTableName());

    TableClient again = azure.service().createTable(table.getTableName());

    assertThat(again.listEntities()).isEmpty();
  }

  @Test
  void serviceSettingsReadAsAzuresDefaultsUntilSetAndThenAsSet() {
    TableServiceProperties defaults = azure.service().getProperties();

    assertThat(defaults.getLogging().isReadLogged()).isFalse();
    assertThat(defaults.getLogging().isWriteLogged()).isFalse();
    assertThat(defaults.getLogging().isDeleteLogged()).isFalse();
    assertThat(defaults.getHourMetrics().isEnabled()).isFalse();
    assertThat(defaults.getMinuteMetrics().isEnabled()).isFalse();
    assertThat(defaults.getCorsRules()).isNullOrEmpty();

    // stored and returned (Viewbase logs nothing for them); CorsSdkTest covers the CORS rules
    azure.service().setProperties(defaults.setLogging(defaults.getLogging().setReadLogged(true)));

    assertThat(azure.service().getProperties().getLogging().isReadLogged()).isTrue();
  }

  /**
   * The secondary endpoint, as Azure's RA-GRS accounts have it: {@code <account>-secondary}, signed
   * as the account.
   */
  private static TableServiceClient secondary() {
    return new TableServiceClientBuilder()
        .endpoint(azure.endpoint() + "-secondary")
        .credential(new AzureNamedKeyCredential(AzureSdkServer.ACCOUNT, AzureSdkServer.KEY))
        .retryOptions(AzureSdkServer.noRetries())
        .httpClient(AzureSdkServer.HTTP)
        .buildClient();
  }

  @Test
  void serviceStatisticsAreAnsweredOnTheSecondaryAndRefusedOnThePrimary() {
    TableServiceStatistics statistics = secondary().getStatistics();

    assertThat(statistics.getGeoReplication().getStatus())
        .isEqualTo(TableServiceGeoReplicationStatus.LIVE);
    SdkErrors.assertUnmappedFails(
        400, "InvalidQueryParameterValue", () -> azure.service().getStatistics());
  }

  @Test
  void theSecondaryEndpointServesReadsAndRefusesWrites() {
    TableClient primary = azure.newTable("Secondary");
    primary.createEntity(new TableEntity("p", "r").addProperty("v", 1));
    TableClient onSecondary = secondary().getTableClient(primary.getTableName());

    assertThat(onSecondary.getEntity("p", "r").getProperty("v")).isEqualTo(1);
    assertThat(onSecondary.listEntities().stream().map(TableEntity::getRowKey))
        .containsExactly("r");
    assertThat(secondary().listTables().stream().map(t -> t.getName()))
        .contains(primary.getTableName());
    SdkErrors.assertFails(
        403,
        "InsufficientAccountPermissions",
        () -> onSecondary.upsertEntity(new TableEntity("p", "r").addProperty("v", 2)));
    SdkErrors.assertFails(
        403,
        "InsufficientAccountPermissions",
        () -> onSecondary.createEntity(new TableEntity("p", "new")));
    SdkErrors.assertFails(
        403, "InsufficientAccountPermissions", () -> secondary().createTable("NotOnSecondary"));
    assertThat(primary.getEntity("p", "r").getProperty("v")).isEqualTo(1);
    assertThat(azure.db().listTables()).noneMatch(t -> t.name().equals("NotOnSecondary"));
  }
}
