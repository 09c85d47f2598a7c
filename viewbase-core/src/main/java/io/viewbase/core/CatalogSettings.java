package io.viewbase.core;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import io.viewbase.storage.spi.Bytes;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.Store;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The settings protocols keep in the catalog ({@link Database#setting}), in the system space:
 *
 * <pre>
 * partition "settings", key ownerId(4) name   the value ({@link CatalogCodec#encodeSetting})
 * </pre>
 *
 * The owner is a table's or view's id, or 0 ({@link KeyLayout#SYSTEM_TABLE_ID}, never a table's)
 * for the database as a whole. Ids are never reused, so a table created again under a dropped one's
 * name can never see the old settings, even if a crash left some behind; the drop deletes them in
 * its own commit and the purge of the id deletes any that a racing put added after it. Every read
 * goes to the store: several processes sharing it (Cassandra) agree without a cache.
 */
final class CatalogSettings {
  private static final byte[] SETTINGS = KeyLayout.partition(KeyLayout.SYSTEM_TABLE_ID, "settings");
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");

  private final Store store;
  private final VersionClock clock;

  CatalogSettings(Store store, VersionClock clock) {
    this.store = store;
    this.clock = clock;
  }

  Optional<String> get(int ownerId, String name) {
    return store.get(SETTINGS, key(ownerId, name)).map(v -> CatalogCodec.decodeSetting(v.value()));
  }

  /**
   * Puts (or with a null value removes) a setting, in one commit with {@code guard} (a check that
   * the owner still exists), or none. Fails on a name or value beyond the limits, and on a new
   * setting beyond {@link Database#MAX_SETTINGS}.
   *
   * @throws ConditionFailedException when the guard (mutation 1) did not hold
   */
  void put(int ownerId, String name, String value, Mutation guard) throws ConditionFailedException {
    byte[] key = key(ownerId, name);
    List<Mutation> batch = new ArrayList<>(2);
    if (value == null) {
      batch.add(Mutation.delete(SETTINGS, key));
    } else {
      checkValue(name, value);
      if (store.get(SETTINGS, key).isEmpty() && keysOf(ownerId).size() >= Database.MAX_SETTINGS) {
        throw ViewbaseException.of(
            ErrorCode.InvalidInput,
            "Too many settings: at most "
                + Database.MAX_SETTINGS
                + " per table or for the database",
            "setting",
            name);
      }
      batch.add(Mutation.put(SETTINGS, key, clock.next(), CatalogCodec.encodeSetting(value)));
    }
    if (guard != null) {
      batch.add(guard);
    }
    store.commit(batch);
  }

  /** The deletes of every setting of an owner, for the commit that drops it. */
  List<Mutation> deletesOf(int ownerId) {
    List<Mutation> deletes = new ArrayList<>();
    for (byte[] key : keysOf(ownerId)) {
      deletes.add(Mutation.delete(SETTINGS, key));
    }
    return deletes;
  }

  private List<byte[]> keysOf(int ownerId) {
    List<byte[]> keys = new ArrayList<>();
    try (Cursor c = store.scan(SETTINGS, KeyRange.prefix(KeyLayout.tablePrefix(ownerId)), false)) {
      while (c.next()) {
        keys.add(c.key());
      }
    }
    return keys;
  }

  static void checkName(String name) {
    if (name == null
        || name.isEmpty()
        || name.length() > Database.MAX_SETTING_NAME_LENGTH
        || !NAME.matcher(name).matches()) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "A setting's name must be 1 to "
              + Database.MAX_SETTING_NAME_LENGTH
              + " characters of A-Z a-z 0-9 . _ -",
          "setting",
          name);
    }
  }

  private static void checkValue(String name, String value) {
    int bytes = value.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > Database.MAX_SETTING_VALUE_BYTES) {
      throw ViewbaseException.of(
          ErrorCode.PropertyValueTooLarge,
          "A setting's value may hold at most "
              + Database.MAX_SETTING_VALUE_BYTES
              + " bytes of UTF-8",
          "setting",
          name,
          "bytes",
          bytes);
    }
  }

  private static byte[] key(int ownerId, String name) {
    checkName(name);
    return Bytes.concat(KeyLayout.tablePrefix(ownerId), name.getBytes(StandardCharsets.UTF_8));
  }
}
