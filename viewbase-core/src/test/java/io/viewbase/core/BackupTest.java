package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.BackupInfo;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.TableOptions;
import io.viewbase.api.Value;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.Viewbase;
import io.viewbase.api.ViewbaseException;
import io.viewbase.storage.rocksdb.RocksDbStorageProvider;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Database#backup} of the embedded engine: everything one store holds comes back from a
 * restore (catalog, items, views, settings, change feeds), and the store's refusals arrive as the
 * API's codes.
 */
class BackupTest {
  @TempDir Path dir;

  @Test
  void restoreHoldsTheCatalogItemsViewsSettingsAndChangeFeedOfTheBackup() {
    Path backups = dir.resolve("backups");
    BackupInfo info;
    try (Database db = Viewbase.open(OpenOptions.at(dir.resolve("data")))) {
      db.createTable("People", TableOptions.DEFAULT.withChangeFeed(TableOptions.ChangeFeed.ON));
      db.createView(ViewDefinition.of("PeopleByCity", "People", "{city}", "{id}"));
      ViewContract.awaitBuilt(db, "PeopleByCity");
      db.putSetting("People", "azure.acl", "policy");
      db.putSetting(null, "azure.cors", "rules");
      for (int i = 0; i < 20; i++) {
        db.table("People").upsert(Item.of("p", "u" + i, Map.of("city", Value.of("c" + (i % 3)))));
      }
      info = db.backup(backups);
      db.table("People").upsert(Item.of("p", "late", Map.of("city", Value.of("c9"))));
    }
    assertThat(info.id()).isEqualTo(1);
    assertThat(info.directory()).isEqualTo(backups.toAbsolutePath().toString());
    assertThat(info.filesShared()).isZero();

    new RocksDbStorageProvider().restore(backups, OptionalLong.empty(), dir.resolve("copy"));

    try (Database copy = Viewbase.open(OpenOptions.at(dir.resolve("copy")))) {
      assertThat(copy.table("People").get("p", "u19")).isPresent();
      assertThat(copy.table("People").get("p", "late")).isEmpty();
      assertThat(copy.table("PeopleByCity").get("c1", "u19")).isPresent();
      assertThat(copy.verifyView("PeopleByCity", false).drift()).isZero();
      assertThat(copy.setting("People", "azure.acl")).hasValue("policy");
      assertThat(copy.setting(null, "azure.cors")).hasValue("rules");
      assertThat(copy.table("People").changes(0, 100).changes()).hasSize(20);
      assertThat(copy.tableOptions("People").changeFeed().enabled()).isTrue();
    }
  }

  @Test
  void aMemoryDatabaseRefusesWithNotImplementedNamingWhatToDoInstead() {
    try (Database db = Viewbase.open(OpenOptions.inMemory())) {
      assertThatThrownBy(() -> db.backup(dir.resolve("b")))
          .isInstanceOfSatisfying(
              ViewbaseException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.NotImplemented);
                assertThat(e.getMessage()).contains("nodetool snapshot");
              });
    }
    assertThat(dir.resolve("b")).doesNotExist();
  }

  @Test
  void aTargetInsideTheDataDirectoryIsInvalidInputAndAHeldOneBackupInProgress() throws Exception {
    Path held = Files.createDirectories(dir.resolve("held"));
    try (Database db = Viewbase.open(OpenOptions.at(dir.resolve("data")));
        FileChannel channel =
            FileChannel.open(
                held.resolve("viewbase-backup.lock"),
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        FileLock lock = channel.lock()) {
      assertThatThrownBy(() -> db.backup(dir.resolve("data").resolve("b")))
          .isInstanceOfSatisfying(
              ViewbaseException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.InvalidInput);
                assertThat(e.context()).containsKey("to");
              });
      assertThatThrownBy(() -> db.backup(held))
          .isInstanceOfSatisfying(
              ViewbaseException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.BackupInProgress));
    }
  }
}
