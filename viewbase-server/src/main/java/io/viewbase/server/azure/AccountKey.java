package io.viewbase.server.azure;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * One storage account's name and key, with an HMAC-SHA256 ready per thread: a Mac is not
 * thread-safe, and creating one costs more than the signature it computes.
 */
final class AccountKey {
  private final String name;
  private final SecretKeySpec key;
  private final ThreadLocal<Mac> macs;

  AccountKey(String name, String base64Key) {
    this.name = name;
    this.key = new SecretKeySpec(Base64.getDecoder().decode(base64Key), "HmacSHA256");
    this.macs = ThreadLocal.withInitial(this::newMac);
  }

  String name() {
    return name;
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

  /** Base64(HMAC-SHA256(key, UTF-8(text))): a signature as Azure's clients compute it. */
  String sign(String text) {
    return Base64.getEncoder().encodeToString(mac(text));
  }

  /**
   * Whether {@code signature} (decoded from base64) is this key's signature of {@code text}, in
   * constant time.
   */
  boolean verifies(String text, byte[] signature) {
    return MessageDigest.isEqual(mac(text), signature);
  }

  private byte[] mac(String text) {
    return macs.get().doFinal(text.getBytes(StandardCharsets.UTF_8));
  }
}
