package io.viewbase.core;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.TableInfo;
import io.viewbase.api.Value;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import io.viewbase.api.ViewbaseException;
import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.Versioned;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tables of a database, persisted in the system space (table id 0) of the store itself, as
 * items in the ordinary item encoding:
 *
 * <pre>
 * partition "tables", key lower(name)   {name, tableId, created}
 * partition "meta",   key "nextTableId" {value}
 * partition "meta",   key "tokenSecret" {value: binary}   signs continuation tokens
 * partition "purge",  key tableId(4)    {name}             a dropped table whose data is being removed
 * </pre>
 *
 * Table ids are never reused, so data left behind by a crash during a drop can never reappear in a
 * new table; the purge record makes the next open finish the job.
 */
final class Catalog {
  private static final Logger LOG = LoggerFactory.getLogger(Catalog.class);
  private static final int PURGE_CHUNK = 1000;

  private static final byte[] TABLES = KeyLayout.partition(KeyLayout.SYSTEM_TABLE_ID, "tables");
  private static final byte[] META = KeyLayout.partition(KeyLayout.SYSTEM_TABLE_ID, "meta");
  private static final byte[] PURGE = KeyLayout.partition(KeyLayout.SYSTEM_TABLE_ID, "purge");
  private static final byte[] NEXT_TABLE_ID = bytes("nextTableId");
  private static final byte[] TOKEN_SECRET = bytes("tokenSecret");

  private final Store store;
  private final VersionClock clock;
  private final Map<String, TableEntry> tables = new ConcurrentHashMap<>();
  private byte[] tokenSecret;

  Catalog(Store store, VersionClock clock) {
    this.store = store;
    this.clock = clock;
  }

  /** Reads the catalog, creating the database metadata on first open and finishing interrupted drops. */
  void load() {
    List<Map<String, Value>> viewRecords = new ArrayList<>();
    try (Cursor c = store.scan(TABLES, KeyRange.ALL, false)) {
      while (c.next()) {
        clock.observe(c.version());
        Map<String, Value> p = ItemCodec.decode(c.value());
        if (p.containsKey("source")) {
          viewRecords.add(p);
          continue;
        }
        String name = ((Value.Str) p.get("name")).value();
        tables.put(name.toLowerCase(Locale.ROOT), new TableEntry(name, intOf(p, "tableId"), instantOf(p, "created")));
      }
    }
    for (Map<String, Value> p : viewRecords) {
      loadView(p);
    }
    tokenSecret = loadOrCreateSecret();
    List<Integer> unfinished = new ArrayList<>();
    try (Cursor c = store.scan(PURGE, KeyRange.ALL, false)) {
      while (c.next()) {
        byte[] k = c.key();
        unfinished.add(((k[0] & 0xFF) << 24) | ((k[1] & 0xFF) << 16) | ((k[2] & 0xFF) << 8) | (k[3] & 0xFF));
      }
    }
    for (int id : unfinished) {
      LOG.info("Finishing the drop of table id {} interrupted before the last shutdown", id);
      purge(id);
    }
  }

  private void loadView(Map<String, Value> p) {
    String name = textOf(p, "name");
    TableEntry source = tables.get(textOf(p, "source").toLowerCase(Locale.ROOT));
    if (source == null || source.isView()) {
      LOG.warn("View {} names source {}, which does not exist; it is left out", name, textOf(p, "source"));
      return;
    }
    List<String> select = new ArrayList<>();
    for (Value v : ((Value.Arr) p.get("select")).elements()) {
      select.add(((Value.Str) v).value());
    }
    ViewDefinition definition = new ViewDefinition(name, source.name(), textOf(p, "partitionBy"), textOf(p, "idBy"),
        textOf(p, "where"), select);
    TableEntry entry = new TableEntry(name, intOf(p, "tableId"), instantOf(p, "created"));
    ViewHandle handle = new ViewHandle(entry, source, ViewSpec.compile(definition), textOf(p, "state"));
    handle.done().set(((Value.Int64) p.get("done")).value());
    handle.total(((Value.Int64) p.get("total")).value());
    if (p.get("resumePartition") instanceof Value.Binary rp && p.get("resumeKey") instanceof Value.Binary rk) {
      handle.resumeAfter(rp.value(), rk.value());
    }
    List<ViewStatus.Conflict> conflicts = new ArrayList<>();
    for (Value v : ((Value.Arr) p.get("conflicts")).elements()) {
      Map<String, Value> c = ((Value.Obj) v).properties();
      conflicts.add(new ViewStatus.Conflict(textOf(c, "viewPartitionKey"), textOf(c, "viewId"),
          textOf(c, "sourcePartitionKey"), textOf(c, "sourceId"), textOf(c, "otherSourcePartitionKey"),
          textOf(c, "otherSourceId")));
    }
    handle.conflicts(conflicts);
    entry.view(handle);
    tables.put(name.toLowerCase(Locale.ROOT), entry);
    if (handle.isMaintained()) {
      source.addView(handle);
    }
  }

