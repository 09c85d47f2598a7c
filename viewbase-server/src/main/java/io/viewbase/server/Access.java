package io.viewbase.server;

import io.viewbase.api.Batch;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;

/**
 * What a native-API request needs of its API key, decided from its route and method before it is
 * served, and the 403 for a key that falls short. A key reaches a table or view by name ({@link
 * ApiKey#reaches}): a view is read with read on the view's own name, not its source's, since a view
 * may show less than its source (a projection, a filter) and granting it alone is how a key is
 * given that much and no more; it also needs no catalog lookup per request.
 *
 * <pre>
 * route                                   | method            | needs
 * ----------------------------------------+-------------------+----------------------------------
 * /v1/health                              | GET               | nothing, ever (load balancers)
 * /console, /console/{file}               | GET               | nothing: static files, no data; a
 *                                         |                   |   browser cannot send a key to load
 *                                         |                   |   a page (the console asks on 401)
 * any path under /v1/admin/               | any               | admin (routes added later too)
 * /metrics                                | GET               | a key of any scope
 * a path no route matches                 | any               | a key of any scope (then 404)
 * /v1/tables                              | GET               | read (a listing key sees its own)
 * /v1/tables/{t}, /v1/views/{v}           | GET               | read on t or v
 * /v1/tables/{t}/items[/pk], .../changes  | GET               | read on t
 * /v1/tables/{t}/items/{pk}/{id}          | GET               | read on t
 * /v1/tables/{t}/items/{pk}/{id}          | PUT PATCH DELETE  | write on t
 * /v1/batch                               | POST              | write on every table it names,
 *                                         |                   |   checked before anything is written
 * /v1/tables/{t}, /v1/views/{v}           | PUT PATCH DELETE  | admin
 * .../expire, .../verify                  | POST              | admin
 * any route not named above               | any               | admin: a new route is closed until
 *                                         |                   |   it is placed here
 * </pre>
 *
 * A method a route does not answer needs what its writes need, then gets 405.
 */
final class Access {
  private static final String ADMIN_PREFIX = "/v1/admin/";

  private Access() {}

  /** What a request needs. */
  enum Need {
    NOTHING,
    ANY_KEY,
    READ_TABLE,
    WRITE_TABLE,
    ADMIN
  }

  static Need of(ApiRequest request, Route route) {
    boolean get = request.method().equals("GET");
    return switch (route) {
      case HEALTH, CONSOLE -> Need.NOTHING;
      case METRICS, TABLES -> Need.ANY_KEY;
      // under /v1/admin/ only the admin routes match: any other path there is refused as theirs
      case UNKNOWN -> underAdmin(request.rawPath()) ? Need.ADMIN : Need.ANY_KEY;
      case TABLE, VIEW -> get ? Need.READ_TABLE : Need.ADMIN;
      case TABLE_QUERY, PARTITION_QUERY, CHANGES -> get ? Need.READ_TABLE : Need.WRITE_TABLE;
      case ITEM -> get ? Need.READ_TABLE : Need.WRITE_TABLE;
      case BATCH -> Need.WRITE_TABLE; // on each table the body names: see check(key, batch)
      default -> Need.ADMIN;
    };
  }

  private static boolean underAdmin(String rawPath) {
    return rawPath.startsWith(ADMIN_PREFIX) || rawPath.equals("/v1/admin");
  }

  /** Refuses (403) a key whose scope or tables do not cover what the request needs. */
  static void check(ApiKey key, Need need, RouteMatch match) {
    switch (need) {
      case NOTHING, ANY_KEY -> {}
      case ADMIN -> require(key, KeyScope.ADMIN, null);
      case READ_TABLE -> require(key, KeyScope.READ, match.param(0));
      case WRITE_TABLE -> {
        // a batch's tables are in its body; its scope is checked here, its tables once read
        require(key, KeyScope.WRITE, match.route() == Route.BATCH ? null : match.param(0));
      }
      default -> throw new IllegalStateException("unknown need " + need);
    }
  }

  /**
   * Refuses (403) a batch with an operation on a table the key does not reach; nothing is written.
   */
  static void check(ApiKey key, Batch batch) {
    for (int i = 0; i < batch.size(); i++) {
      String table = batch.operations().get(i).table();
      if (!key.reaches(table)) {
        throw ViewbaseException.of(
            ErrorCode.ApiKeyDenied,
            "This API key does not reach a table of the batch; nothing was written",
            "keyId",
            key.id(),
            "table",
            table,
            "operationIndex",
            i);
      }
    }
  }

  private static void require(ApiKey key, KeyScope scope, String table) {
    if (!key.scope().covers(scope)) {
      throw ViewbaseException.of(
          ErrorCode.ApiKeyDenied,
          "This API key's scope does not allow the request",
          "keyId",
          key.id(),
          "scope",
          key.scope().wireName(),
          "needs",
          scope.wireName());
    }
    if (table != null && !key.reaches(table)) {
      throw ViewbaseException.of(
          ErrorCode.ApiKeyDenied,
          "This API key does not reach the table",
          "keyId",
          key.id(),
          "table",
          table);
    }
  }
}
