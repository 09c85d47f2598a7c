package io.viewbase.server;

import java.util.List;

/**
 * A request path matched to its {@link Route}, with the still percent-encoded values of the
 * template's placeholders in order. Matching never decodes, so it is cheap enough to run on the
 * event loop to decide where a request is served.
 */
record RouteMatch(Route route, List<String> rawParams) {
  private static final RouteMatch UNKNOWN = new RouteMatch(Route.UNKNOWN, List.of());

  static RouteMatch of(String rawPath) {
    if (rawPath.equals("/metrics")) {
      return new RouteMatch(Route.METRICS, List.of());
    }
    if (!rawPath.startsWith("/v1/")) {
      return UNKNOWN;
    }
    String[] s = rawPath.substring(4).split("/", -1);
    return switch (s[0]) {
      case "health" -> s.length == 1 ? new RouteMatch(Route.HEALTH, List.of()) : UNKNOWN;
      case "batch" -> s.length == 1 ? new RouteMatch(Route.BATCH, List.of()) : UNKNOWN;
      case "tables" -> tables(s);
      case "views" -> views(s);
      default -> UNKNOWN;
    };
  }

  private static RouteMatch tables(String[] s) {
    if (s.length == 1) {
      return new RouteMatch(Route.TABLES, List.of());
    }
    if (s.length == 2) {
      return new RouteMatch(Route.TABLE, List.of(s[1]));
    }
    if (!s[2].equals("items")) {
      return UNKNOWN;
    }
    return switch (s.length) {
      case 3 -> new RouteMatch(Route.TABLE_QUERY, List.of(s[1]));
      case 4 -> new RouteMatch(Route.PARTITION_QUERY, List.of(s[1], s[3]));
      case 5 -> new RouteMatch(Route.ITEM, List.of(s[1], s[3], s[4]));
      default -> UNKNOWN;
    };
  }

  private static RouteMatch views(String[] s) {
    if (s.length == 2) {
      return new RouteMatch(Route.VIEW, List.of(s[1]));
    }
    if (s.length == 3 && s[2].equals("verify")) {
      return new RouteMatch(Route.VIEW_VERIFY, List.of(s[1]));
    }
    return UNKNOWN;
  }

  /** The i-th placeholder, percent-decoded. */
  String param(int i) {
    return PercentDecoding.segment(rawParams.get(i));
  }
}
