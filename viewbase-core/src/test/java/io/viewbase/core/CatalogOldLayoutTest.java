package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.TableInfo;
import io.viewbase.api.Value;
import io.viewbase.api.ViewStatus;
import io.viewbase.api.Viewbase;
import io.viewbase.api.ViewbaseException;
import io.viewbase.storage.spi.Bytes;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.StoreConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A RocksDB directory whose catalog was written in the layout the catalog has always used (the maps
 * below, written with {@link ItemCodec} straight into the store, as the catalog wrote them before
 * it had typed records) opens unchanged: its tables, views in every state, a backfill to resume,
 * settings, the token secret, the id counter and an unfinished drop.
 */
class CatalogOldLayoutTest {
  private static final Instant CREATED = Instant.parse("2025-03-01T10:15:30.1234567Z");
  private static final byte[] SECRET =
      "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
  private static final int PEOPLE = 1;
  private static final int BY_EMAIL = 2;
  private static final int BY_CITY = 3;
  private static final int BY_NAME = 4;
  private static final int COPY = 5;
  private static final int GONE = 6;

  @TempDir Path dir;
  private Database db;
  private long version = Value.DateTime.of(Instant.now()).ticks();

  @AfterEach
  void close() {
    if (db != null) {
      db.close();
    }
  }

  @Test
  void databaseWrittenInTheOldCatalogLayoutOpensUnchanged() throws Exception {
    writeOldDatabase();
    db = Viewbase.open(OpenOptions.at(dir));

    assertThat(db.listTables())
        .extracting(TableInfo::name, TableInfo::kind, TableInfo::source, TableInfo::created)
        .containsExactly(
            tuple("ByCity", TableInfo.VIEW, "People", CREATED),
            tuple("ByEmail", TableInfo.VIEW, "People", CREATED),
            tuple("ByName", TableInfo.VIEW, "People", CREATED),
            tuple("Copy", TableInfo.VIEW, "People", CREATED),
            tuple("People", TableInfo.TABLE, null, CREATED));
    assertThat(db.listTables())
        .extracting(TableInfo::state)
        .containsSubsequence(ViewStatus.READY, ViewStatus.FAILED, ViewStatus.READY, "ready");
    assertThat(db.table("People").get("p", "1").orElseThrow().properties())
        .containsEntry("name", Value.of("Ann"));
    assertThat(db.table("ByEmail").get("all", "b@x").orElseThrow().sourceId()).isEqualTo("2");
    assertThat(db.verifyView("ByEmail", false).drift()).isZero();
    assertThat(db.verifyView("Copy", false).drift()).isZero();
    assertThat(db.viewStatus("Copy").definition().partitionBy()).isNull();

    ViewStatus byCity = ViewContract.awaitBuilt(db, "ByCity");
    assertThat(byCity.state()).isEqualTo(ViewStatus.READY);
    assertThat(byCity.definition().where()).isEqualTo("active eq true");
    assertThat(byCity.definition().select()).containsExactly("name", "city");
    assertThat(byCity.progress().done()).as("resumed after p/1, not started again").isEqualTo(3);
    assertThat(db.table("ByCity").get("Rome", "2")).isPresent();
    assertThat(db.table("ByCity").get("Oslo", "3")).as("inactive: not in the view").isEmpty();
    assertThat(db.verifyView("ByCity", false).drift()).isZero();

    ViewStatus byName = db.viewStatus("ByName");
    assertThat(byName.state()).isEqualTo(ViewStatus.FAILED);
    assertThat(byName.progress().done()).isEqualTo(2);
    assertThat(byName.conflicts())
        .containsExactly(
            new ViewStatus.Conflict("all", "Ann", "p", "3", "p", "1"),
            new ViewStatus.Conflict(null, null, null, null, null, "backfill error: gone"));
    assertThatThrownBy(() -> db.table("ByName").get("all", "Ann"))
        .isInstanceOfSatisfying(
            ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.ViewNotReady));

