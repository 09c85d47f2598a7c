package io.viewbase.server;

import java.util.List;

/**
 * A request path matched to its {@link Route}, with the still percent-encoded values of the
 * template's placeholders in order. Matching never decodes, so it is cheap enough to run on the
 * event loop to decide where a request is served.
 */
record RouteMatch(Route route, List<String> rawParams) {
  private static final RouteMatch UNKNOWN = new RouteMatch(Route.UNKNOWN, List.of());
  private static final RouteMatch METRICS = new RouteMatch(Route.METRICS, List.of());
  private static final RouteMatch HEALTH = new RouteMatch(Route.HEALTH, List.of());
  private static final RouteMatch BATCH = new RouteMatch(Route.BATCH, List.of());
  private static final RouteMatch TABLES = new RouteMatch(Route.TABLES, List.of());
  private static final RouteMatch ADMIN_KEYS = new RouteMatch(Route.ADMIN_KEYS, List.of());
  private static final RouteMatch ADMIN_BACKUP = new RouteMatch(Route.ADMIN_BACKUP, List.of());
  private static final RouteMatch CONSOLE = new RouteMatch(Route.CONSOLE, List.of());
  private static final String PREFIX = "/v1/";

  /** The most segments after {@code /v1/} that any route has ({@code tables/T/items/pk/id}). */
  private static final int MAX_SEGMENTS = 5;

  /**
   * Matches by walking the path's slashes once: no split, and no string but the placeholders'
   * values (it runs for every request, on the event loop). Segments may be empty, as in {@code
   * /v1/tables/}; a path with more segments than any route matches nothing.
   */
  static RouteMatch of(String rawPath) {
    if (rawPath.equals("/metrics")) {
      return METRICS;
    }
    if (rawPath.startsWith(ConsoleAssets.PREFIX)
        && (rawPath.length() == ConsoleAssets.PREFIX.length()
            || rawPath.charAt(ConsoleAssets.PREFIX.length()) == '/')) {
      return CONSOLE; // the file is ConsoleAssets' to find, by the whole path
    }
    if (!rawPath.startsWith(PREFIX)) {
      return UNKNOWN;
    }
    // segment i is rawPath[starts[i], starts[i + 1] - 1)
    int[] starts = new int[MAX_SEGMENTS + 1];
    int count = 0;
    int start = PREFIX.length();
    while (true) {
      if (count == MAX_SEGMENTS) {
        return UNKNOWN;
      }
      starts[count++] = start;
      int slash = rawPath.indexOf('/', start);
      if (slash < 0) {
        break;
      }
      start = slash + 1;
    }
    starts[count] = rawPath.length() + 1;
    Segments s = new Segments(rawPath, starts, count);
    if (s.is(0, "health")) {
      return count == 1 ? HEALTH : UNKNOWN;
    }
    if (s.is(0, "batch")) {
      return count == 1 ? BATCH : UNKNOWN;
    }
    if (s.is(0, "tables")) {
      return tables(s);
    }
    if (s.is(0, "views")) {
      return views(s);
    }
    if (s.is(0, "admin")) {
      return admin(s);
    }
    return UNKNOWN;
  }

  private static RouteMatch admin(Segments s) {
    if (s.count == 2 && s.is(1, "backup")) {
      return ADMIN_BACKUP;
    }
    if (s.count >= 2 && s.is(1, "keys")) {
      return switch (s.count) {
        case 2 -> ADMIN_KEYS;
        case 3 -> new RouteMatch(Route.ADMIN_KEY, List.of(s.get(2)));
        default -> UNKNOWN;
      };
    }
    return UNKNOWN;
  }

  private static RouteMatch tables(Segments s) {
    if (s.count == 1) {
      return TABLES;
    }
    if (s.count == 2) {
      return new RouteMatch(Route.TABLE, List.of(s.get(1)));
    }
    if (s.count == 3 && s.is(2, "changes")) {
      return new RouteMatch(Route.CHANGES, List.of(s.get(1)));
    }
    if (s.count == 3 && s.is(2, "expire")) {
      return new RouteMatch(Route.TABLE_EXPIRE, List.of(s.get(1)));
    }
    if (!s.is(2, "items")) {
      return UNKNOWN;
    }
    return switch (s.count) {
      case 3 -> new RouteMatch(Route.TABLE_QUERY, List.of(s.get(1)));
      case 4 -> new RouteMatch(Route.PARTITION_QUERY, List.of(s.get(1), s.get(3)));
      default -> new RouteMatch(Route.ITEM, List.of(s.get(1), s.get(3), s.get(4)));
    };
  }

  private static RouteMatch views(Segments s) {
    if (s.count == 2) {
      return new RouteMatch(Route.VIEW, List.of(s.get(1)));
    }
    if (s.count == 3 && s.is(2, "verify")) {
      return new RouteMatch(Route.VIEW_VERIFY, List.of(s.get(1)));
    }
    return UNKNOWN;
  }

  /** The segments of a path after {@code /v1/}, by offsets. */
  private record Segments(String path, int[] starts, int count) {
    boolean is(int i, String literal) {
      int length = starts[i + 1] - 1 - starts[i];
      return length == literal.length() && path.startsWith(literal, starts[i]);
    }

    String get(int i) {
      return path.substring(starts[i], starts[i + 1] - 1);
    }
  }

  /** The i-th placeholder, percent-decoded. */
  String param(int i) {
    return PercentDecoding.segment(rawParams.get(i));
  }
}