  /** The views whose backfill had not finished at the last shutdown. */
  List<ViewHandle> buildingViews() {
    return tables.values().stream().map(TableEntry::view)
        .filter(v -> v != null && ViewStatus.BUILDING.equals(v.state())).toList();
  }

  byte[] tokenSecret() {
    return tokenSecret;
  }

  TableEntry require(String name) {
    TableEntry entry = name == null ? null : tables.get(name.toLowerCase(Locale.ROOT));
    if (entry == null) {
      throw ViewbaseException.of(ErrorCode.TableNotFound, "The table does not exist", "table", name);
    }
    return entry;
  }

  List<TableInfo> list() {
    return tables.values().stream()
        .sorted(Comparator.comparing(e -> e.name().toLowerCase(Locale.ROOT)))
        .map(TableEntry::info)
        .toList();
  }

  synchronized TableInfo create(String name) {
    checkNameFree(name);
    TableEntry entry = allocate(name, id -> {
      Map<String, Value> record = new LinkedHashMap<>();
      record.put("name", Value.of(name));
      record.put("tableId", Value.of(id));
      record.put("created", Value.of(Instant.now()));
      return record;
    });
    tables.put(name.toLowerCase(Locale.ROOT), entry);
    return entry.info();
  }

  /** Registers a view in state building; every source write maintains it from the moment this returns. */
  synchronized ViewHandle createView(ViewDefinition definition) {
    checkNameFree(definition.name());
    TableEntry source = require(definition.source());
    if (source.isView()) {
      throw ViewbaseException.of(ErrorCode.InvalidView, "The source of a view must be a table, not a view",
          "view", definition.name(), "source", definition.source());
    }
    ViewDefinition named = new ViewDefinition(definition.name(), source.name(), definition.partitionBy(),
        definition.idBy(), definition.where(), definition.select());
    ViewSpec spec = ViewSpec.compile(named);
    Instant created = Instant.now();
    TableEntry allocated = allocate(named.name(), id -> {
      ViewHandle draft = new ViewHandle(new TableEntry(named.name(), id, created), source, spec, ViewStatus.BUILDING);
      return viewRecord(draft);
    });
    ViewHandle handle = new ViewHandle(allocated, source, spec, ViewStatus.BUILDING);
    allocated.view(handle);
    tables.put(named.name().toLowerCase(Locale.ROOT), allocated);
    source.addView(handle);
    return handle;
  }

  /** The catalog write that records a view's state and backfill position. */
  Mutation viewRecordPut(ViewHandle handle) {
    return new Mutation.Put(TABLES, bytes(handle.name().toLowerCase(Locale.ROOT)), clock.next(),
        ItemCodec.encode(viewRecord(handle)), Condition.NONE);
  }

  /** Records a view's final state: ready, or failed (its data is then removed). */
  synchronized void finishView(ViewHandle handle, String state) {
    if (handle.isStopped() && !ViewStatus.FAILED.equals(state)) {
      return;
    }
    handle.state(state);
    if (ViewStatus.FAILED.equals(state)) {
      handle.stop();
      handle.source().removeView(handle);
    }
    if (tables.get(handle.name().toLowerCase(Locale.ROOT)) == handle.table()) {
      commitUnconditional(List.of(viewRecordPut(handle)));
    }
    if (ViewStatus.FAILED.equals(state)) {
      purgeData(handle.table().id());
    }
  }

  private Map<String, Value> viewRecord(ViewHandle handle) {
    ViewDefinition d = handle.spec().definition();
    Map<String, Value> record = new LinkedHashMap<>();
    record.put("name", Value.of(d.name()));
    record.put("tableId", Value.of(handle.table().id()));
    record.put("created", Value.of(handle.table().created()));
    record.put("source", Value.of(d.source()));
    putIfNotNull(record, "partitionBy", d.partitionBy());
    putIfNotNull(record, "idBy", d.idBy());
    putIfNotNull(record, "where", d.where());
    record.put("select", new Value.Arr(d.select().stream().map(Value::of).toList()));
    record.put("state", Value.of(handle.state()));
    record.put("done", Value.of(handle.done().get()));
    record.put("total", Value.of(handle.total()));
    if (handle.resumePartition() != null) {
      record.put("resumePartition", Value.of(handle.resumePartition()));
      record.put("resumeKey", Value.of(handle.resumeKey()));
    }
    List<Value> conflicts = new ArrayList<>();
    for (ViewStatus.Conflict c : handle.conflicts()) {
      Map<String, Value> o = new LinkedHashMap<>();
      putIfNotNull(o, "viewPartitionKey", c.viewPartitionKey());
      putIfNotNull(o, "viewId", c.viewId());
      putIfNotNull(o, "sourcePartitionKey", c.sourcePartitionKey());
      putIfNotNull(o, "sourceId", c.sourceId());
      putIfNotNull(o, "otherSourcePartitionKey", c.otherSourcePartitionKey());
      putIfNotNull(o, "otherSourceId", c.otherSourceId());
      conflicts.add(new Value.Obj(o));
    }
    record.put("conflicts", new Value.Arr(conflicts));
    return record;
  }

