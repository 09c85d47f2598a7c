package io.viewbase.benchmarks;

import io.viewbase.server.azure.AzureOptions;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The Azure development account's key ({@code devstoreaccount1}), signing as the Azure SDKs do:
 * what lets the benchmarks send signed Azure-dialect requests without an SDK (the server verifies
 * an HMAC per request either way). A table SAS lets wrk send signed requests without signing each.
 */
public final class DevAccountKey {
  private static final String VERSION = "2019-02-02";

  private DevAccountKey() {}

  /** The query string (no {@code ?}) of a read-only SAS for {@code table}, valid until 2099. */
  public static String readOnlySas(String table) {
    String permissions = "r";
    String expiry = "2099-01-01T00:00:00Z";
    String canonical = "/table/" + AzureOptions.DEV_ACCOUNT + "/" + table.toLowerCase(Locale.ROOT);
    // sp, st, se, resource, si, sip, spr, sv, spk, srk, epk, erk
    String toSign =
        String.join("\n", permissions, "", expiry, canonical, "", "", "", VERSION, "", "", "", "");
    return "sv="
        + VERSION
        + "&tn="
        + table
        + "&sp="
        + permissions
        + "&se="
        + encode(expiry)
        + "&sig="
        + encode(sign(toSign));
  }

  /** Base64(HMAC-SHA256(key, UTF-8(text))): a SharedKey(Lite) or SAS signature. */
  public static String sign(String text) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(Base64.getDecoder().decode(AzureOptions.DEV_KEY), "HmacSHA256"));
      return Base64.getEncoder().encodeToString(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
