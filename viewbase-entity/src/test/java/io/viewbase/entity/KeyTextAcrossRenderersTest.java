package io.viewbase.entity;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.KeyText;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Query;
import io.viewbase.api.Value;
import io.viewbase.api.Viewbase;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@link KeyText}, the one rule for a value's text in a key, through both of its renderers: the
 * entity layer computes a key on the client ({@code KeyFormat}) and the database renders the same
 * key as a view template ({@code KeyTemplate}) from the stored item. For each value, padded or not,
 * in each casing, both give the same key, and it is the one the table below expects.
 */
class KeyTextAcrossRenderersTest {
  /** A value of each kind a key can hold, and its text unpadded and padded to 8, before casing. */
  private record Row(Object value, String text, String padded) {}

  private static final List<Row> ROWS =
      List.of(
          new Row("MiXeD", "MiXeD", "000MiXeD"),
          new Row(-42, "-42", "-0000042"),
          new Row(1L << 40, "1099511627776", "1099511627776"),
          new Row(1.5, "1.5", "000001.5"),
          new Row(true, "true", "0000true"),
          new Row(
              Instant.parse("2001-02-03T04:05:06.7Z"),
              "2001-02-03T04:05:06.7000000Z",
              "2001-02-03T04:05:06.7000000Z"),
          new Row(
              UUID.fromString("0F8FAD5B-D9CB-469F-A165-70867728950E"),
              "0f8fad5b-d9cb-469f-a165-70867728950e",
              "0f8fad5b-d9cb-469f-a165-70867728950e"));

  @Test
  void clientAndDatabaseRenderEveryValueAlikeInEveryCasing() {
    try (Database db = Viewbase.open(OpenOptions.inMemory())) {
      for (Casing casing : Casing.values()) {
        Entity.Builder<Map<String, Object>> b =
            Entity.define("thing")
                .service("s" + casing.name().toLowerCase())
                .attribute(Attribute.string("thingId"))
                .index(Index.primary("byId").pk("thingId"));
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("thingId", "t1");
        for (int i = 0; i < ROWS.size(); i++) {
          b.attribute(Attribute.any("v" + i))
              .attribute(Attribute.any("p" + i).padding(8))
              .index(Index.secondary("byV" + i).sk("v" + i).casing(casing).unique())
              .index(Index.secondary("byP" + i).sk("p" + i).casing(casing).unique());
          item.put("v" + i, ROWS.get(i).value());
          item.put("p" + i, ROWS.get(i).value());
        }
        Entity<Map<String, Object>> things = b.build();
        ServiceTable table =
            Service.define("s" + casing.name().toLowerCase())
                .entity(things)
                .build()
                .open(db, "Keys" + casing.name(), Duration.ofSeconds(30));
        table.entity(things).create(item);

        List<String> wrong = new ArrayList<>();
        var keyValues = things.mapper().keyValues(item);
        for (int i = 0; i < ROWS.size(); i++) {
          for (String attribute : List.of("v" + i, "p" + i)) {
            String index = attribute.startsWith("v") ? "byV" + i : "byP" + i;
            String text = attribute.startsWith("v") ? ROWS.get(i).text() : ROWS.get(i).padded();
            String expected = casing.apply("$thing_1#" + attribute + "_") + casing.apply(text);
            String client = things.layout(index).sk().render(keyValues);
            var entries = db.table(table.viewName(things, index)).query(Query.all()).items();
            String database =
                entries.size() == 1 ? entries.get(0).id() : entries.size() + " entries";
            if (!expected.equals(client) || !expected.equals(database)) {
              wrong.add(
                  casing
                      + " "
                      + attribute
                      + ": expected "
                      + expected
                      + ", client "
                      + client
                      + ", database "
                      + database);
            }
          }
        }
        assertThat(wrong).isEmpty();
      }
    }
  }

  /** Values for a {@code ${v|key}} slot: every kind {@link KeyText#sortable} renders. */
  private static final List<Object> SORTABLE =
      List.of(
          "user#123",
          "a b!~\u0001",
          "😀",
          "",
          -42,
          1L << 40,
          1.5,
          -0.0,
          0.1,
          Value.of(new BigDecimal("12.50")),
          Value.of(new BigDecimal("-1E-130")),
          new byte[] {0, (byte) 0xff});

  @Test
  void clientAndDatabaseRenderSortableSlotsAlike() {
    try (Database db = Viewbase.open(OpenOptions.inMemory())) {
      Entity.Builder<Map<String, Object>> b =
          Entity.define("thing")
              .service("s")
              .attribute(Attribute.string("thingId"))
              .index(Index.primary("byId").pk("thingId"));
      Map<String, Object> item = new LinkedHashMap<>();
      item.put("thingId", "t1");
      for (int i = 0; i < SORTABLE.size(); i++) {
        b.attribute(Attribute.any("v" + i))
            .index(
                Index.secondary("byV" + i)
                    .sk(KeyDefinition.template("v#${v" + i + "|key}${thingId|key}"))
                    .unique());
        item.put("v" + i, SORTABLE.get(i));
      }
      Entity<Map<String, Object>> things = b.build();
      ServiceTable table =
          Service.define("s").entity(things).build().open(db, "Sortable", Duration.ofSeconds(30));
      table.entity(things).create(item);

      List<String> wrong = new ArrayList<>();
      var keyValues = things.mapper().keyValues(item);
      for (int i = 0; i < SORTABLE.size(); i++) {
        String expected =
            "v#" + KeyText.sortable(keyValues.get("v" + i)) + KeyText.sortable(Value.of("t1"));
        String client = things.layout("byV" + i).sk().render(keyValues);
        var entries = db.table(table.viewName(things, "byV" + i)).query(Query.all()).items();
        String database = entries.size() == 1 ? entries.get(0).id() : entries.size() + " entries";
        if (!expected.equals(client) || !expected.equals(database)) {
          wrong.add(
              "v"
                  + i
                  + ": expected '"
                  + expected
                  + "', client '"
                  + client
                  + "', database '"
                  + database
                  + "'");
        }
      }
      assertThat(wrong).isEmpty();
    }
  }
}
