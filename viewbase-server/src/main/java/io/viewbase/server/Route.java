package io.viewbase.server;

import java.util.Set;

/**
 * The endpoints of the native API v1, each with the methods it answers, the query parameters it
 * takes and its metrics label. The parameters are the whole of what an endpoint reads from the
 * query string: any other name is refused ({@link QueryParameters#parse}), on every endpoint alike.
 */
enum Route {
  HEALTH("health", "/v1/health", Set.of("GET"), Set.of()),
  METRICS("metrics", "/metrics", Set.of("GET"), Set.of()),
  TABLES("tables", "/v1/tables", Set.of("GET"), Set.of()),
  TABLE("table", "/v1/tables/{table}", Set.of("GET", "PUT", "PATCH", "DELETE"), Set.of()),
  /** A forced time-to-live sweep of the table: {@link io.viewbase.api.Database#expire}. */
  TABLE_EXPIRE("table_expire", "/v1/tables/{table}/expire", Set.of("POST"), Set.of()),
  TABLE_QUERY("table_query", "/v1/tables/{table}/items", Set.of("GET"), QueryParameters.NAMES),
  PARTITION_QUERY(
      "partition_query",
      "/v1/tables/{table}/items/{partitionKey}",
      Set.of("GET"),
      QueryParameters.NAMES),
  ITEM(
      "item",
      "/v1/tables/{table}/items/{partitionKey}/{id}",
      Set.of("GET", "PUT", "PATCH", "DELETE"),
      Set.of()),
  CHANGES("changes", "/v1/tables/{table}/changes", Set.of("GET"), ChangeEndpoint.PARAMETERS),
  BATCH("batch", "/v1/batch", Set.of("POST"), Set.of()),
  VIEW("view", "/v1/views/{view}", Set.of("GET", "PUT", "DELETE"), Set.of()),
  VIEW_VERIFY("view_verify", "/v1/views/{view}/verify", Set.of("POST"), Set.of("repair")),
  /**
   * The API keys: list ({@code GET}) and create ({@code POST}); admin keys only ({@link Access}).
   */
  ADMIN_KEYS("admin_keys", "/v1/admin/keys", Set.of("GET", "POST"), Set.of()),
  /** One API key: revoke ({@code DELETE}). */
  ADMIN_KEY("admin_key", "/v1/admin/keys/{id}", Set.of("DELETE"), Set.of()),
  /** An online backup of the whole database: {@link io.viewbase.api.Database#backup}. */
  ADMIN_BACKUP("admin_backup", "/v1/admin/backup", Set.of("POST"), Set.of()),
  /** The data explorer's static files: {@link ConsoleAssets}. */
  CONSOLE("console", "/console/{file}", Set.of("GET"), Set.of()),
  /** No endpoint matched (404), or the request could not be read at all. */
  UNKNOWN("unknown", "", Set.of(), Set.of());

  private final String label;
  private final String template;
  private final Set<String> methods;
  private final Set<String> parameters;

  Route(String label, String template, Set<String> methods, Set<String> parameters) {
    this.label = label;
    this.template = template;
    this.methods = methods;
    this.parameters = parameters;
  }

  String label() {
    return label;
  }

  String template() {
    return template;
  }

  /** The query parameters the endpoint takes; none for most. */
  Set<String> parameters() {
    return parameters;
  }

  boolean allows(String method) {
    return methods.contains(method);
  }

  /** The Allow header value for a 405 answer. */
  String allowHeader() {
    return String.join(", ", methods.stream().sorted().toList());
  }
}
