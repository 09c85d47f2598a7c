package io.viewbase.core;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.TableInfo;
import io.viewbase.api.TableOptions;
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
import java.time.Duration;
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
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tables of a database, persisted in the system space (table id 0) of the store itself as typed
 * records ({@link CatalogCodec} has their stored form):
 *
 * <pre>
 * partition "tables", key lower(name)      a {@link TableRecord} or a {@link ViewRecord}
 * partition "meta",   key "nextTableId"    the next table id
 * partition "meta",   key "tokenSecret"    the secret that signs continuation tokens
 * partition "meta",   key "catalogGeneration" a random number, rewritten by every change of tables or views
 * partition "purge",  key tableId(4)       a dropped table whose data is being removed
 * partition "settings", key ownerId(4) name a protocol setting ({@link CatalogSettings})
 * </pre>
 *
 * Table ids are never reused, so data left behind by a crash during a drop can never reappear in a
 * new table; the purge record makes the next open finish the job. A table's settings are deleted in
 * the commit that drops it.
 *
 * <p>The catalog is held in memory. When several processes share the store (see {@link
 * CatalogRefresh}), each change also rewrites the generation, and {@link #refresh()} reads the
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
 *       maintained); {@link ViewHandle#catchUpFrom}</td></tr>
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

  /**
   * Reads the catalog, creating the database metadata on first open and finishing interrupted
   * drops.
   */
  void load() {
    long now = System.nanoTime();
    generation = storedGeneration();
    List<CatalogRecord> records = readRecords();
    for (CatalogRecord record : records) {
      if (record instanceof TableRecord table) {
        tables.put(lower(table.name()), new TableEntry(table));
      }
    }
    for (CatalogRecord record : records) {
      if (record instanceof ViewRecord view) {
        loadView(view);
      }
    }
    refreshedAt = now;
    tokenSecret = loadOrCreateSecret();
    List<Integer> unfinished = new ArrayList<>();
    try (Cursor c = store.scan(PURGE, KeyRange.ALL, false)) {
      while (c.next()) {
        byte[] k = c.key();
        unfinished.add(
            ((k[0] & 0xFF) << 24) | ((k[1] & 0xFF) << 16) | ((k[2] & 0xFF) << 8) | (k[3] & 0xFF));
      }
    }
    for (int id : unfinished) {
      LOG.info("Finishing the drop of table id {} interrupted before the last shutdown", id);
      purge(id);
    }
  }

  private List<CatalogRecord> readRecords() {
    List<CatalogRecord> records = new ArrayList<>();
    try (Cursor c = store.scan(TABLES, KeyRange.ALL, false)) {
      while (c.next()) {
        clock.observe(c.version());
        records.add(CatalogCodec.decode(c.value()));
      }
    }
    return records;
  }

  private long storedGeneration() {
    return store
        .get(META, GENERATION)
        .map(v -> CatalogCodec.decodeGeneration(v.value()))
        .orElse(0L);
  }

  /** The write that tells other processes sharing the store that the catalog changed. */
  private Mutation generationPut() {
    long next = ThreadLocalRandom.current().nextLong();
    return new Mutation.Put(
        META, GENERATION, clock.next(), CatalogCodec.encodeGeneration(next), Condition.NONE);
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
    List<CatalogRecord> records = readRecords();
    Map<String, CatalogRecord> stored = new LinkedHashMap<>();
    for (CatalogRecord record : records) {
      stored.put(lower(record.table().name()), record);
    }
    for (TableEntry held : List.copyOf(tables.values())) {
      CatalogRecord record = stored.get(lower(held.name()));
      if (record == null || record.table().id() != held.id()) {
        forget(held); // dropped by another process (and perhaps created again under a new id)
      }
    }
    for (CatalogRecord record : records) {
      if (!(record instanceof TableRecord table)) {
        continue;
      }
      TableEntry held = tables.get(lower(table.name()));
      if (held == null) {
        tables.put(lower(table.name()), new TableEntry(table));
      } else if (!held.options().equals(table.options())) {
        held.changeOptions(table.options()); // altered by another process
      }
    }
    for (CatalogRecord record : records) {
      if (!(record instanceof ViewRecord view)) {
        continue;
      }
      TableEntry held = tables.get(lower(view.name()));
      if (held == null) {
        loadView(view);
      } else if (held.isView() && held.view().catchUpFrom(view)) {
        stopMaintaining(held.view()); // another process found it failed
      }
    }
  }

  /** Forgets a table or view that another process dropped. */
  private void forget(TableEntry entry) {
    if (entry.isView()) {
      stopMaintaining(entry.view());
    }
    entry.markDropped();
    tables.remove(lower(entry.name()), entry);
  }

  /** Stops a view's maintenance and backfill, once every source write in flight has finished. */
  private static void stopMaintaining(ViewHandle handle) {
    handle.stop();
    handle.source().removeView(handle);
  }

  private void loadView(ViewRecord stored) {
    String name = stored.name();
    TableEntry source = tables.get(lower(stored.definition().source()));
    if (source == null || source.isView()) {
      LOG.warn(
          "View {} names source {}, which does not exist; it is left out",
          name,
          stored.definition().source());
      return;
    }
    ViewRecord record =
        new ViewRecord(
            stored.table(),
            withSource(stored.definition(), source),
            stored.state(),
            stored.progress(),
            stored.conflicts(),
            stored.countsAfter());
    TableEntry entry = new TableEntry(record.table());
    ViewHandle handle =
        new ViewHandle(entry, source, ViewSpec.compile(record.definition()), record);
    entry.view(handle);
    tables.put(lower(name), entry);
    if (handle.isMaintained()) {
      source.addView(handle);
    }
    if (record.countsAfter() == ViewRecord.COUNTS_AFTER_PENDING
        && record.state() == ViewState.BUILDING) {
      chooseCountsAfter(handle); // created by a process that stopped before it chose one
    }
  }

  /** The definition with its source named as the source table's record names it. */
  private static ViewDefinition withSource(ViewDefinition d, TableEntry source) {
    return new ViewDefinition(
        d.name(),
        source.name(),
        d.partitionBy(),
        d.idBy(),
        d.where(),
        d.select(),
        d.kind(),
        d.retention());
  }

  /** Every view this process knows. */
  List<ViewHandle> views() {
    return tables.values().stream().map(TableEntry::view).filter(v -> v != null).toList();
  }

  /** The views whose backfill had not finished at the last shutdown. */
  List<ViewHandle> buildingViews() {
    return tables.values().stream()
        .map(TableEntry::view)
        .filter(v -> v != null && v.state() == ViewState.BUILDING)
        .toList();
  }

  /** Every table and view held now. */
  List<TableEntry> entries() {
    return List.copyOf(tables.values());
  }

  byte[] tokenSecret() {
    return tokenSecret;
  }

  TableEntry require(String name) {
    TableEntry entry = name == null ? null : tables.get(lower(name));
    if (refresh != null && name != null && (entry == null || refresh.isStale(refreshedAt))) {
      // Shared store: a name unknown here may have been created by another process, and a catalog
      // not read for a while may miss a view this write must maintain.
      refreshOrFail();
      entry = tables.get(lower(name));
    }
    if (entry == null) {
      throw ViewbaseException.of(
          ErrorCode.TableNotFound, "The table does not exist", "table", name);
    }
    return entry;
  }

  List<TableInfo> list() {
    if (refresh != null) {
      refreshOrFail();
    }
    return tables.values().stream()
        .sorted(Comparator.comparing(e -> lower(e.name())))
        .map(TableEntry::info)
        .toList();
  }

  synchronized TableInfo create(String name, TableOptions options) {
    refreshIfShared();
    checkNameFree(name);
    TableEntry entry =
        new TableEntry(allocate(name, id -> new TableRecord(name, id, Instant.now(), options)));
    tables.put(lower(name), entry);
    return entry.info();
  }

  /**
   * Stores a table's new options and applies them once the writes in flight have finished; another
   * process sharing the store applies them when it next reads the catalog.
   */
  synchronized TableOptions alter(String name, TableOptions options) {
    refreshIfShared();
    TableEntry entry = require(name);
    if (entry.isView()) {
      throw ViewbaseException.of(
          ErrorCode.ViewIsReadOnly,
          "A view has no options of its own; alter its source",
          "view",
          name);
    }
    TableRecord altered = entry.record().withOptions(options);
    try {
      store.commit(
          List.of(
              new Mutation.Put(
                  TABLES,
                  bytes(lower(entry.name())),
                  clock.next(),
                  CatalogCodec.encode(altered),
                  Condition.EXISTS),
              generationPut()));
    } catch (ConditionFailedException e) {
      throw ViewbaseException.of(
          ErrorCode.TableNotFound, "The table does not exist", "table", name);
    }
    entry.changeOptions(options);
    return options;
  }

  /**
   * Registers a view in state building; every source write maintains it from the moment this
   * returns.
   */
  synchronized ViewHandle createView(ViewDefinition definition) {
    refreshIfShared();
    checkNameFree(definition.name());
    TableEntry source = require(definition.source());
    if (source.isView()) {
      throw ViewbaseException.of(
          ErrorCode.InvalidView,
          "The source of a view must be a table, not a view",
          "view",
          definition.name(),
          "source",
          definition.source());
    }
    ViewDefinition named = withSource(definition, source);
    ViewSpec spec = ViewSpec.compile(named);
    Instant created = Instant.now();
    boolean counts = spec.kind() == ViewDefinition.Kind.PARTITIONS;
    long countsAfter = counts ? ViewRecord.COUNTS_AFTER_PENDING : 0;
    ViewRecord record =
        allocate(
            named.name(),
            id ->
                ViewRecord.building(
                    new TableRecord(named.name(), id, created), named, countsAfter));
    TableEntry allocated = new TableEntry(record.table());
    ViewHandle handle = new ViewHandle(allocated, source, spec, record);
    allocated.view(handle);
    tables.put(lower(named.name()), allocated);
    source.addView(handle);
    if (counts) {
      chooseCountsAfter(handle);
    }
    return handle;
  }

  /**
   * Gives a partitions view, registered (every write from now on maintains it), its countsAfter:
   * stored first, then taken by the handle, so no writer counts by a version a restart could
   * forget. Until then writers count nothing and the backfill counts every state.
   */
  private void chooseCountsAfter(ViewHandle handle) {
    long version = countsAfter(clock.next());
    commitUnconditional(
        List.of(viewRecordPut(handle.record().withCountsAfter(version)), generationPut()));
    handle.countAfter(version);
  }

  /**
   * The version after which writers count the items of a partitions view, and at or before which
   * its backfill does, chosen once the view is registered: ahead of {@code now} by more than a
   * writer takes from reading the pending value to storing its write (it counts nothing, so its
   * version must be the backfill's to count) and, on a shared store, by the time other processes
   * take to learn of the view (their writes until then do not maintain it).
   */
  private long countsAfter(long now) {
    Duration ahead =
        refresh == null
            ? PARTITIONS_COUNT_AHEAD
            : PARTITIONS_COUNT_AHEAD.plus(CatalogRefresh.OTHERS_LEARN);
    return now + ahead.toNanos() / 100;
  }

  /** See {@link #countsAfter}. */
  static final Duration PARTITIONS_COUNT_AHEAD = Duration.ofSeconds(1);

  /** The catalog write that stores a view's record: its state and backfill position. */
  Mutation viewRecordPut(ViewRecord record) {
    return new Mutation.Put(
        TABLES,
        bytes(lower(record.name())),
        clock.next(),
        CatalogCodec.encode(record),
        Condition.NONE);
  }

  /**
   * Records that a view's backfill has copied every source item: the view is ready, or failed if
   * the backfill found conflicts (its data is then removed).
   */
  void finishView(ViewHandle handle) {
    endBuild(handle, List.of());
  }

  /**
   * Records that a view's backfill broke off for {@code reason}: the view fails and its data is
   * removed.
   */
  void failView(ViewHandle handle, ViewStatus.Conflict reason) {
    endBuild(handle, List.of(reason));
  }

  private synchronized void endBuild(ViewHandle handle, List<ViewStatus.Conflict> found) {
    if (handle.isStopped()) {
      return; // dropped (the drop removes its data), or failed by another process: nothing to
      // record
    }
    ViewRecord ended = handle.finishBuild(found);
    boolean failed = ended.state() == ViewState.FAILED;
    if (failed) {
      stopMaintaining(handle);
    }
    if (tables.get(lower(handle.name())) == handle.table()) {
      commitUnconditional(List.of(viewRecordPut(ended), generationPut()));
    }
    if (failed) {
      purgeDataWhenUnused(handle.table().id());
    }
  }

  /**
   * {@link #refresh()} for callers outside a storage try-block: a storage failure becomes its
   * error.
   */
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
    if (tables.containsKey(lower(name))) {
      throw ViewbaseException.of(
          ErrorCode.TableAlreadyExists,
          "A table or view with this name already exists",
          "table",
          name);
    }
  }

  /**
   * Takes the next table id and stores the catalog record built for it, atomically; returns that
   * record.
   */
  private <R extends CatalogRecord> R allocate(String name, IntFunction<R> recordFor) {
    while (true) {
      Optional<Versioned> counter = store.get(META, NEXT_TABLE_ID);
      int id = counter.map(v -> CatalogCodec.decodeNextTableId(v.value())).orElse(1);
      Condition counterCondition =
          counter.map(v -> Condition.version(v.version())).orElse(Condition.ABSENT);
      R record = recordFor.apply(id);
      long version = clock.next();
      try {
        store.commit(
            List.of(
                new Mutation.Put(
                    META,
                    NEXT_TABLE_ID,
                    version,
                    CatalogCodec.encodeNextTableId(id + 1),
                    counterCondition),
                new Mutation.Put(
                    TABLES,
                    bytes(lower(name)),
                    version,
                    CatalogCodec.encode(record),
                    Condition.ABSENT),
                generationPut()));
      } catch (ConditionFailedException e) {
        if (e.index() == 1) {
          throw ViewbaseException.of(
              ErrorCode.TableAlreadyExists,
              "A table or view with this name already exists",
              "table",
              name);
        }
        continue; // another process took this id first; take the next
      }
      return record;
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
      throw ViewbaseException.of(
          ErrorCode.InvalidView, "This is a table, not a view; drop it as a table", "view", name);
    }
    dropView(entry);
  }

  private void dropView(TableEntry entry) {
    stopMaintaining(entry.view());
    dropEntry(entry);
  }

  private void dropEntry(TableEntry entry) {
    entry.markDropped();
    byte[] purgeKey = KeyLayout.tablePrefix(entry.id());
    List<Mutation> drop =
        new ArrayList<>(
            List.of(
                new Mutation.Delete(TABLES, bytes(lower(entry.name())), Condition.NONE),
                new Mutation.Put(
                    PURGE,
                    purgeKey,
                    clock.next(),
                    CatalogCodec.encodePurge(entry.name()),
                    Condition.NONE),
                generationPut()));
    drop.addAll(
        settings.deletesOf(entry.id())); // the settings die with the table, in the same commit
    commitUnconditional(drop);
    tables.remove(lower(entry.name()));
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
    List<Mutation> settingsLeft =
        settings.deletesOf(tableId); // put by another process racing the drop
    if (!settingsLeft.isEmpty()) {
      commitUnconditional(settingsLeft);
    }
    commitUnconditional(List.of(Mutation.delete(PURGE, KeyLayout.tablePrefix(tableId))));
  }

  /** Deletes every entry stored under a table id, and its change feed, in bounded chunks. */
  void purgeData(int tableId) {
    byte[] prefix = KeyLayout.tablePrefix(tableId);
    byte[] feed = ChangeFeed.partition(tableId);
    while (true) {
      List<Mutation> chunk = new ArrayList<>(PURGE_CHUNK);
      try (Cursor c = store.scan(feed, KeyRange.ALL, false)) {
        while (chunk.size() < PURGE_CHUNK && c.next()) {
          chunk.add(Mutation.delete(feed, c.key()));
        }
      }
      if (chunk.isEmpty()) {
        break;
      }
      commitUnconditional(chunk);
    }
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
      byte[] recordKey = bytes(lower(entry.name()));
      Optional<Versioned> record = store.get(TABLES, recordKey);
      boolean current =
          record.isPresent()
              && CatalogCodec.decode(record.get().value()).table().id() == entry.id();
      if (!current) {
        if (refresh != null && attempt < 2) {
          refresh(); // another process dropped (perhaps re-created) it: learn that first
          continue;
        }
        throw ViewbaseException.of(
            ErrorCode.TableNotFound, "The table does not exist", "table", table);
      }
      Mutation guard =
          new Mutation.Check(TABLES, recordKey, Condition.version(record.get().version()));
      if (commitSetting(entry.id(), name, value, guard)) {
        return;
      }
      if (attempt >= 10) { // a view's record rewritten by its backfill on every try
        throw ViewbaseException.of(
            ErrorCode.WriteConflict,
            "The table's catalog record kept changing; retry",
            "table",
            table);
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
      return CatalogCodec.decodeTokenSecret(stored.get().value());
    }
    byte[] secret = new byte[32];
    new SecureRandom().nextBytes(secret);
    try {
      store.commit(
          List.of(
              new Mutation.Put(
                  META,
                  TOKEN_SECRET,
                  clock.next(),
                  CatalogCodec.encodeTokenSecret(secret),
                  Condition.ABSENT)));
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

  private static String lower(String name) {
    return name.toLowerCase(Locale.ROOT);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