  private void checkNameFree(String name) {
    ItemRules.checkTableName(name);
    if (tables.containsKey(name.toLowerCase(Locale.ROOT))) {
      throw ViewbaseException.of(ErrorCode.TableAlreadyExists, "A table or view with this name already exists",
          "table", name);
    }
  }

  /** Takes the next table id and stores the catalog record built for it, atomically. */
  private TableEntry allocate(String name, java.util.function.IntFunction<Map<String, Value>> recordFor) {
    String lower = name.toLowerCase(Locale.ROOT);
    while (true) {
      Optional<Versioned> counter = store.get(META, NEXT_TABLE_ID);
      int id = counter.map(v -> intOf(ItemCodec.decode(v.value()), "value")).orElse(1);
      Condition counterCondition = counter.map(v -> Condition.version(v.version())).orElse(Condition.ABSENT);
      Map<String, Value> record = recordFor.apply(id);
      long version = clock.next();
      try {
        store.commit(List.of(
            new Mutation.Put(META, NEXT_TABLE_ID, version, ItemCodec.encode(Map.of("value", Value.of(id + 1))),
                counterCondition),
            new Mutation.Put(TABLES, bytes(lower), version, ItemCodec.encode(record), Condition.ABSENT)));
      } catch (ConditionFailedException e) {
        if (e.index() == 1) {
          throw ViewbaseException.of(ErrorCode.TableAlreadyExists, "A table or view with this name already exists",
              "table", name);
        }
        continue; // another process took this id first; take the next
      }
      return new TableEntry(name, id, instantOf(record, "created"));
    }
  }

  /** Drops a table with its views, or a view. */
  synchronized void drop(String name) {
    TableEntry entry = require(name);
    if (entry.isView()) {
      dropView(entry);
      return;
    }
    for (ViewHandle view : entry.views()) {
      dropView(view.table());
    }
    dropEntry(entry);
  }

  synchronized void dropView(String name) {
    TableEntry entry = require(name);
    if (!entry.isView()) {
      throw ViewbaseException.of(ErrorCode.InvalidView, "This is a table, not a view; drop it as a table",
          "view", name);
    }
    dropView(entry);
  }

  private void dropView(TableEntry entry) {
    ViewHandle handle = entry.view();
    handle.stop();
    handle.source().removeView(handle);
    dropEntry(entry);
  }

  private void dropEntry(TableEntry entry) {
    entry.markDropped();
    byte[] purgeKey = KeyLayout.tablePrefix(entry.id());
    commitUnconditional(List.of(
        new Mutation.Delete(TABLES, bytes(entry.name().toLowerCase(Locale.ROOT)), Condition.NONE),
        new Mutation.Put(PURGE, purgeKey, clock.next(), ItemCodec.encode(Map.of("name", Value.of(entry.name()))),
            Condition.NONE)));
    tables.remove(entry.name().toLowerCase(Locale.ROOT));
    purge(entry.id());
  }

  /** Deletes every item of a dropped table in bounded chunks, then its purge record. */
  private void purge(int tableId) {
    purgeData(tableId);
    commitUnconditional(List.of(Mutation.delete(PURGE, KeyLayout.tablePrefix(tableId))));
  }

  /** Deletes every entry stored under a table id, in bounded chunks. */
  void purgeData(int tableId) {
    byte[] prefix = KeyLayout.tablePrefix(tableId);
    while (true) {
      List<Mutation> chunk = new ArrayList<>(PURGE_CHUNK);
      try (Cursor c = store.scanAll(prefix, null, null)) {
        while (chunk.size() < PURGE_CHUNK && c.next()) {
          chunk.add(Mutation.delete(c.partition(), c.key()));
        }
      }
      if (chunk.isEmpty()) {
        break;
      }
      commitUnconditional(chunk);
    }
  }

  private byte[] loadOrCreateSecret() {
    Optional<Versioned> stored = store.get(META, TOKEN_SECRET);
    if (stored.isPresent()) {
      return ((Value.Binary) ItemCodec.decode(stored.get().value()).get("value")).value();
    }
    byte[] secret = new byte[32];
    new SecureRandom().nextBytes(secret);
    try {
      store.commit(List.of(new Mutation.Put(META, TOKEN_SECRET, clock.next(),
          ItemCodec.encode(Map.of("value", Value.of(secret))), Condition.ABSENT)));
      return secret;
    } catch (ConditionFailedException e) {
      return loadOrCreateSecret(); // another process created it first
    }
  }

  private void commitUnconditional(List<Mutation> batch) {
    try {
      store.commit(batch);
    } catch (ConditionFailedException e) {
      throw new IllegalStateException("unconditional write failed", e);
    }
  }

  private static void putIfNotNull(Map<String, Value> record, String name, String value) {
    if (value != null) {
      record.put(name, Value.of(value));
    }
  }

  private static String textOf(Map<String, Value> p, String name) {
    return p.get(name) instanceof Value.Str s ? s.value() : null;
  }

  private static int intOf(Map<String, Value> p, String name) {
    return ((Value.Int32) p.get(name)).value();
  }

  private static Instant instantOf(Map<String, Value> p, String name) {
    return ((Value.DateTime) p.get(name)).toInstant();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
