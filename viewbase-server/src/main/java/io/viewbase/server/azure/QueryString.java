package io.viewbase.server.azure;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.PercentDecoding;
import java.util.HashMap;
import java.util.Map;

/**
 * The decoded parameters of a request's query string. Names are case-sensitive as on Azure ({@code
 * $filter}, {@code NextPartitionKey}, {@code sig}); a name given twice is refused (400
 * InvalidQueryParameterValue); names Azure ignores (such as {@code timeout}) are kept and simply
 * never read.
 */
final class QueryString {
  private static final QueryString EMPTY = new QueryString(Map.of());

  private final Map<String, String> values;

  private QueryString(Map<String, String> values) {
    this.values = values;
  }

  static QueryString parse(String rawQuery) {
    if (rawQuery.isEmpty()) {
      return EMPTY;
    }
    Map<String, String> values = new HashMap<>();
    int start = 0;
    while (start <= rawQuery.length()) {
      int amp = rawQuery.indexOf('&', start);
      int end = amp < 0 ? rawQuery.length() : amp;
      if (end > start) {
        String pair = rawQuery.substring(start, end);
        int eq = pair.indexOf('=');
        String name = PercentDecoding.queryComponent(eq < 0 ? pair : pair.substring(0, eq));
        String value = eq < 0 ? "" : pair.substring(eq + 1);
        // A SAS signature is base64: a client that left its '+' unencoded still means '+', not a
        // space.
        String decoded =
            name.equals("sig")
                ? PercentDecoding.segment(value)
                : PercentDecoding.queryComponent(value);
        if (values.putIfAbsent(name, decoded) != null) {
          // First-wins would let a proxy and the server read different values (two sig, two
          // $filter).
          throw ViewbaseException.of(
              ErrorCode.InvalidQueryParameterValue,
              "A query parameter is given more than " + "once",
              "parameter",
              name);
        }
      }
      if (amp < 0) {
        break;
      }
      start = amp + 1;
    }
    return new QueryString(values);
  }

  String get(String name) {
    return values.get(name);
  }

  boolean has(String name) {
    return values.containsKey(name);
  }
}
