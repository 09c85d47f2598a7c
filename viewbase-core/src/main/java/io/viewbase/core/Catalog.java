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
import io.viewbase.storage.spi.StorageException;
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
import java.util.concurrent.ThreadLocalRandom;
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
 * partition "meta",   key "catalogGeneration" {value: random} rewritten by every change of tables or views
 * partition "purge",  key tableId(4)    {name}             a dropped table whose data is being removed
 * partition "settings", key ownerId(4) name {value}        protocol settings ({@link CatalogSettings})
 * </pre>
 *
 * Table ids are never reused, so data left behind by a crash during a drop can never reappear in a
 * new table; the purge record makes the next open finish the job. A table's settings are deleted
 * in the commit that drops it.
 *
 * <p>The catalog is held in memory. When several processes share the store (see
 * {@link CatalogRefresh}), each change also rewrites the generation, and {@link #refresh()} reads the
 * catalog again when the generation differs from the one last read:
 *
 * <table>
 *   <caption>what a refresh does with each record, against what this process holds</caption>
 *   <tr><th>stored</th><th>held</th><th>then</th></tr>
 *   <tr><td>a table or view</td><td>nothing, or another id under that name</td><td>learnt (a view is maintained
 *       by this process's writes from then on; its backfill stays with the process that created it)</td></tr>
 *   <tr><td>nothing</td><td>a table or view</td><td>forgotten: writes in flight finish, later ones fail with
 *       TableNotFound</td></tr>
 *   <tr><td>a view ready or failed</td><td>the view building</td><td>takes the stored state (failed: no longer
 *       maintained)</td></tr>
 * </table>
 */
final class Catalog {
  private static final Logger LOG = LoggerFactory.getLogger(Catalog.class);
  private static final int PURGE_CHUNK = 1000;

  private static final byte[] TABLES = KeyLayout.partition(KeyLayout.SYSTEM_TABLE_ID, "tables");
  private static final byte[] META = KeyLayout.partition(KeyLayout.SYSTEM_TABLE_ID, "meta");
  private static final byte[] PURGE = KeyLayout.partition(KeyLayout.SYSTEM_TABLE_ID, "purge");
  private static final byte[] NEXT_TABLE_ID = bytes("nextTableId");
  private static final byte[] TOKEN_SECRET = bytes("tokenSecret");
  private static final byte[] GENERATION = bytes("catalogGeneration");

  private final Store store;
  private final VersionClock clock;
  private final CatalogSettings settings;
  private final Map<String, TableEntry> tables = new ConcurrentHashMap<>();
  private byte[] tokenSecret;
  /** Null while this process is the store's only user; else how often the catalog is read again. */
  private final CatalogRefresh refresh;
  /** The stored generation that the catalog in memory reflects. */
  private volatile long generation;
  /** When this process last knew its catalog to be current ({@link System#nanoTime()}). */
  private volatile long refreshedAt;

  Catalog(Store store, VersionClock clock, CatalogRefresh refresh) {
    this.store = store;
    this.clock = clock;
    this.refresh = refresh;
    this.settings = new CatalogSettings(store, clock);
  }

  /** Reads the catalog, creating the database metadata on first open and finishing interrupted drops. */
  void load() {
    long now = System.nanoTime();
    generation = storedGeneration();
    List<Map<String, Value>> viewRecords = new ArrayList<>();
    for (Map<String, Value> p : readRecords()) {
      if (p.containsKey("source")) {
        viewRecords.add(p);
        continue;
      }
      String name = ((Value.Str) p.get("name")).value();
      tables.put(name.toLowerCase(Locale.ROOT), new TableEntry(name, intOf(p, "tableId"), instantOf(p, "created")));
    }
    for (Map<String, Value> p : viewRecords) {
      loadView(p);
    }
    refreshedAt = now;
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

  private List<Map<String, Value>> readRecords() {
    List<Map<String, Value>> records = new ArrayList<>();
    try (Cursor c = store.scan(TABLES, KeyRange.ALL, false)) {
      while (c.next()) {
        clock.observe(c.version());
        records.add(ItemCodec.decode(c.value()));
      }
    }
    return records;
  }

  private long storedGeneration() {
    return store.get(META, GENERATION).map(v -> ((Value.Int64) ItemCodec.decode(v.value()).get("value")).value())
        .orElse(0L);
  }

  /** The write that tells other processes sharing the store that the catalog changed. */
  private Mutation generationPut() {
    long next = ThreadLocalRandom.current().nextLong();
    return new Mutation.Put(META, GENERATION, clock.next(), ItemCodec.encode(Map.of("value", Value.of(next))),
        Condition.NONE);
  }

  /**
   * Reads the catalog again if another process changed it since the last read (one point read when
   * nothing changed). Only for a store shared by several processes.
   */
  synchronized void refresh() {
    long startedAt = System.nanoTime();
    long stored = storedGeneration();
    if (stored != generation) {
      reload();
      generation = stored;
    }
    refreshedAt = startedAt;
  }

  private void reload() {
    List<Map<String, Value>> records = readRecords();
    Map<String, Map<String, Value>> stored = new LinkedHashMap<>();
    for (Map<String, Value> p : records) {
      stored.put(textOf(p, "name").toLowerCase(Locale.ROOT), p);
    }
    for (TableEntry held : List.copyOf(tables.values())) {
      Map<String, Value> p = stored.get(held.name().toLowerCase(Locale.ROOT));
      if (p == null || intOf(p, "tableId") != held.id()) {
        forget(held); // dropped by another process (and perhaps created again under a new id)
      }
    }
    for (Map<String, Value> p : records) {
      String lower = textOf(p, "name").toLowerCase(Locale.ROOT);
      if (!p.containsKey("source") && !tables.containsKey(lower)) {
        tables.put(lower, new TableEntry(textOf(p, "name"), intOf(p, "tableId"), instantOf(p, "created")));
      }
    }
    for (Map<String, Value> p : records) {
      if (!p.containsKey("source")) {
        continue;
      }
      TableEntry held = tables.get(textOf(p, "name").toLowerCase(Locale.ROOT));
      if (held == null) {
        loadView(p);
      } else if (held.isView()) {
        catchUp(held.view(), p);
      }
    }
  }

  /** Forgets a table or view that another process dropped. */
  private void forget(TableEntry entry) {
    if (entry.isView()) {
      entry.view().stop();
      entry.view().source().removeView(entry.view());
    }
    entry.markDropped();
    tables.remove(entry.name().toLowerCase(Locale.ROOT), entry);
  }

  /** Takes the state another process recorded for a view this process knows: only forward. */
  private void catchUp(ViewHandle handle, Map<String, Value> p) {
    String state = textOf(p, "state");
    if (ViewStatus.BUILDING.equals(handle.state()) && !ViewStatus.BUILDING.equals(state)) {
      handle.done().set(((Value.Int64) p.get("done")).value());
      handle.total(((Value.Int64) p.get("total")).value());
      handle.conflicts(conflictsOf(p));
      handle.state(state);
      if (ViewStatus.FAILED.equals(state)) {
        handle.stop();
        handle.source().removeView(handle);
      }
    } else if (ViewStatus.BUILDING.equals(state)) {
      long done = ((Value.Int64) p.get("done")).value();
      if (done > handle.done().get()) {
        handle.done().set(done); // progress of a backfill another process runs
        handle.total(((Value.Int64) p.get("total")).value());
      }
    }
  }

  private static List<ViewStatus.Conflict> conflictsOf(Map<String, Value> p) {
    List<ViewStatus.Conflict> conflicts = new ArrayList<>();
    for (Value v : ((Value.Arr) p.get("conflicts")).elements()) {
      Map<String, Value> c = ((Value.Obj) v).properties();
      conflicts.add(new ViewStatus.Conflict(textOf(c, "viewPartitionKey"), textOf(c, "viewId"),
          textOf(c, "sourcePartitionKey"), textOf(c, "sourceId"), textOf(c, "otherSourcePartitionKey"),
          textOf(c, "otherSourceId")));
    }
    return conflicts;
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
    handle.conflicts(conflictsOf(p));
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
    if (refresh != null && name != null && (entry == null || refresh.isStale(refreshedAt))) {
      // Shared store: a name unknown here may have been created by another process, and a catalog
      // not read for a while may miss a view this write must maintain.
      refreshOrFail();
      entry = tables.get(name.toLowerCase(Locale.ROOT));
    }
    if (entry == null) {
      throw ViewbaseException.of(ErrorCode.TableNotFound, "The table does not exist", "table", name);
    }
    return entry;
  }

  List<TableInfo> list() {
    if (refresh != null) {
      refreshOrFail();
    }
    return tables.values().stream()
        .sorted(Comparator.comparing(e -> e.name().toLowerCase(Locale.ROOT)))
        .map(TableEntry::info)
        .toList();
  }

  synchronized TableInfo create(String name) {
    refreshIfShared();
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
    refreshIfShared();
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
      commitUnconditional(List.of(viewRecordPut(handle), generationPut()));
    }
    if (ViewStatus.FAILED.equals(state)) {
      purgeDataWhenUnused(handle.table().id());
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

  /** {@link #refresh()} for callers outside a storage try-block: a storage failure becomes its error. */
  private void refreshOrFail() {
    try {
      refresh();
    } catch (StorageException e) {
      throw EmbeddedDatabase.storageError(e);
    }
  }

  private void refreshIfShared() {
    if (refresh != null) {
      refresh();
    }
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
            new Mutation.Put(TABLES, bytes(lower), version, ItemCodec.encode(record), Condition.ABSENT),
            generationPut()));
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
    refreshIfShared();
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
    refreshIfShared();
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
    List<Mutation> drop = new ArrayList<>(List.of(
        new Mutation.Delete(TABLES, bytes(entry.name().toLowerCase(Locale.ROOT)), Condition.NONE),
        new Mutation.Put(PURGE, purgeKey, clock.next(), ItemCodec.encode(Map.of("name", Value.of(entry.name()))),
            Condition.NONE),
        generationPut()));
    drop.addAll(settings.deletesOf(entry.id())); // the settings die with the table, in the same commit
    commitUnconditional(drop);
    tables.remove(entry.name().toLowerCase(Locale.ROOT));
    if (refresh == null) {
      purge(entry.id());
    } else {
      // Other processes may write under this id until they learn of the drop: purge after that.
      refresh.afterOthersLearn(() -> purge(entry.id()));
    }
  }

  private void purgeDataWhenUnused(int tableId) {
    if (refresh == null) {
      purgeData(tableId);
    } else {
      refresh.afterOthersLearn(() -> purgeData(tableId));
    }
  }

  /** Deletes every item of a dropped table in bounded chunks, then its purge record. */
  private void purge(int tableId) {
    purgeData(tableId);
    List<Mutation> settingsLeft = settings.deletesOf(tableId); // put by another process racing the drop
    if (!settingsLeft.isEmpty()) {
      commitUnconditional(settingsLeft);
    }
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

  /** A setting of a table or view, or of the database (table null), read from the store. */
  Optional<String> setting(String table, String name) {
    CatalogSettings.checkName(name);
    return settings.get(table == null ? KeyLayout.SYSTEM_TABLE_ID : require(table).id(), name);
  }

  /**
   * Puts or removes a setting. A table's is written with a check that its catalog record is still
   * the one this process holds, so a put never lands beside a drop committed first (here or by
   * another process); a drop here waits for the catalog lock, so it cannot pass between that check
   * and the commit either.
   */
  synchronized void putSetting(String table, String name, String value) {
    CatalogSettings.checkName(name);
    if (table == null) {
      commitSetting(KeyLayout.SYSTEM_TABLE_ID, name, value, null);
      return;
    }
    for (int attempt = 0; ; attempt++) {
      TableEntry entry = require(table);
      byte[] recordKey = bytes(entry.name().toLowerCase(Locale.ROOT));
      Optional<Versioned> record = store.get(TABLES, recordKey);
      boolean current = record.isPresent() && intOf(ItemCodec.decode(record.get().value()), "tableId") == entry.id();
      if (!current) {
        if (refresh != null && attempt < 2) {
          refresh(); // another process dropped (perhaps re-created) it: learn that first
          continue;
        }
        throw ViewbaseException.of(ErrorCode.TableNotFound, "The table does not exist", "table", table);
      }
      Mutation guard = new Mutation.Check(TABLES, recordKey, Condition.version(record.get().version()));
      if (commitSetting(entry.id(), name, value, guard)) {
        return;
      }
      if (attempt >= 10) { // a view's record rewritten by its backfill on every try
        throw ViewbaseException.of(ErrorCode.WriteConflict, "The table's catalog record kept changing; retry",
            "table", table);
      }
    }
  }

  /** Whether the setting was written (false: the guard failed). */
  private boolean commitSetting(int ownerId, String name, String value, Mutation guard) {
    try {
      settings.put(ownerId, name, value, guard);
      return true;
    } catch (ConditionFailedException e) {
      return false;
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
