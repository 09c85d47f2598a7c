package io.viewbase.server;

import io.viewbase.api.Stability;
import io.viewbase.api.ViewbaseException;
import io.viewbase.json.ErrorJson;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the native API answers: a status, a body with its content type, and extra headers ({@code
 * ETag}, {@code Location}, {@code Allow}).
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record ApiResponse(int status, String contentType, byte[] body, Map<String, String> headers)
    implements Answer {
  public static final String JSON = "application/json";
  private static final byte[] EMPTY = new byte[0];

  public ApiResponse {
    body = body == null ? EMPTY : body;
    headers = headers instanceof HeaderLines encoded ? encoded : Map.copyOf(headers);
  }

  public static ApiResponse json(int status, byte[] body) {
    return new ApiResponse(status, JSON, body, Map.of());
  }

  public static ApiResponse noContent() {
    return new ApiResponse(204, null, EMPTY, Map.of());
  }

  public static ApiResponse text(int status, String contentType, String text) {
    return new ApiResponse(status, contentType, text.getBytes(StandardCharsets.UTF_8), Map.of());
  }

  public static ApiResponse error(ViewbaseException e) {
    return json(e.code().httpStatus(), ErrorJson.write(e));
  }

  /** The same response with one more header (a null value adds nothing). */
  public ApiResponse withHeader(String name, String value) {
    if (value == null) {
      return this;
    }
    Map<String, String> more = new LinkedHashMap<>(headers);
    more.put(name, value);
    return new ApiResponse(status, contentType, body, more);
  }

  @Override
  public void writeHeaders(ResponseBytes out) {
    if (headers instanceof HeaderLines lines) {
      out.lines(lines.encoded());
      return;
    }
    for (Map.Entry<String, String> e : headers.entrySet()) {
      out.header(e.getKey(), e.getValue());
    }
  }

  public String bodyText() {
    return new String(body, StandardCharsets.UTF_8);
  }
}
