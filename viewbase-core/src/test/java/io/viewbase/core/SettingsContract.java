package io.viewbase.core;

import static io.viewbase.core.DatabaseContract.assertCode;
import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Query;
import io.viewbase.api.TableInfo;
import io.viewbase.api.ViewDefinition;
import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Settings kept in the catalog ({@link Database#setting}), run against each backend by a one-method
 * subclass.
 */
abstract class SettingsContract {
  @TempDir Path dir;

  Database db;

  protected abstract Database open(Path directory);

  @BeforeEach
  void setUp() {
    db = open(dir);
    db.createTable("People");
  }

  @AfterEach
  void tearDown() {
    db.close();
  }

  @Test
  void aPutSettingReadsBackAndANullValueRemovesIt() {
    db.putSetting("People", "azure.acl", "<xml/>");
    db.putSetting(null, "azure.service", "<props/>");

    assertThat(db.setting("people", "azure.acl")).contains("<xml/>");
    assertThat(db.setting(null, "azure.service")).contains("<props/>");
    assertThat(db.setting("People", "azure.service"))
        .as("table and database settings are apart")
        .isEmpty();
    assertThat(db.setting(null, "azure.acl")).isEmpty();

    db.putSetting("PEOPLE", "azure.acl", null);
    db.putSetting(null, "never.set", null); // removing an absent setting is no error

    assertThat(db.setting("People", "azure.acl")).isEmpty();
    assertThat(db.setting(null, "azure.service")).contains("<props/>");
  }

  @Test
  void settingNamesAreCaseSensitive() {
    db.putSetting("People", "Mode", "upper");
    db.putSetting("People", "mode", "lower");

    assertThat(db.setting("People", "Mode")).contains("upper");
    assertThat(db.setting("People", "mode")).contains("lower");
  }

  @Test
  void aSettingOfAMissingTableFailsWithTableNotFound() {
    assertCode(() -> db.setting("Nobody", "azure.acl"), ErrorCode.TableNotFound);
    assertCode(() -> db.putSetting("Nobody", "azure.acl", "x"), ErrorCode.TableNotFound);
    assertCode(() -> db.putSetting("Nobody", "azure.acl", null), ErrorCode.TableNotFound);
  }

  @Test
  void aMalformedNameATooLargeValueOrTooManySettingsAreRefused() {
    for (String bad :
        new String[] {
          "", "has space", "slash/", "é", "x".repeat(Database.MAX_SETTING_NAME_LENGTH + 1)
        }) {
      assertCode(() -> db.putSetting("People", bad, "v"), ErrorCode.InvalidInput);
      assertCode(() -> db.setting(null, bad), ErrorCode.InvalidInput);
    }
    assertCode(() -> db.putSetting("People", null, "v"), ErrorCode.InvalidInput);
    String largest = "é".repeat(Database.MAX_SETTING_VALUE_BYTES / 2); // two bytes of UTF-8 each
    db.putSetting("People", "x".repeat(Database.MAX_SETTING_NAME_LENGTH), largest);
    assertCode(
        () -> db.putSetting("People", "big", largest + "x"), ErrorCode.PropertyValueTooLarge);
    assertThat(db.setting("People", "x".repeat(Database.MAX_SETTING_NAME_LENGTH)))
        .contains(largest);

    for (int i = 1; i < Database.MAX_SETTINGS; i++) {
      db.putSetting("People", "s" + i, "v");
    }
    assertCode(() -> db.putSetting("People", "one.more", "v"), ErrorCode.InvalidInput);
    db.putSetting("People", "s1", "replacing one is fine"); // not a new setting
    db.putSetting(null, "one.more", "v"); // the database's own are counted apart
    assertThat(db.setting("People", "one.more")).isEmpty();
  }

  @Test
  void aTableDroppedAndCreatedAgainHasNoneOfTheOldSettings() {
    db.putSetting("People", "azure.acl", "old policies");
    db.putSetting(null, "azure.service", "kept");

    db.dropTable("People");
    assertCode(() -> db.setting("People", "azure.acl"), ErrorCode.TableNotFound);
    db.createTable("people");

    assertThat(db.setting("People", "azure.acl")).isEmpty();
    assertThat(db.setting(null, "azure.service"))
        .as("the database's settings stay")
        .contains("kept");
    assertThat(settingKeysOf(tableIdOf("People"))).isZero();
  }

  @Test
  void dropDeletesEverySettingOfTheTableFromStorage() {
    int id = tableIdOf("People");
    db.putSetting("People", "a", "1");
    db.putSetting("People", "b", "2");
    assertThat(settingKeysOf(id)).isEqualTo(2);

    db.dropTable("People");

    assertThat(settingKeysOf(id)).isZero();
  }

  @Test
  void aViewHasSettingsOfItsOwnThatDieWithItOrWithItsSource() {
    db.table("People").insert(Item.builder("p", "1").put("name", "Ann").build());
    db.createView(ViewDefinition.of("ByName", "People", "all", "{name}"));
    db.createView(ViewDefinition.of("ByName2", "People", "all", "{name}"));
    ViewContract.awaitBuilt(db, "ByName");
    ViewContract.awaitBuilt(db, "ByName2");
    int view = tableIdOf("ByName");
    int other = tableIdOf("ByName2");
    int source = tableIdOf("People");
    db.putSetting("ByName", "v", "view's");
    db.putSetting("ByName2", "v", "other view's");
    db.putSetting("People", "v", "table's");
    assertThat(db.setting("byname", "v")).contains("view's");

    db.dropView("ByName2");
    assertThat(settingKeysOf(other)).isZero();
    assertThat(db.setting("ByName", "v")).contains("view's");
    db.dropTable("People"); // and its view ByName with it

    assertThat(settingKeysOf(view)).isZero();
    assertThat(settingKeysOf(source)).isZero();
    db.createTable("People");
    db.createView(ViewDefinition.of("ByName", "People", "all", "{name}"));
    assertThat(db.setting("ByName", "v")).isEmpty();
    assertThat(db.setting("People", "v")).isEmpty();
  }

  @Test
  void settingsAreNeitherTablesNorItems() {
    db.putSetting("People", "azure.acl", "policies");
    db.putSetting(null, "azure.service", "properties");

    assertThat(db.listTables()).extracting(TableInfo::name).containsExactly("People");
    assertThat(db.table("People").query(Query.all()).items()).isEmpty();
    assertCode(() -> db.table("settings"), ErrorCode.TableNotFound);
  }

  /** A table's storage id (how the tests look under the API). */
  int tableIdOf(String name) {
    return ((EmbeddedTable) db.table(name)).entry().id();
  }

  /** How many setting keys storage holds for an owner id, whatever the catalog says. */
  long settingKeysOf(int ownerId) {
    byte[] settings = KeyLayout.partition(KeyLayout.SYSTEM_TABLE_ID, "settings");
    long n = 0;
    try (Cursor c =
        ((EmbeddedDatabase) db)
            .store()
            .scan(settings, KeyRange.prefix(KeyLayout.tablePrefix(ownerId)), false)) {
      while (c.next()) {
        n++;
      }
    }
    return n;
  }
}
