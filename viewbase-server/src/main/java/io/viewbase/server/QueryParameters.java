package io.viewbase.server;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Query;
import io.viewbase.api.ViewbaseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The query strings of the native API: the one rule by which every endpoint reads its parameters
 * ({@link #parse}: only the names its {@link Route} takes, each at most once), and the translation
 * of a query endpoint's parameters into an api {@link Query}. Only the shape is checked here
 * (numbers, booleans, names); what a query means is the engine's to judge, so it answers the same
 * through every interface.
 *
 * <pre>
 * parameter    | value                       | default
 * -------------+-----------------------------+--------
 * prefix       | id prefix                   | none
 * from, to     | id range, from incl, to excl| none
 * desc         | true / false                | false
 * filter       | OData $filter               | none
 * select       | comma-separated names       | all
 * limit        | 1..maxPageSize              | maxPageSize
 * continuation | token from the previous page| none
 * explain      | true adds the query plan    | false
 * </pre>
 */
final class QueryParameters {
  /** What the query endpoints take (the table above). */
  static final Set<String> NAMES =
      Set.of(
          "prefix", "from", "to", "desc", "filter", "select", "limit", "continuation", "explain");

  private QueryParameters() {}

  /**
   * The decoded name/value pairs of a request to this route. A name the route does not take, or a
   * name given twice, is an InvalidQuery naming the parameter and the endpoint (a typo such as
   * {@code top=}, or {@code ifMatch=} on a write, must not be silently ignored); empty pairs
   * ({@code ?&}) name nothing. Not to be changed: most requests have no query, and share one empty
   * map.
   */
  static Map<String, String> parse(String rawQuery, Route route) {
    if (rawQuery.isEmpty()) {
      return Map.of();
    }
    Map<String, String> params = new LinkedHashMap<>();
    for (String pair : rawQuery.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String name = PercentDecoding.queryComponent(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "" : PercentDecoding.queryComponent(pair.substring(eq + 1));
      if (!route.parameters().contains(name)) {
        throw ViewbaseException.of(
            ErrorCode.InvalidQuery,
            "Unknown query parameter; " + takes(route),
            "parameter",
            name,
            "endpoint",
            route.template());
      }
      if (params.putIfAbsent(name, value) != null) {
        throw ViewbaseException.of(
            ErrorCode.InvalidQuery, "A query parameter is given twice", "parameter", name);
      }
    }
    return params;
  }

  /** What the route accepts, in words for an error message. */
  private static String takes(Route route) {
    return route.parameters().isEmpty()
        ? "this endpoint takes none"
        : "this endpoint takes " + String.join(", ", route.parameters().stream().sorted().toList());
  }

  /** The query a query endpoint's parameters (from {@link #parse}) ask for. */
  static Query toQuery(String partitionKey, Map<String, String> p, int maxPageSize) {
    return new Query(
        partitionKey,
        p.get("from"),
        p.get("to"),
        p.get("prefix"),
        bool(p, "desc"),
        select(p.get("select")),
        p.get("filter"),
        limit(p.get("limit"), maxPageSize),
        p.get("continuation"));
  }

  /**
   * A flag: absent or {@code false} is false, {@code true} is true, anything else an InvalidQuery.
   */
  static boolean bool(Map<String, String> p, String name) {
    String v = p.get(name);
    if (v == null || v.equals("false")) {
      return false;
    }
    if (v.equals("true")) {
      return true;
    }
    throw ViewbaseException.of(
        ErrorCode.InvalidQuery, "A flag must be true or false", "parameter", name, "value", v);
  }

  private static int limit(String v, int maxPageSize) {
    if (v == null) {
      return maxPageSize;
    }
    int limit;
    try {
      limit = Integer.parseInt(v);
    } catch (NumberFormatException e) {
      limit = -1;
    }
    if (limit < 1 || limit > maxPageSize) {
      throw ViewbaseException.of(
          ErrorCode.InvalidQuery,
          "limit must be a whole number from 1 to " + maxPageSize,
          "parameter",
          "limit",
          "value",
          v);
    }
    return limit;
  }

  private static List<String> select(String v) {
    if (v == null) {
      return List.of();
    }
    List<String> names = new ArrayList<>();
    for (String name : v.split(",", -1)) {
      String trimmed = name.trim();
      if (trimmed.isEmpty()) {
        throw ViewbaseException.of(
            ErrorCode.InvalidQuery,
            "select has an empty property name",
            "parameter",
            "select",
            "value",
            v);
      }
      names.add(trimmed);
    }
    return names;
  }
}
