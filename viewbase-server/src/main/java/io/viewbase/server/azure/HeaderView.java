package io.viewbase.server.azure;

import io.netty.handler.codec.http.HttpHeaders;
import java.util.AbstractMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A request's Netty headers seen as the lower-case map {@link AzureRequest} expects, without
 * copying them: a request is read by a few lookups ({@code authorization}, {@code x-ms-date},
 * {@code accept}...), and Netty's headers already answer those case-insensitively. A lookup gives
 * the first value of a repeated header. Iterating (which only tests and logs do) copies.
 */
final class HeaderView extends AbstractMap<String, String> {
  private final HttpHeaders headers;

  HeaderView(HttpHeaders headers) {
    this.headers = headers;
  }

  @Override
  public String get(Object name) {
    return name instanceof String s ? headers.get(s) : null;
  }

  @Override
  public boolean containsKey(Object name) {
    return name instanceof String s && headers.contains(s);
  }

  @Override
  public Set<Entry<String, String>> entrySet() {
    Map<String, String> copy = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : headers) {
      copy.putIfAbsent(e.getKey().toLowerCase(Locale.ROOT), e.getValue());
    }
    return copy.entrySet();
  }
}
