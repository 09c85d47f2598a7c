package io.viewbase.core;

import io.viewbase.api.TimeToLive;
import io.viewbase.api.Value;
import io.viewbase.storage.spi.StorageException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The engine's side of {@link TimeToLive}: the clock that says what "now" is, each table's default
 * ttl, and which tables may hold items that expire. Reads hide an expired item by asking {@link
 * #isExpired}; writes treat it as absent; the {@link Sweeper} removes it.
 *
 * <p><b>Which tables may expire.</b> A table with a default ttl, or one an item was written to with
 * a {@code _ttl}. The latter is a table setting ({@value #ITEM_TTL_SETTING}), stored before the
 * first such item is written (so a table holding one always has it, a crash in between leaves only
 * the setting) and kept in memory: the write path asks it on every write, to know whether a write
 * may be decided without reading (an insert over an expired item must succeed). On a shared store
 * another process's setting is learnt at the next sweeper pass (about a second); reads never depend
 * on it, they check every item.
 */
final class Expiry {
  /** The setting that marks a table an item was written to with a {@code _ttl}. */
  static final String ITEM_TTL_SETTING = "ttl.items";

  private final Clock clock;
  private final Catalog catalog;
  private final Map<Integer, Boolean> itemTtl = new ConcurrentHashMap<>();

  Expiry(Clock clock, Catalog catalog) {
    this.clock = clock;
    this.catalog = catalog;
  }

  /** Now, in ticks. */
  long now() {
    Instant now = clock.instant();
    return now.getEpochSecond() * Value.DateTime.TICKS_PER_SECOND + now.getNano() / 100;
  }

  /** The default ttl that applies to a table's items, or to a view's entries (its source's). */
  static Duration defaultTtl(TableEntry table) {
    ViewHandle view = table.view();
    return (view == null ? table : view.source()).options().ttl();
  }

  /** Whether an entry of the table (a view's: a copy of its source item) has expired now. */
  boolean isExpired(TableEntry table, long version, Map<String, Value> properties) {
    return TimeToLive.isExpired(version, properties, defaultTtl(table), now());
  }

  /** As {@link #isExpired(TableEntry, long, Map)}, for an item's own {@code _ttl} alone. */
  boolean isExpired(TableEntry table, long version, Value ownTtl) {
    Duration ttl = defaultTtl(table);
    return (ownTtl != null || ttl != null) && TimeToLive.expiresAt(version, ownTtl, ttl) <= now();
  }

  /** Whether items of the table may expire: it has a default ttl, or an item had a {@code _ttl}. */
  boolean mayExpire(TableEntry table) {
    return defaultTtl(table) != null || hasItemTtl(table);
  }

  /** Whether an item of the table was written with a {@code _ttl}. */
  boolean hasItemTtl(TableEntry table) {
    Boolean known = itemTtl.get(table.id());
    if (known != null) {
      return known;
    }
    return reread(table);
  }

  /**
   * Reads the table's setting again (the sweeper does so for tables without it, on shared stores).
   */
  boolean reread(TableEntry table) {
    boolean set;
    try {
      set = catalog.setting(table.name(), ITEM_TTL_SETTING).isPresent();
    } catch (StorageException e) {
      throw EmbeddedDatabase.storageError(e);
    }
    itemTtl.put(table.id(), set);
    return set;
  }

  /**
   * Called before an item with a {@code _ttl} is written: marks its table, durably, the first time.
   */
  void noteItemTtl(TableEntry table) {
    if (Boolean.TRUE.equals(itemTtl.get(table.id()))) {
      return;
    }
    synchronized (this) {
      if (!reread(table)) {
        try {
          catalog.putSetting(table.name(), ITEM_TTL_SETTING, "true");
        } catch (StorageException e) {
          throw EmbeddedDatabase.storageError(e);
        }
        itemTtl.put(table.id(), true);
      }
    }
  }
}
