package io.viewbase.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.TableInfo;
import io.viewbase.api.ViewStatus;
import io.viewbase.api.Viewbase;
import io.viewbase.api.ViewbaseException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A version bump or a changed index builds new views online beside the old ones, until the switch.
 */
class MigrationTest {
  record User(String userId, String email, String team) {}

  static Entity<User> users(String version, Index byTeam) {
    return Entity.define("user", User.class)
        .service("platform")
        .version(version)
        .attribute(Attribute.string("userId").required())
        .attribute(Attribute.string("email").required())
        .attribute(Attribute.string("team"))
        .index(Index.primary("byId").namespace("user").pk("userId"))
        .index(Index.secondary("byEmail").namespace("users", "email").sk("email").unique())
        .index(byTeam)
        .build();
  }

  static final Entity<User> V1 = users("1", Index.secondary("byTeam").namespace("team").pk("team"));
  static final Entity<User> V1_CHANGED =
      users("1", Index.secondary("byTeam").namespace("team").pk("team").sk("email"));
  static final Entity<User> V2 =
      users("2", Index.secondary("byTeam").namespace("team").pk("team").sk("email"));

  @Test
  void aChangedIndexIsANewViewBackfilledBesideTheOldOne(@TempDir Path dir) {
    try (Database db = Viewbase.open(OpenOptions.at(dir).withSync(false))) {
      ServiceTable old =
          Service.define("platform")
              .entity(V1)
              .build()
              .open(db, "Platform", Duration.ofSeconds(30));
      for (int i = 0; i < 1200; i++) {
        old.entity(V1)
            .create(new User("u" + i, "u" + i + "@example.com", i % 3 == 0 ? "red" : "blue"));
      }
      String oldView = old.viewName(V1, "byTeam");

      ServiceTable next =
          Service.define("platform").entity(V1_CHANGED).build().bind(db, "Platform");
      Migration migration = next.migrate();
      String newView = next.viewName(V1_CHANGED, "byTeam");

      assertThat(migration.created()).containsExactly(newView);
      assertThat(migration.obsolete()).containsExactly(oldView);
      // Writes go on during the backfill, through the old definitions; the new view takes them too.
      old.entity(V1).create(new User("late", "late@example.com", "red"));
      migration.awaitReady(Duration.ofSeconds(60));
      ViewStatus status = migration.progress().get(newView);
      assertThat(status.isReady()).isTrue();
      assertThat(status.progress().done()).isGreaterThanOrEqualTo(1200);

      // Old and new coexist: old code still reads the old view.
      assertThat(old.entity(V1).query("byTeam", Map.of("team", "red")).all()).hasSize(401);
      assertThat(
              next.entity(V1_CHANGED)
                  .query("byTeam", Map.of("team", "red"))
                  .begins(Map.of("email", "late"))
                  .all())
          .extracting(User::userId)
          .containsExactly("late");
      assertThat(db.verifyView(newView, false).drift()).isZero();

      migration.dropObsolete();
      assertThat(db.listTables())
          .extracting(TableInfo::name)
          .contains(newView)
          .doesNotContain(oldView);
    }
  }

  @Test
  void awaitReadyWhenTheViewsAreNotReadyInTimeFailsWithTimeout(@TempDir Path dir) {
    try (Database db = Viewbase.open(OpenOptions.at(dir).withSync(false))) {
      ServiceTable old =
          Service.define("platform")
              .entity(V1)
              .build()
              .open(db, "Platform", Duration.ofSeconds(30));
      for (int i = 0; i < 5000; i++) {
        old.entity(V1).create(new User("u" + i, "u" + i + "@example.com", "red"));
      }
      Migration migration =
          Service.define("platform").entity(V1_CHANGED).build().bind(db, "Platform").migrate();

      // 5,000 items to copy: the backfill has only just begun
      var e =
          catchThrowableOfType(ViewbaseException.class, () -> migration.awaitReady(Duration.ZERO));

      assertThat(e.code()).isEqualTo(ErrorCode.Timeout);
      assertThat(e.context()).containsEntry("table", "Platform");
      migration.awaitReady(Duration.ofSeconds(60));
    }
  }

  @Test
  void aVersionBumpMovesItemsToTheirNewKeysAndKeepsUniqueness(@TempDir Path dir) {
    try (Database db = Viewbase.open(OpenOptions.at(dir).withSync(false))) {
      ServiceTable old =
          Service.define("platform")
              .entity(V1)
              .build()
              .open(db, "Platform", Duration.ofSeconds(30));
      for (int i = 0; i < 50; i++) {
        old.entity(V1).create(new User("u" + i, "u" + i + "@example.com", "red"));
      }

      ServiceTable next = Service.define("platform").entity(V2).build().bind(db, "Platform");
      Migration migration = next.migrate();
      assertThat(migration.created()).hasSize(2);
      assertThat(migration.obsolete()).hasSize(2);
      migration.awaitReady(Duration.ofSeconds(60));

      Migration.RekeyReport report = migration.rekeyItems();
      assertThat(report.moved()).isEqualTo(50);
      assertThat(next.entity(V2).get(Map.of("userId", "u7")))
          .contains(new User("u7", "u7@example.com", "red"));
      assertThat(db.table("Platform").get("$platform#user#userid_u7", "$user_2")).isPresent();
      assertThat(db.table("Platform").get("$platform#user#userid_u7", "$user_1")).isEmpty();
      assertThat(migration.rekeyItems().moved()).isZero();

      var e =
          catchThrowableOfType(
              ViewbaseException.class,
              () -> next.entity(V2).create(new User("dup", "u7@example.com", "red")));
      assertThat(e.code()).isEqualTo(ErrorCode.ViewKeyConflict);

      migration.dropObsolete();
      for (var view : next.views()) {
        assertThat(db.verifyView(view.name(), false).drift()).isZero();
      }
      assertThat(next.entity(V2).query("byEmail", Map.of("email", "u7@example.com")).all())
          .hasSize(1);
      assertThat(List.copyOf(db.listTables())).hasSize(3);
    }
  }

  @Test
  void aNewUniqueIndexThatTheDataBreaksFailsAndTheOldViewsStay(@TempDir Path dir) {
    try (Database db = Viewbase.open(OpenOptions.at(dir).withSync(false))) {
      ServiceTable old =
          Service.define("platform")
              .entity(V1)
              .build()
              .open(db, "Platform", Duration.ofSeconds(30));
      old.entity(V1).create(new User("u1", "u1@example.com", "red"));
      old.entity(V1).create(new User("u2", "u2@example.com", "red"));
      Entity<User> uniqueTeams =
          users("1", Index.secondary("byTeam").namespace("team").pk("team").unique());

      Migration migration =
          Service.define("platform").entity(uniqueTeams).build().bind(db, "Platform").migrate();

      var e =
          catchThrowableOfType(
              ViewbaseException.class, () -> migration.awaitReady(Duration.ofSeconds(60)));
      assertThat(e.code()).isEqualTo(ErrorCode.ViewKeyConflict);
      assertThat(e.getMessage()).contains("failed to build");
      assertThat(String.valueOf(e.context().get("conflicts"))).contains("u1", "u2");
      var drop = catchThrowableOfType(ViewbaseException.class, migration::dropObsolete);
      assertThat(drop.code()).isEqualTo(ErrorCode.ViewKeyConflict);
      assertThat(old.entity(V1).query("byTeam", Map.of("team", "red")).all()).hasSize(2);
    }
  }
}
