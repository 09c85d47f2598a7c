package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.Viewbase;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class RocksDbSettingsTest extends SettingsContract {
  @Override
  protected Database open(Path directory) {
    return Viewbase.open(OpenOptions.at(directory));
  }

  @Test
  void settingsSurviveAReopenAndADroppedTablesStayGone() {
    db.createTable("Gone");
    db.putSetting("People", "azure.acl", "policies");
    db.putSetting(null, "azure.service", "properties");
    db.putSetting("Gone", "azure.acl", "dropped with it");
    db.dropTable("Gone");

    db.close();
    db = open(dir);

    assertThat(db.setting("People", "azure.acl")).contains("policies");
    assertThat(db.setting(null, "azure.service")).contains("properties");
    db.createTable("Gone");
    assertThat(db.setting("Gone", "azure.acl")).isEmpty();
  }

  @Test
  void aViewsSettingsSurviveAReopen() {
    db.createView(ViewDefinition.of("ByName", "People", "all", "{name}"));
    ViewContract.awaitBuilt(db, "ByName");
    db.putSetting("ByName", "v", "view's");

    db.close();
    db = open(dir);

    assertThat(db.setting("ByName", "v")).contains("view's");
  }
}
