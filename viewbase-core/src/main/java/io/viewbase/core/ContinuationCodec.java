package io.viewbase.core;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Opaque continuation tokens: where the previous page stopped, bound to the table and the query
 * that issued it, and signed with the database's secret (HMAC-SHA256, truncated to 128 bits). A
 * token that was altered, comes from another query or table, or is not ours is refused with {@link
 * ErrorCode#InvalidContinuation} before anything is read.
 *
 * <pre>
 * token := base64url( FORMAT(1) tableId(4) fingerprint(4) viewId(4) partLen(4) partition keyLen(4) key mac(16) )
 * </pre>
 *
 * {@code viewId} is 0 for a position in the source table, or the table id of the view a view plan
 * was reading, so a query resumes in the same key space it stopped in.
 */
final class ContinuationCodec {
  private static final byte FORMAT = 2;
  private static final int MAC_BYTES = 16;
  private static final int MAX_TOKEN_CHARS = 8192;

  /** Where a page stopped: the last entry read, in the source table (viewId 0) or in a view. */
  record Position(int viewId, byte[] partition, byte[] key) {}

  private final SecretKeySpec key;
  private final ThreadLocal<Mac> macs;

  ContinuationCodec(byte[] secret) {
    this.key = new SecretKeySpec(secret, "HmacSHA256");
    this.macs = ThreadLocal.withInitial(this::newMac);
  }

  private Mac newMac() {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      return mac;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  String encode(int tableId, int fingerprint, Position position) {
    byte[] partition = position.partition();
    ByteBuffer buf =
        ByteBuffer.allocate(
            1 + 4 + 4 + 4 + 4 + partition.length + 4 + position.key().length + MAC_BYTES);
    buf.put(FORMAT).putInt(tableId).putInt(fingerprint).putInt(position.viewId());
    buf.putInt(partition.length).put(partition);
    buf.putInt(position.key().length).put(position.key());
    byte[] body = buf.array();
    Mac mac = macs.get();
    mac.update(body, 0, body.length - MAC_BYTES);
    System.arraycopy(mac.doFinal(), 0, body, body.length - MAC_BYTES, MAC_BYTES);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(body);
  }

  Position decode(String token, int tableId, int fingerprint) {
    if (token.length() > MAX_TOKEN_CHARS) {
      throw invalid();
    }
    byte[] body;
    try {
      body = Base64.getUrlDecoder().decode(token);
    } catch (IllegalArgumentException e) {
      throw invalid();
    }
    if (body.length < 1 + 4 + 4 + 4 + 4 + 4 + MAC_BYTES) {
      throw invalid();
    }
    Mac mac = macs.get();
    mac.update(body, 0, body.length - MAC_BYTES);
    byte[] expected = Arrays.copyOf(mac.doFinal(), MAC_BYTES);
    byte[] actual = Arrays.copyOfRange(body, body.length - MAC_BYTES, body.length);
    if (!MessageDigest.isEqual(expected, actual)) {
      throw invalid();
    }
    ByteBuffer buf = ByteBuffer.wrap(body, 0, body.length - MAC_BYTES);
    if (buf.get() != FORMAT || buf.getInt() != tableId || buf.getInt() != fingerprint) {
      throw invalid();
    }
    int viewId = buf.getInt();
    byte[] partition = new byte[buf.getInt()];
    buf.get(partition);
    byte[] key = new byte[buf.getInt()];
    buf.get(key);
    return new Position(viewId, partition, key);
  }

  private static ViewbaseException invalid() {
    return new ViewbaseException(
        ErrorCode.InvalidContinuation,
        "The continuation token is not one this database issued for this query");
  }
}
