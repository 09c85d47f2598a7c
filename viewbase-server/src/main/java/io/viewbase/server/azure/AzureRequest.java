package io.viewbase.server.azure;

import io.viewbase.api.Stability;
import java.util.Map;

/**
 * An HTTP request as the Azure dialect sees it, free of any HTTP library.
 *
 * @param method the HTTP method, upper case
 * @param target the request target as sent: raw (percent-encoded) path, optionally {@code ?query}
 * @param headers header values by lower-case name (the first value of a repeated header)
 * @param body the body bytes (empty, never null)
 * @param clientIp the peer's address, for SAS {@code sip} checks (null if unknown)
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record AzureRequest(
    String method, String target, Map<String, String> headers, byte[] body, String clientIp) {
  private static final byte[] EMPTY = new byte[0];

  public AzureRequest {
    body = body == null ? EMPTY : body;
  }

  /** A header by its lower-case name, or null. */
  public String header(String lowerCaseName) {
    return headers.get(lowerCaseName);
  }

  /**
   * The raw path: the target without its query, and without scheme and authority if sent in
   * absolute form.
   */
  public String rawPath() {
    String t = target;
    if (t.startsWith("http://") || t.startsWith("https://")) {
      int slash = t.indexOf('/', t.indexOf("//") + 2);
      t = slash < 0 ? "/" : t.substring(slash);
    }
    int q = t.indexOf('?');
    return q < 0 ? t : t.substring(0, q);
  }

  /** The raw query string (without '?'), or empty. */
  public String rawQuery() {
    int q = target.indexOf('?');
    return q < 0 ? "" : target.substring(q + 1);
  }
}
