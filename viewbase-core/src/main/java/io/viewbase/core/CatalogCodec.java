package io.viewbase.core;

import io.viewbase.api.TableOptions;
import io.viewbase.api.Value;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The stored form of everything the catalog keeps in the system space: each value is an item in
 * {@link ItemCodec}'s encoding, with these properties (in this order; {@code ?} marks one left out
 * when absent):
 *
 * <pre>
 * stored under          | record          | properties
 * ----------------------+-----------------+-------------------------------------------------------------
 * tables / lower(name)  | TableRecord     | name: string, tableId: int32, created: datetime,
 *                       |                 | changeFeed?: {enabled, beforeImages: bool, retentionMillis,
 *                       |                 | maxEntries: int64}, ttlMillis?: int64 (both left out when
 *                       |                 | default: older catalogs read as the default options)
 * tables / lower(name)  | ViewRecord      | name, tableId, created, source: string, partitionBy?: string,
 *                       |                 | idBy?: string, where?: string, select: [string], state: string
 *                       |                 | (building, ready, failed), done: int64, total: int64,
 *                       |                 | resumePartition?: binary, resumeKey?: binary, conflicts: [{
 *                       |                 | viewPartitionKey?, viewId?, sourcePartitionKey?, sourceId?,
 *                       |                 | otherSourcePartitionKey?, otherSourceId?: string}],
 *                       |                 | kind?: string (history, partitions; absent: copy),
 *                       |                 | maxVersions?: int64, maxAge?: string (ISO-8601 duration),
 *                       |                 | countsAfter?: int64 (partitions views)
 * meta / nextTableId    | the next id     | value: int32
 * meta / tokenSecret    | the secret      | value: binary        (signs continuation tokens)
 * meta / catalogGeneration | a generation | value: int64         (random, rewritten by every change)
 * purge / tableId(4)    | a dropped table | name: string
 * settings / owner name | a setting       | value: string
 * </pre>
 *
 * A view record is told from a table's by its {@code source}. The last four were added with view
 * kinds; a record written before them is a copy view, and a copy view's record still leaves them
 * out, so it is stored as it always was. The layout is the one databases have been written with
 * since the catalog existed: change it only with a reader for the old one. A record that does not
 * follow it fails to decode with an {@link IllegalStateException} naming the property.
 */
final class CatalogCodec {
  private CatalogCodec() {}

  static byte[] encode(CatalogRecord record) {
    return ItemCodec.encode(
        record instanceof ViewRecord view ? viewProperties(view) : tableProperties(record.table()));
  }

  static CatalogRecord decode(byte[] bytes) {
    Map<String, Value> p = ItemCodec.decode(bytes);
    TableRecord table =
        new TableRecord(
            field(p, "name", Value.Str.class).value(),
            field(p, "tableId", Value.Int32.class).value(),
            field(p, "created", Value.DateTime.class).toInstant(),
            options(p));
    return p.containsKey("source") ? view(table, p) : table;
  }

  static byte[] encodeNextTableId(int id) {
    return single("value", Value.of(id));
  }

  static int decodeNextTableId(byte[] bytes) {
    return field(ItemCodec.decode(bytes), "value", Value.Int32.class).value();
  }

  static byte[] encodeTokenSecret(byte[] secret) {
    return single("value", Value.of(secret));
  }

  static byte[] decodeTokenSecret(byte[] bytes) {
    return field(ItemCodec.decode(bytes), "value", Value.Binary.class).value();
  }

  static byte[] encodeGeneration(long generation) {
    return single("value", Value.of(generation));
  }

  static long decodeGeneration(byte[] bytes) {
    return field(ItemCodec.decode(bytes), "value", Value.Int64.class).value();
  }

  /**
   * The purge record of a dropped table: its name, for the log of the open that finishes the drop.
   */
  static byte[] encodePurge(String tableName) {
    return single("name", Value.of(tableName));
  }

  static String decodePurge(byte[] bytes) {
    return field(ItemCodec.decode(bytes), "name", Value.Str.class).value();
  }

