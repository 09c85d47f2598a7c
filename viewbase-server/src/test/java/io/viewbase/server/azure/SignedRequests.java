package io.viewbase.server.azure;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Builds requests to the dialect as a client would send them: path-style, signed with
 * SharedKeyLite.
 */
final class SignedRequests {
  static final String ACCOUNT = AzureOptions.DEV_ACCOUNT;
  static final AccountKey KEY = new AccountKey(ACCOUNT, AzureOptions.DEV_KEY);

  private final String method;
  private final String target;
  private final Map<String, String> headers = new LinkedHashMap<>();
  private byte[] body = new byte[0];
  private boolean sign = true;

  private SignedRequests(String method, String pathAfterAccount) {
    this.method = method;
    this.target = "/" + ACCOUNT + pathAfterAccount;
    headers.put("host", "127.0.0.1:10002");
    headers.put("accept", "application/json;odata=minimalmetadata");
    headers.put("date", now());
  }

  static SignedRequests of(String method, String pathAfterAccount) {
    return new SignedRequests(method, pathAfterAccount);
  }

  static String now() {
    return DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
  }

  SignedRequests header(String name, String value) {
    headers.put(name.toLowerCase(java.util.Locale.ROOT), value);
    return this;
  }

  SignedRequests body(String json) {
    this.body = json.getBytes(StandardCharsets.UTF_8);
    headers.putIfAbsent("content-type", "application/json");
    return this;
  }

  SignedRequests unsigned() {
    this.sign = false;
    return this;
  }

  AzureRequest build() {
    Map<String, String> h = new LinkedHashMap<>(headers);
    if (sign) {
      String path = target.indexOf('?') < 0 ? target : target.substring(0, target.indexOf('?'));
      java.util.regex.Matcher signed =
          java.util.regex.Pattern.compile("[?&]comp=([^&]*)").matcher(target);
      String comp = signed.find() ? "?comp=" + signed.group(1) : "";
      String toSign = h.get("date") + "\n/" + ACCOUNT + path + comp;
      h.put("authorization", "SharedKeyLite " + ACCOUNT + ":" + KEY.sign(toSign));
    }
    return new AzureRequest(method, target, h, body, "127.0.0.1");
  }
}
