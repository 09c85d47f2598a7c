package io.viewbase.server.azure;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.TableInfo;
import io.viewbase.api.Value;
import io.viewbase.api.Viewbase;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The move of access policies out of the table the dialect used to keep them in, when the dialect
 * starts.
 */
class LegacyAclTableTest {
  private static final String XML =
      "<?xml version=\"1.0\" encoding=\"utf-8\"?><SignedIdentifiers><SignedIdentifier>"
          + "<Id>ro</Id><AccessPolicy><Expiry>2036-01-01T00:00:00.0000000Z</Expiry><Permission>r</Permission>"
          + "</AccessPolicy></SignedIdentifier></SignedIdentifiers>";

  private Database db;

  @BeforeEach
  void open() {
    db = Viewbase.open(OpenOptions.inMemory());
  }

  @AfterEach
  void close() {
    db.close();
  }

  private void legacyRecord(String partition, String id, Map<String, Value> properties) {
    db.table(LegacyAclTable.TABLE).upsert(Item.of(partition, id, properties));
  }

  @Test
  void aSettingAlreadyWrittenWinsOverTheOldRecord() {
    db.createTable("People");
    db.createTable(LegacyAclTable.TABLE);
    legacyRecord("acl", "people", Map.of("SignedIdentifiers", Value.of(XML)));
    db.putSetting("People", AclStore.SETTING, "<SignedIdentifiers/>");

    new AzureApi(db, AzureOptions.defaults());

    assertThat(db.setting("People", AclStore.SETTING)).contains("<SignedIdentifiers/>");
    assertThat(db.listTables()).extracting(TableInfo::name).containsExactly("People");
  }

  @Test
  void aTableOfThatNameHoldingOtherItemsIsLeftAlone() {
    db.createTable("People");
    db.createTable(LegacyAclTable.TABLE);
    legacyRecord("acl", "people", Map.of("SignedIdentifiers", Value.of(XML)));
    legacyRecord("orders", "1", Map.of("total", Value.of(5)));

    new AzureApi(db, AzureOptions.defaults());

    assertThat(db.listTables())
        .extracting(TableInfo::name)
        .containsExactly("People", LegacyAclTable.TABLE);
    assertThat(db.setting("People", AclStore.SETTING)).isEmpty();
    assertThat(db.table(LegacyAclTable.TABLE).get("orders", "1")).isPresent();
  }

  @Test
  void withNoOldTableNothingHappens() {
    db.createTable("People");

    new AzureApi(db, AzureOptions.defaults());

    assertThat(db.listTables()).extracting(TableInfo::name).containsExactly("People");
  }
}
