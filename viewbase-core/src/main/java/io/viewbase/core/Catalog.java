package io.viewbase.core;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.TableInfo;
import io.viewbase.api.Value;
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
    try (Cursor c = store.scan(TABLES, KeyRange.ALL, false)) {
      while (c.next()) {
        clock.observe(c.version());
        Map<String, Value> p = ItemCodec.decode(c.value());
        String name = ((Value.Str) p.get("name")).value();
        int id = ((Value.Int32) p.get("tableId")).value();
        Instant created = ((Value.DateTime) p.get("created")).toInstant();
        tables.put(name.toLowerCase(Locale.ROOT), new TableEntry(name, id, created));
      }
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
    ItemRules.checkTableName(name);
    String lower = name.toLowerCase(Locale.ROOT);
    if (tables.containsKey(lower)) {
      throw ViewbaseException.of(ErrorCode.TableAlreadyExists, "A table with this name already exists", "table", name);
    }
    while (true) {
      Optional<Versioned> counter = store.get(META, NEXT_TABLE_ID);
      int id = counter.map(v -> ((Value.Int32) ItemCodec.decode(v.value()).get("value")).value()).orElse(1);
      Condition counterCondition = counter.map(v -> Condition.version(v.version())).orElse(Condition.ABSENT);
      Instant created = Instant.now();
      Map<String, Value> record = new LinkedHashMap<>();
      record.put("name", Value.of(name));
      record.put("tableId", Value.of(id));
      record.put("created", Value.of(created));
      long version = clock.next();
      try {
        store.commit(List.of(
            new Mutation.Put(META, NEXT_TABLE_ID, version, ItemCodec.encode(Map.of("value", Value.of(id + 1))),
                counterCondition),
            new Mutation.Put(TABLES, bytes(lower), version, ItemCodec.encode(record), Condition.ABSENT)));
      } catch (ConditionFailedException e) {
        if (e.index() == 1) {
          throw ViewbaseException.of(ErrorCode.TableAlreadyExists, "A table with this name already exists",
              "table", name);
        }
        continue; // another process took this id first; take the next
      }
      TableEntry entry = new TableEntry(name, id, created);
      tables.put(lower, entry);
      return entry.info();
    }
  }

  synchronized void drop(String name) {
    TableEntry entry = require(name);
    entry.markDropped();
    byte[] purgeKey = KeyLayout.tablePrefix(entry.id());
    try {
      store.commit(List.of(
          new Mutation.Delete(TABLES, bytes(entry.name().toLowerCase(Locale.ROOT)), Condition.NONE),
          new Mutation.Put(PURGE, purgeKey, clock.next(), ItemCodec.encode(Map.of("name", Value.of(entry.name()))),
              Condition.NONE)));
    } catch (ConditionFailedException e) {
      throw new IllegalStateException("unconditional catalog write failed", e);
    }
    tables.remove(entry.name().toLowerCase(Locale.ROOT));
    purge(entry.id());
  }

  /** Deletes every item of a dropped table in bounded chunks, then its purge record. */
  private void purge(int tableId) {
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
    commitUnconditional(List.of(Mutation.delete(PURGE, prefix)));
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

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
