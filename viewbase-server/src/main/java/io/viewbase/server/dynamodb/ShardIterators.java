package io.viewbase.server.dynamodb;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Shard iterators: opaque to clients, signed, and valid for fifteen minutes, as DynamoDB's. An
 * iterator names a position in a table's stream, the change-feed sequence number it reads after,
 * and when it was issued.
 *
 * <pre>
 * STREAM_ARN|1|base64url(payload + mac)
 * payload: "1" \n table name \n table id \n stream label \n position \n issued (epoch ms), UTF-8
 * mac:     the first 16 bytes of HMAC-SHA256(key, payload)
 * </pre>
 *
 * The key is 32 random bytes kept in the database setting {@value #KEY_SETTING}, made by the first
 * server that needs it, so that every server sharing the store, and a restarted one, reads the
 * iterators of the others. (Two servers making it at once both store one; the one read back wins,
 * and an iterator the other signed before it re-read is refused once, then verified with the stored
 * key.) The table id makes an iterator of a table dropped and created again under its name no
 * iterator of the new one.
 *
 * <pre>
 * GetRecords' ShardIterator       | answer
 * --------------------------------+--------------------------------------------------------------
 * not one this dialect signed     | ValidationException "Invalid ShardIterator"
 * issued over 15 minutes ago      | ExpiredIteratorException
 * </pre>
 */
final class ShardIterators {
  /** The database setting holding the signing key (base64). */
  static final String KEY_SETTING = "dynamodb.streams.iteratorKey";

  /** How long an iterator may be used after it was issued. */
  static final Duration LIFETIME = Duration.ofMinutes(15);

  private static final int MAC_BYTES = 16;
  private static final String FORMAT = "1";

  /**
   * A position in a table's stream.
   *
   * @param table the DynamoDB table's name
   * @param tableId its table id
   * @param label its stream's label
   * @param after the change-feed sequence number the next GetRecords reads after
   * @param issued when the iterator was issued
   */
  record Position(String table, String tableId, String label, long after, Instant issued) {
    Position at(long next, Instant now) {
      return new Position(table, tableId, label, next, now);
    }
  }

  private final Database db;
  private final Clock clock;
  private volatile byte[] key;

  ShardIterators(Database db, Clock clock) {
    this.db = db;
    this.clock = clock;
  }

  /** The time iterators are issued and checked at. */
  Instant now() {
    return clock.instant();
  }

  /** The iterator of a position, prefixed by the stream's ARN as DynamoDB's are. */
  String issue(String streamArn, Position p) {
    byte[] payload =
        String.join(
                "\n",
                FORMAT,
                p.table(),
                p.tableId(),
                p.label(),
                Long.toString(p.after()),
                Long.toString(p.issued().toEpochMilli()))
            .getBytes(StandardCharsets.UTF_8);
    byte[] mac = mac(key(false), payload);
    byte[] signed = Arrays.copyOf(payload, payload.length + MAC_BYTES);
    System.arraycopy(mac, 0, signed, payload.length, MAC_BYTES);
    return streamArn + "|1|" + Base64.getUrlEncoder().withoutPadding().encodeToString(signed);
  }

  /**
   * The position an iterator names, checked: its signature, then its age.
   *
   * @throws ViewbaseException ValidationException for an iterator not signed here,
   *     ExpiredIteratorException for one issued over {@link #LIFETIME} ago
   */
  Position read(String iterator) {
    Position p = verify(iterator).orElseThrow(ShardIterators::invalid);
    Instant now = now();
    if (p.issued().plus(LIFETIME).isBefore(now)) {
      throw ViewbaseException.of(
          ErrorCode.ExpiredIterator,
          "Iterator expired. The iterator was created at time "
              + p.issued()
              + " while right now it is "
              + now
              + " which is further in the future than the tolerated delay of "
              + LIFETIME.toMillis()
              + " milliseconds.");
    }
    return p;
  }

  private Optional<Position> verify(String iterator) {
    int bar = iterator.lastIndexOf('|');
    String text = iterator.substring(bar + 1);
    byte[] signed;
    try {
      signed = Base64.getUrlDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    // Only the text issued: the decoder ignores a last character's unused bits, so an altered one
    // would otherwise decode to the signed bytes.
    if (!Base64.getUrlEncoder().withoutPadding().encodeToString(signed).equals(text)) {
      return Optional.empty();
    }
    if (signed.length <= MAC_BYTES) {
      return Optional.empty();
    }
    byte[] payload = Arrays.copyOf(signed, signed.length - MAC_BYTES);
    byte[] given = Arrays.copyOfRange(signed, payload.length, signed.length);
    if (!matches(key(false), payload, given) && !matches(key(true), payload, given)) {
      return Optional.empty();
    }
    String[] parts = new String(payload, StandardCharsets.UTF_8).split("\n", -1);
    if (parts.length != 6 || !parts[0].equals(FORMAT)) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          new Position(
              parts[1],
              parts[2],
              parts[3],
              Long.parseLong(parts[4]),
              Instant.ofEpochMilli(Long.parseLong(parts[5]))));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static boolean matches(byte[] key, byte[] payload, byte[] given) {
    return MessageDigest.isEqual(Arrays.copyOf(mac(key, payload), MAC_BYTES), given);
  }

  /** The signing key: the one read before, or (reread, or when there is none) the stored one. */
  private byte[] key(boolean reread) {
    byte[] k = key;
    if (k != null && !reread) {
      return k;
    }
    synchronized (this) {
      Optional<String> stored = db.setting(null, KEY_SETTING);
      if (stored.isEmpty()) {
        byte[] fresh = new byte[32];
        new SecureRandom().nextBytes(fresh);
        db.putSetting(null, KEY_SETTING, Base64.getEncoder().encodeToString(fresh));
        stored = db.setting(null, KEY_SETTING); // another server's, if it stored one meanwhile
      }
      key = Base64.getDecoder().decode(stored.orElseThrow());
      return key;
    }
  }

  private static byte[] mac(byte[] key, byte[] payload) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(payload);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Every Java platform has HmacSHA256", e);
    }
  }

  private static ViewbaseException invalid() {
    return ViewbaseException.of(ErrorCode.ValidationFailure, "Invalid ShardIterator");
  }
}