    assertThat(db.setting("People", "azure.acl")).contains("acl");
    assertThat(db.setting(null, "azure.service")).contains("props");
    assertThat(((EmbeddedDatabase) db).catalogForTests().tokenSecret()).isEqualTo(SECRET);
    db.createTable("Next");
    assertThat(((EmbeddedDatabase) db).catalogForTests().require("Next").id()).isEqualTo(GONE + 1);
    Store store = ((EmbeddedDatabase) db).store();
    assertThat(count(store, KeyLayout.tablePrefix(GONE))).as("the unfinished drop's data").isZero();
    assertThat(count(store, KeyLayout.partition(KeyLayout.SYSTEM_TABLE_ID, "purge"))).isZero();

    db.table("People")
        .insert(
            Item.builder("p", "4")
                .put("email", "d@x")
                .put("city", "Bern")
                .put("active", true)
                .put("name", "Dan")
                .build());
    db.close();
    db = Viewbase.open(OpenOptions.at(dir));
    assertThat(db.viewStatus("ByCity").state()).isEqualTo(ViewStatus.READY);
    assertThat(db.table("ByEmail").get("all", "d@x")).isPresent();
    assertThat(db.table("ByCity").get("Bern", "4")).isPresent();
    assertThat(db.viewStatus("ByName").conflicts()).hasSize(2);
  }

  private void writeOldDatabase() throws ConditionFailedException {
    try (Store store =
        CoreDatabaseProvider.find("rocksdb").open(new StoreConfig(dir, true, Map.of()))) {
      List<Mutation> batch = new ArrayList<>();
      batch.add(meta("nextTableId", Map.of("value", Value.of(GONE + 1))));
      batch.add(meta("tokenSecret", Map.of("value", Value.of(SECRET))));
      batch.add(meta("catalogGeneration", Map.of("value", Value.of(42L))));
      batch.add(table(record("People", PEOPLE)));

      Map<String, Map<String, Value>> people = new LinkedHashMap<>();
      people.put(
          "1",
          Map.of(
              "email",
              Value.of("a@x"),
              "city",
              Value.of("Oslo"),
              "active",
              Value.of(true),
              "name",
              Value.of("Ann")));
      people.put(
          "2",
          Map.of(
              "email",
              Value.of("b@x"),
              "city",
              Value.of("Rome"),
              "active",
              Value.of(true),
              "name",
              Value.of("Bob")));
      people.put(
          "3",
          Map.of(
              "email",
              Value.of("c@x"),
              "city",
              Value.of("Oslo"),
              "active",
              Value.of(false),
              "name",
              Value.of("Ann")));
      people.forEach(
          (id, p) -> batch.add(put(KeyLayout.partition(PEOPLE, "p"), id, ItemCodec.encode(p))));

      Map<String, Value> byEmail =
          view(record("ByEmail", BY_EMAIL), "all", "{email}", null, List.of());
      finish(byEmail, "ready", 3, 3);
      batch.add(table(byEmail));
      people.forEach(
          (id, p) ->
              batch.add(
                  put(
                      KeyLayout.partition(BY_EMAIL, "all"),
                      ((Value.Str) p.get("email")).value(),
                      ItemCodec.encodeView("p", id, p))));

      Map<String, Value> byCity =
          view(
              record("ByCity", BY_CITY),
              "{city}",
              "{id}",
              "active eq true",
              List.of("name", "city"));
      byCity.put("state", Value.of("building"));
      byCity.put("done", Value.of(1L));
      byCity.put("total", Value.of(3L));
      byCity.put("resumePartition", Value.of(KeyLayout.partition(PEOPLE, "p")));
      byCity.put("resumeKey", Value.of(KeyLayout.sortKey("1")));
      byCity.put("conflicts", new Value.Arr(List.of()));
      batch.add(table(byCity));
      Map<String, Value> projected = new LinkedHashMap<>(); // in the order of select
      projected.put("name", Value.of("Ann"));
      projected.put("city", Value.of("Oslo"));
      batch.add(
          put(
              KeyLayout.partition(BY_CITY, "Oslo"),
              "1",
              ItemCodec.encodeView("p", "1", projected)));

      Map<String, Value> byName = view(record("ByName", BY_NAME), "all", "{name}", null, List.of());
      byName.put("state", Value.of("failed"));
      byName.put("done", Value.of(2L));
      byName.put("total", Value.of(3L));
      Map<String, Value> clash = new LinkedHashMap<>();
      clash.put("viewPartitionKey", Value.of("all"));
      clash.put("viewId", Value.of("Ann"));
      clash.put("sourcePartitionKey", Value.of("p"));
      clash.put("sourceId", Value.of("3"));
      clash.put("otherSourcePartitionKey", Value.of("p"));
      clash.put("otherSourceId", Value.of("1"));
      byName.put(
          "conflicts",
          new Value.Arr(
              List.of(
                  new Value.Obj(clash),
                  new Value.Obj(Map.of("otherSourceId", Value.of("backfill error: gone"))))));
      batch.add(table(byName));

      Map<String, Value> copy = view(record("Copy", COPY), null, null, null, List.of());
      finish(copy, "ready", 3, 3);
      batch.add(table(copy));
      people.forEach(
          (id, p) ->
              batch.add(put(KeyLayout.partition(COPY, "p"), id, ItemCodec.encodeView("p", id, p))));

      batch.add(
          put(
              KeyLayout.partition(KeyLayout.SYSTEM_TABLE_ID, "purge"),
              KeyLayout.tablePrefix(GONE),
              ItemCodec.encode(Map.of("name", Value.of("Gone")))));
      batch.add(put(KeyLayout.partition(GONE, "x"), "y", ItemCodec.encode(Map.of())));
      batch.add(
          put(
              KeyLayout.partition(KeyLayout.SYSTEM_TABLE_ID, "settings"),
              Bytes.concat(KeyLayout.tablePrefix(PEOPLE), KeyLayout.sortKey("azure.acl")),
              ItemCodec.encode(Map.of("value", Value.of("acl")))));
      batch.add(
          put(
              KeyLayout.partition(KeyLayout.SYSTEM_TABLE_ID, "settings"),
              Bytes.concat(
                  KeyLayout.tablePrefix(KeyLayout.SYSTEM_TABLE_ID),
                  KeyLayout.sortKey("azure.service")),
              ItemCodec.encode(Map.of("value", Value.of("props")))));
      store.commit(batch);
    }
  }

  /** A table's record as the catalog wrote it: {name, tableId, created}. */
  private static Map<String, Value> record(String name, int id) {
    Map<String, Value> record = new LinkedHashMap<>();
    record.put("name", Value.of(name));
    record.put("tableId", Value.of(id));
    record.put("created", Value.of(CREATED));
    return record;
  }

  /** A view's record up to its select, as the catalog wrote it; the state and progress follow. */
  private static Map<String, Value> view(
      Map<String, Value> record,
      String partitionBy,
      String idBy,
      String where,
      List<String> select) {
    record.put("source", Value.of("People"));
    if (partitionBy != null) {
      record.put("partitionBy", Value.of(partitionBy));
    }
    if (idBy != null) {
      record.put("idBy", Value.of(idBy));
    }
    if (where != null) {
      record.put("where", Value.of(where));
    }
    record.put("select", new Value.Arr(select.stream().map(Value::of).toList()));
    return record;
  }

  private static void finish(Map<String, Value> view, String state, long done, long total) {
    view.put("state", Value.of(state));
    view.put("done", Value.of(done));
    view.put("total", Value.of(total));
    view.put("conflicts", new Value.Arr(List.of()));
  }

  private Mutation table(Map<String, Value> record) {
    String name = ((Value.Str) record.get("name")).value().toLowerCase(java.util.Locale.ROOT);
    return put(
        KeyLayout.partition(KeyLayout.SYSTEM_TABLE_ID, "tables"), name, ItemCodec.encode(record));
  }

  private Mutation meta(String key, Map<String, Value> value) {
    return put(
        KeyLayout.partition(KeyLayout.SYSTEM_TABLE_ID, "meta"), key, ItemCodec.encode(value));
  }

  private Mutation put(byte[] partition, String key, byte[] value) {
    return put(partition, KeyLayout.sortKey(key), value);
  }

  private Mutation put(byte[] partition, byte[] key, byte[] value) {
    return Mutation.put(partition, key, version++, value);
  }

  private static long count(Store store, byte[] partitionPrefix) {
    long n = 0;
    try (Cursor c = store.scanAll(partitionPrefix, null, null)) {
      while (c.next()) {
        n++;
      }
    }
    return n;
  }
}
