package io.viewbase.entity;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ElectroDB's stale-key case: an update that gives only one attribute of a secondary index key. A
 * client that rebuilds keys from the update alone cannot render the whole key; here the database
 * derives every index from the whole stored item, so the index moves.
 */
class StaleKeyTest {
  record Task(String taskId, String owner, String status, String due, String title) {}

  static final Entity<Task> TASKS =
      Entity.define("task", Task.class)
          .service("work")
          .attribute(Attribute.string("taskId").required())
          .attribute(Attribute.string("owner").required())
          .attribute(Attribute.enumOf("status", "open", "doing", "done").required())
          .attribute(Attribute.string("due").required())
          .attribute(Attribute.string("title"))
          .index(Index.primary("byId").namespace("task").pk("taskId"))
          .index(Index.secondary("byStatus").namespace("tasks").pk("status").sk("due"))
          .index(Index.secondary("byOwner").namespace("owner").pk("owner").sk("status", "due"))
          .build();

  static final Map<String, String> KEY = Map.of("taskId", "t1");

  @TempDir Path dir;
  Database db;
  ServiceTable work;
  EntityClient<Task> tasks;

  @BeforeEach
  void open() {
    db = Viewbase.open(OpenOptions.at(dir).withSync(false));
    work = Service.define("work").entity(TASKS).build().open(db, "Work", Duration.ofSeconds(30));
    tasks = work.entity(TASKS);
    tasks.create(new Task("t1", "ann", "open", "2026-12-01", "write the doc"));
    tasks.create(new Task("t2", "ann", "open", "2026-12-05", "review"));
  }

  @AfterEach
  void close() {
    db.close();
  }

  @Test
  void patchOfOnlyTheStatusMovesTheItemInEveryIndexThatUsesIt() {
    tasks.patch(KEY, Changes.set("status", "done"));

    assertThat(ids(tasks.query("byStatus", Map.of("status", "open")))).containsExactly("t2");
    assertThat(ids(tasks.query("byStatus", Map.of("status", "done")))).containsExactly("t1");
    assertThat(ids(tasks.query("byOwner", Map.of("owner", "ann", "status", "open"))))
        .containsExactly("t2");
    assertThat(ids(tasks.query("byOwner", Map.of("owner", "ann", "status", "done"))))
        .containsExactly("t1");
    assertThat(tasks.get(KEY))
        .contains(new Task("t1", "ann", "done", "2026-12-01", "write the doc"));
    assertViewsVerifyClean();
  }

  @Test
  void updateOfOnlyTheSortKeyAttributeMovesTheItemWithinItsPartition() {
    tasks.update(KEY, Changes.set("due", "2026-12-09"));

    assertThat(
            ids(tasks.query("byStatus", Map.of("status", "open")).lte(Map.of("due", "2026-12-05"))))
        .containsExactly("t2");
    assertThat(
            ids(tasks.query("byStatus", Map.of("status", "open")).gt(Map.of("due", "2026-12-05"))))
        .containsExactly("t1");
    assertViewsVerifyClean();
  }

  @Test
  void patchInATransactionMovesTheItemToo() {
    work.transaction().patch(TASKS, KEY, Changes.set("status", "doing"), Condition.NONE).commit();

    assertThat(ids(tasks.query("byStatus", Map.of("status", "open")))).containsExactly("t2");
    assertThat(ids(tasks.query("byStatus", Map.of("status", "doing")))).containsExactly("t1");
    assertViewsVerifyClean();
  }

  @Test
  void removingAKeyAttributeTakesTheItemOutOfTheIndex() {
    Entity<Map<String, Object>> notes =
        Entity.define("note")
            .service("work")
            .attribute(Attribute.string("noteId").required())
            .attribute(Attribute.string("tag"))
            .index(Index.primary("byId").pk("noteId"))
            .index(Index.secondary("byTag").namespace("tags").pk("tag"))
            .build();
    ServiceTable notesTable =
        Service.define("work").entity(notes).build().open(db, "Notes", Duration.ofSeconds(30));
    EntityClient<Map<String, Object>> client = notesTable.entity(notes);
    client.create(Map.of("noteId", "n1", "tag", "red"));

    client.patch(Map.of("noteId", "n1"), Changes.remove("tag"));

    assertThat(client.query("byTag", Map.of("tag", "red")).all()).isEmpty();
    assertThat(client.get(Map.of("noteId", "n1"))).contains(Map.of("noteId", "n1"));
  }

  private static java.util.List<String> ids(EntityQuery<Task> query) {
    return query.all().stream().map(Task::taskId).toList();
  }

  private void assertViewsVerifyClean() {
    for (var view : work.views()) {
      assertThat(db.verifyView(view.name(), false).drift()).as(view.name()).isZero();
    }
  }
}
