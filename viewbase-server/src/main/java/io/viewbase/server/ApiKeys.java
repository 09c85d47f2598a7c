package io.viewbase.server;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Stability;
import io.viewbase.api.ViewbaseException;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API keys of the native API: kept in the catalog as the database-wide setting {@value
 * #SETTING} ({@link Database#setting}), held in memory so that no request reads storage, and
 * checked against the {@code Authorization: Bearer} header of each request.
 *
 * <p>A key is {@code vb_<id>_<secret>}: the id is 12 hex digits (48 random bits, which a log may
 * name), the secret 32 random bytes (256 bits) in unpadded base64url. The catalog keeps the id and
 * the SHA-256 of the secret, never the secret, which is shown once, when the key is made. Checking
 * a key is one map lookup by id, one SHA-256 of the secret sent and a constant-time comparison.
 *
 * <pre>
 * Authorization header                      | answer
 * ------------------------------------------+--------------------------------------
 * absent                                    | 401 ApiKeyRequired
 * not "Bearer vb_&lt;12 hex&gt;_&lt;43 base64url&gt;"     | 401 ApiKeyInvalid
 * an id no key has (never made, or revoked) | 401 ApiKeyInvalid
 * a secret whose SHA-256 is not the id's    | 401 ApiKeyInvalid
 * else                                      | the key (its scope decides: {@link Access})
 * </pre>
 *
 * <p>There is one {@code ApiKeys} per {@link Database} object ({@link #of}), shared by every server
 * on it and every caller in the process, so keys made or revoked through any of them apply at once
 * on all. Those another process (a server on the same Cassandra keyspace) makes or revokes apply
 * here within {@link #REFRESH} and the time of one read: a running {@link ViewbaseServer} reads the
 * stored keys again every {@link #REFRESH} on a thread of its own ({@link #refresh}), whether
 * requests come or not, so no request waits for it. Changes read the stored keys first and write
 * the whole list back; two servers changing keys in the same few milliseconds may lose one of the
 * two changes, so keys are best managed through one server (or {@code viewbase key --data} while
 * none runs).
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class ApiKeys {
  /** The database-wide setting that holds the keys. */
  public static final String SETTING = "native.keys";

  /**
   * How many keys the catalog holds at most. The list must also fit one setting ({@link
   * Database#MAX_SETTING_VALUE_BYTES}, 64 KiB): a key takes about 170 bytes plus its name and each
   * table it lists (its name and 3), so 100 keys fit unless they list many tables each.
   */
  public static final int MAX_KEYS = 100;

  /** How stale the held keys may get when another server sharing the store changes them. */
  public static final Duration REFRESH = Duration.ofSeconds(2);

  static final String PREFIX = "vb_";
  private static final int ID_HEX = 12;
  private static final int SECRET_BYTES = 32;
  private static final int SECRET_CHARS = 43; // 32 bytes in unpadded base64url
  private static final int TOKEN_LENGTH = PREFIX.length() + ID_HEX + 1 + SECRET_CHARS;
  private static final Pattern NAME = Pattern.compile("[\\p{L}\\p{N} ._:@/-]*");
  private static final Pattern TABLE = Pattern.compile("[A-Za-z][A-Za-z0-9]{2,62}");
  private static final Logger LOG = LoggerFactory.getLogger(ApiKeys.class);
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(ApiKeys::sha256);

  /**
   * The instance of each database object; weak both ways, so neither outlives its users (the value
   * holds its database: a strong one would keep the key alive).
   */
  private static final Map<Database, WeakReference<ApiKeys>> SHARED = new WeakHashMap<>();

  private final Database db;

  /** Counts changes made here, so a refresh that read before one does not undo it. */
  private final AtomicLong changes = new AtomicLong();

  private volatile Map<String, ApiKey> byId;

  /** A key just made, and its secret: the one time the secret is known. */
  public record Created(ApiKey key, String secret) {}

  private ApiKeys(Database db, Map<String, ApiKey> keys) {
    this.db = db;
    this.byId = keys;
  }

  /**
   * The keys of this database object, the same instance for every caller while one holds it (read
   * from storage when none does). A database that keeps no settings (the HTTP client) has none.
   */
  public static ApiKeys of(Database db) {
    synchronized (SHARED) {
      WeakReference<ApiKeys> held = SHARED.get(db);
      ApiKeys keys = held == null ? null : held.get();
      if (keys == null) {
        keys = new ApiKeys(db, index(stored(db)));
        SHARED.put(db, new WeakReference<>(keys));
      }
      return keys;
    }
  }

  /** Whether the catalog holds any key: then every request but health needs one. */
  public boolean any() {
    return !held().isEmpty();
  }

  /** The keys, oldest first, without their hashes. */
  public List<ApiKey> list() {
    return held().values().stream().map(ApiKey::withoutSecret).toList();
  }

  /**
   * The key an Authorization header carries, per the table above; throws the 401 error otherwise.
   */
  ApiKey verify(String authorization) {
    if (authorization == null) {
      throw new ViewbaseException(
          ErrorCode.ApiKeyRequired,
          "This server requires an API key: send Authorization: Bearer <key>");
    }
    String token = bearer(authorization);
    if (token == null || !wellFormed(token)) {
      throw new ViewbaseException(
          ErrorCode.ApiKeyInvalid,
          "The Authorization header is not Bearer vb_<id>_<secret>, a key of this server");
    }
    String id = token.substring(PREFIX.length(), PREFIX.length() + ID_HEX);
    ApiKey key = held().get(id);
    byte[] hash = hash(token.substring(PREFIX.length() + ID_HEX + 1));
    // Compared even for an unknown id, so the time taken does not tell which ids exist.
    byte[] expected = key != null ? key.secretSha256() : new byte[hash.length];
    if (!MessageDigest.isEqual(hash, expected) || key == null) {
      throw ViewbaseException.of(
          ErrorCode.ApiKeyInvalid, "Unknown or revoked API key", "keyId", id);
    }
    return key;
  }

  /**
   * Makes a key and stores it; the answer holds its secret, which is never shown again.
   *
   * @throws ViewbaseException InvalidInput for an admin key that lists tables, a table name that is
   *     no table name, a name over {@link KeyJson#MAX_NAME_LENGTH} characters or of other
   *     characters than letters, digits, space and {@code ._:@/-}, or a key beyond {@link
   *     #MAX_KEYS} or the setting's 64 KiB
   */
  public synchronized Created create(KeyScope scope, List<String> tables, String name) {
    String label = name == null ? "" : name;
    if (label.length() > KeyJson.MAX_NAME_LENGTH || !NAME.matcher(label).matches()) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "A key's name is up to 100 letters, digits, spaces and ._:@/-",
          "name",
          label.length() > KeyJson.MAX_NAME_LENGTH ? label.substring(0, 100) + "..." : label);
    }
    if (scope == KeyScope.ADMIN && !tables.isEmpty()) {
      throw new ViewbaseException(
          ErrorCode.InvalidInput, "An admin key reaches every table: give it no tables");
    }
    if (tables.size() > KeyJson.MAX_TABLES) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput, "A key lists at most 32 tables", "limit", KeyJson.MAX_TABLES);
    }
    for (String table : tables) {
      if (table == null || !TABLE.matcher(table).matches()) {
        throw ViewbaseException.of(
            ErrorCode.InvalidTableName,
            "A key's table is a table or view name: ^[A-Za-z][A-Za-z0-9]{2,62}$",
            "table",
            table);
      }
    }
    Map<String, ApiKey> keys = new LinkedHashMap<>(index(stored(db)));
    if (keys.size() >= MAX_KEYS) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "The catalog holds as many API keys as it can; revoke one first",
          "limit",
          MAX_KEYS);
    }
    String id;
    do {
      id = HexFormat.of().formatHex(randomBytes(ID_HEX / 2));
    } while (keys.containsKey(id));
    String secret =
        Base64.getUrlEncoder().withoutPadding().encodeToString(randomBytes(SECRET_BYTES));
    ApiKey key =
        new ApiKey(
            id, hash(secret), label, scope, tables, Instant.now().truncatedTo(ChronoUnit.SECONDS));
    keys.put(id, key);
    store(keys);
    LOG.info("API key {} created ({}, tables {})", id, scope.wireName(), tables);
    return new Created(key.withoutSecret(), PREFIX + id + "_" + secret);
  }

  /** Revokes a key: from now on it is refused here. ApiKeyNotFound if no key has this id. */
  public synchronized void revoke(String id) {
    Map<String, ApiKey> keys = new LinkedHashMap<>(index(stored(db)));
    if (keys.remove(id) == null) {
      throw ViewbaseException.of(ErrorCode.ApiKeyNotFound, "No API key has this id", "keyId", id);
    }
    store(keys);
    LOG.info("API key {} revoked", id);
  }

  private void store(Map<String, ApiKey> keys) {
    List<ApiKey> list = new ArrayList<>(keys.values());
    String value = list.isEmpty() ? null : KeyJson.writeStored(list);
    if (value != null
        && value.getBytes(StandardCharsets.UTF_8).length > Database.MAX_SETTING_VALUE_BYTES) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "The API keys would not fit the 64 KiB the catalog holds for them; revoke keys, or"
              + " list fewer tables",
          "limit",
          Database.MAX_SETTING_VALUE_BYTES);
    }
    db.putSetting(null, SETTING, value);
    changes.incrementAndGet();
    byId = keys;
  }

  /** The keys in force. */
  private Map<String, ApiKey> held() {
    return byId;
  }

  /**
   * Reads the stored keys again, for those another process changed; a change made here while it
   * read wins over what it read. A failed read leaves the held keys in force (logged). Never
   * throws.
   */
  void refresh() {
    try {
      long seen = changes.get();
      Map<String, ApiKey> read = index(stored(db));
      synchronized (this) {
        if (changes.get() == seen) {
          byId = read;
        }
      }
    } catch (RuntimeException e) {
      LOG.warn(
          "Could not read the API keys again; the last ones read still apply: {}", e.toString());
    }
  }

  private static List<ApiKey> stored(Database db) {
    Optional<String> value;
    try {
      value = db.setting(null, SETTING);
    } catch (ViewbaseException e) {
      if (e.code() == ErrorCode.NotImplemented) {
        return List.of(); // a database without settings has no keys
      }
      throw e;
    }
    if (value.isEmpty()) {
      return List.of();
    }
    try {
      return KeyJson.readStored(value.get());
    } catch (ViewbaseException unreadable) {
      // not the client's fault, nor a key to guess around: the server refuses to start on it
      throw ViewbaseException.of(
          ErrorCode.InternalError,
          "The API keys in the catalog (setting "
              + SETTING
              + ") cannot be read: "
              + unreadable.getMessage());
    }
  }

  private static Map<String, ApiKey> index(List<ApiKey> keys) {
    Map<String, ApiKey> byId = new LinkedHashMap<>();
    for (ApiKey key : keys) {
      byId.put(key.id(), key);
    }
    return byId;
  }

  /** The token of a {@code Bearer} header (scheme case-insensitive), or null for another. */
  private static String bearer(String header) {
    String h = header.trim();
    if (h.length() < 7 || !h.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return null;
    }
    return h.substring(7).trim();
  }

  private static boolean wellFormed(String token) {
    if (token.length() != TOKEN_LENGTH
        || !token.startsWith(PREFIX)
        || token.charAt(PREFIX.length() + ID_HEX) != '_') {
      return false;
    }
    for (int i = PREFIX.length(); i < PREFIX.length() + ID_HEX; i++) {
      char c = token.charAt(i);
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
        return false;
      }
    }
    for (int i = PREFIX.length() + ID_HEX + 1; i < token.length(); i++) {
      char c = token.charAt(i);
      if (!((c >= 'A' && c <= 'Z')
          || (c >= 'a' && c <= 'z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '_')) {
        return false;
      }
    }
    return true;
  }

  private static byte[] hash(String secret) {
    MessageDigest digest = SHA256.get();
    digest.reset();
    return digest.digest(secret.getBytes(StandardCharsets.US_ASCII));
  }

  private static byte[] randomBytes(int n) {
    byte[] bytes = new byte[n];
    RANDOM.nextBytes(bytes);
    return bytes;
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("Every Java runtime has SHA-256", e);
    }
  }
}
