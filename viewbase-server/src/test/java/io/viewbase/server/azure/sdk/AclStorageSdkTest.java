package io.viewbase.server.azure.sdk;

import static io.viewbase.server.azure.sdk.SdkErrors.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableAccessPolicy;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableItem;
import com.azure.data.tables.models.TableSignedIdentifier;
import com.azure.data.tables.sas.TableSasSignatureValues;
import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.TableInfo;
import io.viewbase.api.Value;
import io.viewbase.server.azure.AzureOptions;
import io.viewbase.server.azure.AzureTablesServer;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Stored access policies are table settings in the catalog: no table of their own, and gone with
 * the table however it is dropped, so a table created again under the name grants nothing to the
 * SAS tokens issued for the old one. Policies left in the table older versions used move on start.
 */
class AclStorageSdkTest {
  @RegisterExtension static final AzureSdkServer azure = new AzureSdkServer();

  private static final String OLD_TABLE = "ViewbaseAzureAcl";

  private static OffsetDateTime inAnHour() {
    return OffsetDateTime.now(ZoneOffset.UTC).plusHours(1).truncatedTo(ChronoUnit.SECONDS);
  }

  private static List<TableSignedIdentifier> readOnlyPolicy() {
    return List.of(
        new TableSignedIdentifier("readonly")
            .setAccessPolicy(
                new TableAccessPolicy()
                    .setStartsOn(OffsetDateTime.now(ZoneOffset.UTC).minusMinutes(5))
                    .setExpiresOn(inAnHour())
                    .setPermissions("r")));
  }

  @Test
  void aStoredPolicyIsNotATable() {
    TableClient guarded = azure.newTable("Listed");
    guarded.setAccessPolicies(readOnlyPolicy());

    assertThat(azure.db().listTables())
        .extracting(TableInfo::name)
        .doesNotContain(OLD_TABLE)
        .allSatisfy(name -> assertThat(name).doesNotContainIgnoringCase("acl"));
    assertThat(azure.service().listTables().stream().map(TableItem::getName))
        .doesNotContain(OLD_TABLE);
    assertThat(guarded.getAccessPolicies().getIdentifiers())
        .extracting(TableSignedIdentifier::getId)
        .containsExactly("readonly");
  }

  @Test
  void aTableDroppedThroughTheJavaApiTakesItsPoliciesAndTheirTokensWithIt() {
    dropAndCreateAgainRefusesTheOldPolicy(name -> azure.db().dropTable(name));
  }

  @Test
  void aTableDeletedThroughAzureTakesItsPoliciesAndTheirTokensWithIt() {
    dropAndCreateAgainRefusesTheOldPolicy(name -> azure.service().deleteTable(name));
  }

  private static void dropAndCreateAgainRefusesTheOldPolicy(Consumer<String> drop) {
    TableClient guarded = azure.newTable("Reborn");
    guarded.createEntity(new TableEntity("p", "r").addProperty("v", 1));
    guarded.setAccessPolicies(readOnlyPolicy());
    String sas = guarded.generateSas(new TableSasSignatureValues("readonly"));
    TableClient reader = azure.sasTableClient(guarded.getTableName(), sas);
    assertThat(reader.getEntity("p", "r").getProperty("v")).isEqualTo(1);

    drop.accept(guarded.getTableName());
    TableClient again = azure.service().createTable(guarded.getTableName());
    again.createEntity(new TableEntity("p", "r").addProperty("v", 2));

    assertThat(again.getAccessPolicies().getIdentifiers()).isNullOrEmpty();
    assertFails(403, "AuthenticationFailed", () -> reader.getEntity("p", "r"));
  }

  @Test
  void policiesInTheOldTableMoveToTheirTablesWhenTheDialectStartsAndTheOldTableGoes() {
    Database db = azure.db();
    String people = AzureSdkServer.uniqueName("Moved");
    String orders = AzureSdkServer.uniqueName("Moved");
    db.createTable(people);
    db.createTable(orders);
    db.table(people).insert(Item.builder("p", "r").put("v", 1).build());
    // the layout older versions wrote: one item per table, id the lower-case table name
    db.createTable(OLD_TABLE);
    db.table(OLD_TABLE)
        .upsert(
            Item.of(
                "acl",
                people.toLowerCase(),
                Map.of("SignedIdentifiers", Value.of(policyXml("readonly", "r")))));
    db.table(OLD_TABLE)
        .upsert(
            Item.of(
                "acl",
                orders.toLowerCase(),
                Map.of("SignedIdentifiers", Value.of(policyXml("writers", "raud")))));
    db.table(OLD_TABLE)
        .upsert(
            Item.of(
                "acl",
                "droppedlongago",
                Map.of("SignedIdentifiers", Value.of(policyXml("stale", "r")))));

    try (AzureTablesServer restarted =
        AzureTablesServer.start(db, AzureOptions.defaults().withPort(0))) {
      assertThat(restarted.port()).isPositive();
    }

    assertThat(db.listTables()).extracting(TableInfo::name).doesNotContain(OLD_TABLE);
    assertThat(azure.table(people).getAccessPolicies().getIdentifiers())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.getId()).isEqualTo("readonly");
              assertThat(p.getAccessPolicy().getPermissions()).isEqualTo("r");
            });
    assertThat(azure.table(orders).getAccessPolicies().getIdentifiers())
        .extracting(TableSignedIdentifier::getId)
        .containsExactly("writers");
    TableClient reader =
        azure.sasTableClient(
            people, azure.table(people).generateSas(new TableSasSignatureValues("readonly")));
    assertThat(reader.getEntity("p", "r").getProperty("v")).isEqualTo(1);
    // the name is an ordinary table name from now on
    azure.service().createTable(OLD_TABLE);
    assertThat(azure.service().listTables().stream().map(TableItem::getName)).contains(OLD_TABLE);
    azure.service().deleteTable(OLD_TABLE);
  }

  private static String policyXml(String id, String permissions) {
    return "<?xml version=\"1.0\" encoding=\"utf-8\"?><SignedIdentifiers><SignedIdentifier><Id>"
        + id
        + "</Id><AccessPolicy><Start>2026-01-01T00:00:00.0000000Z</Start><Expiry>"
        + inAnHour().plusYears(1)
        + "</Expiry><Permission>"
        + permissions
        + "</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>";
  }
}
