package io.viewbase.server.azure.sdk;

import static io.viewbase.server.azure.sdk.SdkErrors.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import io.viewbase.api.Item;
import io.viewbase.api.Value;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Property names that are ordinary on Azure but name identity and system fields in Viewbase ({@code
 * id}, {@code partitionKey}, {@code _x}): stored as {@code $id}, {@code $partitionKey}, {@code
 * $_x}, and Azure's names again in every answer, {@code $select} and {@code $filter}.
 */
class ReservedNamesSdkTest {
  @RegisterExtension static final AzureSdkServer azure = new AzureSdkServer();

  private static TableClient table;

  @BeforeAll
  static void load() {
    table = azure.newTable("Reserved");
    table.createEntity(
        new TableEntity("p", "r1")
            .addProperty("id", "A-1")
            .addProperty("partitionKey", "x")
            .addProperty("_timestamp", 5)
            .addProperty("name", "ann"));
    table.createEntity(
        new TableEntity("p", "r2")
            .addProperty("id", "A-2")
            .addProperty("_timestamp", 6)
            .addProperty("name", "bob"));
    table.createEntity(new TableEntity("p", "A-1").addProperty("name", "cat"));
  }

  private static List<String> rowKeys(String filter) {
    return table.listEntities(new ListEntitiesOptions().setFilter(filter), null, null).stream()
        .map(TableEntity::getRowKey)
        .toList();
  }

  @Test
  void filterOnIdMeansThePropertyNotTheRowKey() {
    // On Azure, id is a user property: the entity whose RowKey is A-1 has no id and does not match.
    assertThat(rowKeys("id eq 'A-1'")).containsExactly("r1");
    assertThat(rowKeys("RowKey eq 'A-1'")).containsExactly("A-1");
  }

  @Test
  void filterOnPartitionKeyInLowerCaseAndUnderscoreNamesMeansTheProperties() {
    assertThat(rowKeys("partitionKey eq 'x'")).containsExactly("r1");
    assertThat(rowKeys("_timestamp ge 6")).containsExactly("r2");
    assertThat(rowKeys("PartitionKey eq 'p' and not (_timestamp eq 5)"))
        .containsExactly("A-1", "r2");
  }

  @Test
  void selectOfReservedNamesAnswersThemUnderTheirAzureNames() {
    TableEntity read =
        table
            .listEntities(
                new ListEntitiesOptions()
                    .setFilter("RowKey eq 'r1'")
                    .setSelect(List.of("id", "_timestamp")),
                null,
                null)
            .iterator()
            .next();

    assertThat(read.getProperties())
        .containsEntry("id", "A-1")
        .containsEntry("_timestamp", 5)
        .doesNotContainKeys("name", "partitionKey", "$id", "$_timestamp");
  }

  @Test
  void theStoredItemHoldsTheEscapedNames() {
    Item stored = azure.db().table(table.getTableName()).get("p", "r1").orElseThrow();

    assertThat(stored.properties())
        .containsEntry("$id", Value.of("A-1"))
        .containsEntry("$partitionKey", Value.of("x"))
        .containsEntry("$_timestamp", Value.of(5))
        .doesNotContainKeys("id", "_timestamp");
    assertThat(stored.id()).isEqualTo("r1");
  }

  @Test
  void mergeOfAReservedNameUpdatesOnlyThatProperty() {
    table.createEntity(new TableEntity("m", "1").addProperty("id", "old").addProperty("keep", 1));

    table.updateEntity(
        new TableEntity("m", "1").addProperty("id", "new"), TableEntityUpdateMode.MERGE);

    TableEntity read = table.getEntity("m", "1");
    assertThat(read.getProperties()).containsEntry("id", "new").containsEntry("keep", 1);
  }

  @Test
  void transactionWritesReservedNamesAndReturnsThemUnderTheirAzureNames() {
    table.submitTransaction(
        List.of(
            new TableTransactionAction(
                TableTransactionActionType.CREATE, new TableEntity("t", "1").addProperty("_a", 1)),
            new TableTransactionAction(
                TableTransactionActionType.UPSERT_MERGE,
                new TableEntity("t", "2").addProperty("id", "two"))));

    assertThat(table.getEntity("t", "1").getProperty("_a")).isEqualTo(1);
    assertThat(table.getEntity("t", "2").getProperty("id")).isEqualTo("two");
  }

  @Test
  void
      createEntityWithAPropertyNameStartingWithDollarFailsWithPropertyNameInvalidAndStoresNothing() {
    // '$' is not legal in Azure property names; refusing it keeps "$id" free for the stored form of
    // "id".
    assertFails(
        400,
        "PropertyNameInvalid",
        () -> table.createEntity(new TableEntity("d", "1").addProperty("$id", "x")));

    assertThat(azure.db().table(table.getTableName()).get("d", "1")).isEmpty();
  }

  @Test
  void filterNamingADollarPropertyFailsWithInvalidInput() {
    SdkErrors.assertUnmappedFails(400, "InvalidInput", () -> rowKeys("$id eq 'A-1'"));
  }
}
