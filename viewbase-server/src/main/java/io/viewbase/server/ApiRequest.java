package io.viewbase.server;

import io.viewbase.api.Stability;

/**
 * An HTTP request as the native API sees it, free of any HTTP library: the parts that carry
 * meaning.
 *
 * @param method the HTTP method, upper case
 * @param target the request target as sent: raw (percent-encoded) path, optionally {@code ?query}
 * @param ifMatch the If-Match header, or null
 * @param ifNoneMatch the If-None-Match header, or null
 * @param contentType the Content-Type header, or null
 * @param body the body bytes (empty, never null)
 * @param authorization the Authorization header, or null: it carries an API key, so {@link
 *     #toString} leaves it out and no log line names it
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record ApiRequest(
    String method,
    String target,
    String ifMatch,
    String ifNoneMatch,
    String contentType,
    byte[] body,
    String authorization) {
  private static final byte[] EMPTY = new byte[0];

  public ApiRequest {
    body = body == null ? EMPTY : body;
  }

  /** A request without an Authorization header. */
  public ApiRequest(
      String method,
      String target,
      String ifMatch,
      String ifNoneMatch,
      String contentType,
      byte[] body) {
    this(method, target, ifMatch, ifNoneMatch, contentType, body, null);
  }

  /** The request with this Authorization header. */
  public ApiRequest withAuthorization(String header) {
    return new ApiRequest(method, target, ifMatch, ifNoneMatch, contentType, body, header);
  }

  /** The method and target only: never the Authorization header, whose key is a secret. */
  @Override
  public String toString() {
    return "ApiRequest[" + method + " " + target + "]";
  }

  public static ApiRequest of(String method, String target) {
    return new ApiRequest(method, target, null, null, null, EMPTY);
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
    int cut = indexOfAny(t, '?', '#');
    return cut < 0 ? t : t.substring(0, cut);
  }

  /** The raw query string (without '?'), or empty. */
  public String rawQuery() {
    int q = target.indexOf('?');
    if (q < 0) {
      return "";
    }
    int hash = target.indexOf('#', q);
    return hash < 0 ? target.substring(q + 1) : target.substring(q + 1, hash);
  }

  private static int indexOfAny(String s, char a, char b) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == a || c == b) {
        return i;
      }
    }
    return -1;
  }
}