  static byte[] encodeSetting(String value) {
    return single("value", Value.of(value));
  }

  static String decodeSetting(byte[] bytes) {
    return field(ItemCodec.decode(bytes), "value", Value.Str.class).value();
  }

  private static Map<String, Value> tableProperties(TableRecord table) {
    Map<String, Value> p = new LinkedHashMap<>();
    p.put("name", Value.of(table.name()));
    p.put("tableId", Value.of(table.id()));
    p.put("created", Value.of(table.created()));
    TableOptions.ChangeFeed feed = table.options().changeFeed();
    if (!feed.equals(TableOptions.ChangeFeed.OFF)) {
      Map<String, Value> f = new LinkedHashMap<>();
      f.put("enabled", Value.of(feed.enabled()));
      f.put("beforeImages", Value.of(feed.beforeImages()));
      f.put("retentionMillis", Value.of(feed.retention().toMillis()));
      f.put("maxEntries", Value.of(feed.maxEntries()));
      p.put("changeFeed", new Value.Obj(f));
    }
    if (table.options().ttl() != null) {
      p.put("ttlMillis", Value.of(table.options().ttl().toMillis()));
    }
    return p;
  }

  private static TableOptions options(Map<String, Value> p) {
    TableOptions.ChangeFeed feed = TableOptions.ChangeFeed.OFF;
    if (p.containsKey("changeFeed")) {
      Map<String, Value> f = field(p, "changeFeed", Value.Obj.class).properties();
      feed =
          new TableOptions.ChangeFeed(
              field(f, "enabled", Value.Bool.class).value(),
              field(f, "beforeImages", Value.Bool.class).value(),
              Duration.ofMillis(field(f, "retentionMillis", Value.Int64.class).value()),
              field(f, "maxEntries", Value.Int64.class).value());
    }
    Duration ttl =
        p.containsKey("ttlMillis")
            ? Duration.ofMillis(field(p, "ttlMillis", Value.Int64.class).value())
            : null;
    return new TableOptions(feed, ttl);
  }

  private static Map<String, Value> viewProperties(ViewRecord view) {
    ViewDefinition d = view.definition();
    Map<String, Value> p = tableProperties(view.table());
    p.put("source", Value.of(d.source()));
    putIfNotNull(p, "partitionBy", d.partitionBy());
    putIfNotNull(p, "idBy", d.idBy());
    putIfNotNull(p, "where", d.where());
    p.put("select", new Value.Arr(d.select().stream().map(Value::of).toList()));
    p.put("state", Value.of(view.state().text()));
    p.put("done", Value.of(view.progress().done()));
    p.put("total", Value.of(view.progress().total()));
    ViewRecord.SourceEntry resume = view.progress().resumeAfter();
    if (resume != null) {
      p.put("resumePartition", Value.of(resume.partition()));
      p.put("resumeKey", Value.of(resume.key()));
    }
    List<Value> conflicts = new ArrayList<>();
    for (ViewStatus.Conflict c : view.conflicts()) {
      Map<String, Value> o = new LinkedHashMap<>();
      putIfNotNull(o, "viewPartitionKey", c.viewPartitionKey());
      putIfNotNull(o, "viewId", c.viewId());
      putIfNotNull(o, "sourcePartitionKey", c.sourcePartitionKey());
      putIfNotNull(o, "sourceId", c.sourceId());
      putIfNotNull(o, "otherSourcePartitionKey", c.otherSourcePartitionKey());
      putIfNotNull(o, "otherSourceId", c.otherSourceId());
      conflicts.add(new Value.Obj(o));
    }
    p.put("conflicts", new Value.Arr(conflicts));
    if (d.kind() != ViewDefinition.Kind.COPY) {
      p.put("kind", Value.of(d.kind().text()));
    }
    if (d.retention() != null) {
      p.put("maxVersions", Value.of(d.retention().maxVersions()));
      if (d.retention().maxAge() != null) {
        p.put("maxAge", Value.of(d.retention().maxAge().toString()));
      }
    }
    if (view.countsAfter() != 0) {
      p.put("countsAfter", Value.of(view.countsAfter()));
    }
    return p;
  }

