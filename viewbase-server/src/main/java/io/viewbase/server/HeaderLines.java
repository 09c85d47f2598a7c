package io.viewbase.server;

import java.util.AbstractMap;
import java.util.Map;
import java.util.Set;

/**
 * An answer's extra headers, encoded once: for an answer that is sent many times (a point read's,
 * which the database caches and every read of the item sends again), so that each write copies its
 * header lines instead of checking and encoding each value again. An immutable map of the headers
 * as given; {@link ApiResponse#writeHeaders} writes {@link #encoded}.
 */
final class HeaderLines extends AbstractMap<String, String> {
  private final Map<String, String> headers;
  private final byte[] encoded;

  private HeaderLines(Map<String, String> headers) {
    this.headers = Map.copyOf(headers);
    this.encoded = ResponseBytes.lines(this.headers);
  }

  /**
   * The headers, checked and encoded now: fails as {@link ResponseBytes#header} fails on a value it
   * cannot send.
   */
  static HeaderLines of(Map<String, String> headers) {
    return new HeaderLines(headers);
  }

  /** The header lines, as {@link ResponseBytes#lines(Map)} encoded them; not to be changed. */
  byte[] encoded() {
    return encoded;
  }

  @Override
  public Set<Entry<String, String>> entrySet() {
    return headers.entrySet();
  }

  @Override
  public String get(Object name) {
    return headers.get(name);
  }
}
