package io.viewbase.server;

import java.util.Set;

/**
 * The endpoints of the native API v1, each with the methods it answers and its metrics label.
 */
enum Route {
  HEALTH("health", "/v1/health", Set.of("GET")),
  METRICS("metrics", "/metrics", Set.of("GET")),
  TABLES("tables", "/v1/tables", Set.of("GET")),
  TABLE("table", "/v1/tables/{table}", Set.of("GET", "PUT", "DELETE")),
  TABLE_QUERY("table_query", "/v1/tables/{table}/items", Set.of("GET")),
  PARTITION_QUERY("partition_query", "/v1/tables/{table}/items/{partitionKey}", Set.of("GET")),
  ITEM("item", "/v1/tables/{table}/items/{partitionKey}/{id}", Set.of("GET", "PUT", "PATCH", "DELETE")),
  BATCH("batch", "/v1/batch", Set.of("POST")),
  VIEW("view", "/v1/views/{view}", Set.of("GET", "PUT", "DELETE")),
  VIEW_VERIFY("view_verify", "/v1/views/{view}/verify", Set.of("POST")),
  /** No endpoint matched (404), or the request could not be read at all. */
  UNKNOWN("unknown", "", Set.of());

  private final String label;
  private final String template;
  private final Set<String> methods;

  Route(String label, String template, Set<String> methods) {
    this.label = label;
    this.template = template;
    this.methods = methods;
  }

  String label() {
    return label;
  }

  String template() {
    return template;
  }

  boolean allows(String method) {
    return methods.contains(method);
  }

  /** The Allow header value for a 405 answer. */
  String allowHeader() {
    return String.join(", ", methods.stream().sorted().toList());
  }
}