  private static ViewRecord view(TableRecord table, Map<String, Value> p) {
    List<String> select = new ArrayList<>();
    for (Value v : field(p, "select", Value.Arr.class).elements()) {
      select.add(element(v, "select", Value.Str.class).value());
    }
    ViewDefinition definition =
        new ViewDefinition(
            table.name(),
            field(p, "source", Value.Str.class).value(),
            textOf(p, "partitionBy"),
            textOf(p, "idBy"),
            textOf(p, "where"),
            select,
            kindOf(p),
            retentionOf(p));
    String state = field(p, "state", Value.Str.class).value();
    ViewState viewState;
    try {
      viewState = ViewState.of(state);
    } catch (IllegalArgumentException e) {
      throw damaged("state", "building, ready or failed, not " + state);
    }
    ViewRecord.SourceEntry resume =
        p.get("resumePartition") instanceof Value.Binary rp
                && p.get("resumeKey") instanceof Value.Binary rk
            ? new ViewRecord.SourceEntry(rp.value(), rk.value())
            : null;
    ViewRecord.Progress progress =
        new ViewRecord.Progress(
            field(p, "done", Value.Int64.class).value(),
            field(p, "total", Value.Int64.class).value(),
            resume);
    List<ViewStatus.Conflict> conflicts = new ArrayList<>();
    for (Value v : field(p, "conflicts", Value.Arr.class).elements()) {
      Map<String, Value> c = element(v, "conflicts", Value.Obj.class).properties();
      conflicts.add(
          new ViewStatus.Conflict(
              textOf(c, "viewPartitionKey"),
              textOf(c, "viewId"),
              textOf(c, "sourcePartitionKey"),
              textOf(c, "sourceId"),
              textOf(c, "otherSourcePartitionKey"),
              textOf(c, "otherSourceId")));
    }
    long countsAfter =
        p.get("countsAfter") == null ? 0 : field(p, "countsAfter", Value.Int64.class).value();
    return new ViewRecord(table, definition, viewState, progress, conflicts, countsAfter);
  }

  private static ViewDefinition.Kind kindOf(Map<String, Value> p) {
    if (p.get("kind") == null) {
      return ViewDefinition.Kind.COPY; // written before view kinds: every view was a copy
    }
    String text = field(p, "kind", Value.Str.class).value();
    ViewDefinition.Kind kind = ViewDefinition.Kind.of(text);
    if (kind == null) {
      throw damaged("kind", "copy, history or partitions, not " + text);
    }
    return kind;
  }

  private static ViewDefinition.Retention retentionOf(Map<String, Value> p) {
    if (p.get("maxVersions") == null) {
      return null;
    }
    long versions = field(p, "maxVersions", Value.Int64.class).value();
    Duration age = null;
    if (p.get("maxAge") != null) {
      String text = field(p, "maxAge", Value.Str.class).value();
      try {
        age = Duration.parse(text);
      } catch (DateTimeParseException e) {
        throw damaged("maxAge", "an ISO-8601 duration, not " + text);
      }
    }
    return new ViewDefinition.Retention(versions, age);
  }

  private static byte[] single(String name, Value value) {
    return ItemCodec.encode(Map.of(name, value));
  }

  private static void putIfNotNull(Map<String, Value> p, String name, String value) {
    if (value != null) {
      p.put(name, Value.of(value));
    }
  }

  private static String textOf(Map<String, Value> p, String name) {
    return p.get(name) instanceof Value.Str s ? s.value() : null;
  }

  private static <T extends Value> T field(Map<String, Value> p, String name, Class<T> type) {
    return element(p.get(name), name, type);
  }

  private static <T extends Value> T element(Value v, String name, Class<T> type) {
    if (!type.isInstance(v)) {
      throw damaged(
          name, v == null ? "missing" : "a " + v.type() + ", not a " + type.getSimpleName());
    }
    return type.cast(v);
  }

  private static IllegalStateException damaged(String property, String what) {
    return new IllegalStateException("A catalog record is damaged: " + property + " is " + what);
  }
}
