package io.viewbase.server.azure;

import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.AsciiString;
import java.util.AbstractMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A request's Netty headers seen as the lower-case map {@link AzureRequest} expects, without
 * copying them: a request is read by a few lookups ({@code authorization}, {@code x-ms-date},
 * {@code accept}...), and Netty's headers already answer those case-insensitively. A lookup gives
 * the first value of a repeated header. Iterating (which only tests and logs do) copies.
 */
final class HeaderView extends AbstractMap<String, String> {
  /**
   * The names looked up, as AsciiStrings: Netty hashes a String name character by character on
   * every lookup, an AsciiString once. The names are Viewbase's own constants (a few dozen); the
   * map stops growing at {@link #MAX_NAMES} all the same.
   */
  private static final ConcurrentHashMap<String, AsciiString> NAMES = new ConcurrentHashMap<>();

  private static final int MAX_NAMES = 256;

  private final HttpHeaders headers;

  HeaderView(HttpHeaders headers) {
    this.headers = headers;
  }

  @Override
  public String get(Object name) {
    return name instanceof String s ? headers.get(ascii(s)) : null;
  }

  @Override
  public boolean containsKey(Object name) {
    return name instanceof String s && headers.contains(ascii(s));
  }

  private static CharSequence ascii(String name) {
    AsciiString cached = NAMES.get(name);
    if (cached == null) {
      if (NAMES.size() >= MAX_NAMES) {
        return name;
      }
      cached = NAMES.computeIfAbsent(name, AsciiString::cached);
    }
    return cached;
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
