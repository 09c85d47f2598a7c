package io.viewbase.client;

import io.viewbase.api.ChangePage;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.ItemCursor;
import io.viewbase.api.Limits;
import io.viewbase.api.Page;
import io.viewbase.api.PagedCursor;
import io.viewbase.api.Query;
import io.viewbase.api.QueryPlan;
import io.viewbase.api.Table;
import io.viewbase.api.ViewbaseException;
import io.viewbase.json.ChangeJson;
import io.viewbase.json.ItemJson;
import io.viewbase.json.PageJson;
import java.time.Duration;
import java.util.Optional;

/**
 * A table on a server. Each call is one request:
 *
 * <pre>
 * call                    | request
 * ------------------------+------------------------------------------------
 * get                     | GET    .../items/{pk}/{id}   (404 ItemNotFound -> empty)
 * insert                  | PUT    .../items/{pk}/{id}   If-None-Match: *
 * replace(item, e)        | PUT    .../items/{pk}/{id}   If-Match: e, or * when e is null
 * upsert                  | PUT    .../items/{pk}/{id}
 * merge(item, e)          | PATCH  .../items/{pk}/{id}   If-Match: e, or * when e is null
 * upsertMerge             | PATCH  .../items/{pk}/{id}
 * delete(pk, id, e)       | DELETE .../items/{pk}/{id}   If-Match: e when given
 * query                   | GET    .../items/{pk}?...  or  .../items?... without a partition key
 * changes(after, n, wait) | GET    .../changes?after=&limit=&wait=Nms  (timeout: wait + request's)
 * </pre>
 */
final class RemoteTable implements Table {
  /** Items the server wrote are read back leniently: the server has enforced its own limits. */
  private static final Limits READ_LIMITS =
      new Limits(
          Integer.MAX_VALUE,
          Integer.MAX_VALUE,
          Integer.MAX_VALUE,
          Integer.MAX_VALUE,
          1024,
          Integer.MAX_VALUE);

  private final HttpTransport http;
  private final String name;
  private final String itemsPath;

  RemoteTable(HttpTransport http, String name) {
    this.http = http;
    this.name = name;
    this.itemsPath = RemoteDatabase.tablePath(name) + "/items";
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Optional<Item> get(String partitionKey, String id) {
    try {
      return Optional.of(read(http.send("GET", itemPath(partitionKey, id), null)));
    } catch (ViewbaseException e) {
      if (e.code() == ErrorCode.ItemNotFound) {
        return Optional.empty();
      }
      throw e;
    }
  }

  @Override
  public Item insert(Item item) {
    return write("PUT", item, "If-None-Match", "*");
  }

  @Override
  public Item replace(Item item, String ifMatch) {
    return write("PUT", item, "If-Match", ifMatch == null ? "*" : ifMatch);
  }

  @Override
  public Item upsert(Item item) {
    return write("PUT", item);
  }

  @Override
  public Item merge(Item item, String ifMatch) {
    return write("PATCH", item, "If-Match", ifMatch == null ? "*" : ifMatch);
  }

  @Override
  public Item upsertMerge(Item item) {
    return write("PATCH", item);
  }

  @Override
  public void delete(String partitionKey, String id, String ifMatch) {
    if (ifMatch == null) {
      http.send("DELETE", itemPath(partitionKey, id), null);
    } else {
      http.send("DELETE", itemPath(partitionKey, id), null, "If-Match", ifMatch);
    }
  }

  @Override
  public Page query(Query query) {
    return PageJson.read(http.send("GET", queryPath(query), null).body(), READ_LIMITS);
  }

  @Override
  public ItemCursor cursor(Query query) {
    return new PagedCursor(this, query);
  }

  /** The server's plan, from a query with {@code explain=true} that reads at most one item. */
  @Override
  public QueryPlan explain(Query query) {
    return PageJson.readPlan(
        http.send("GET", queryPath(query.withLimit(1)) + "&explain=true", null).body());
  }

  /**
   * One request; its arguments are checked here as the embedded engine checks them, so a bad one
   * fails alike (InvalidInput) without a round trip. A wait is sent in whole milliseconds, rounded
   * up.
   */
  @Override
  public ChangePage changes(long after, int limit, Duration wait) {
    ChangePage.checkRead(after, limit, wait);
    long millis = wait.toMillis() + (wait.minusMillis(wait.toMillis()).isZero() ? 0 : 1);
    String path =
        RemoteDatabase.tablePath(name)
            + "/changes?after="
            + after
            + "&limit="
            + limit
            + "&wait="
            + millis
            + "ms";
    HttpTransport.Answer answer = http.send("GET", path, null, http.timeout().plus(wait));
    return ChangeJson.readPage(answer.body(), READ_LIMITS);
  }

  private Item write(String method, Item item, String... headers) {
    return read(
        http.send(method, itemPath(item.partitionKey(), item.id()), ItemJson.write(item), headers));
  }

  private static Item read(HttpTransport.Answer answer) {
    return ItemJson.readStored(answer.body(), READ_LIMITS);
  }

  private String itemPath(String partitionKey, String id) {
    return itemsPath + "/" + UriEncoding.encode(partitionKey) + "/" + UriEncoding.encode(id);
  }

  private String queryPath(Query q) {
    StringBuilder path = new StringBuilder(itemsPath);
    if (q.partitionKey() != null) {
      path.append('/').append(UriEncoding.encode(q.partitionKey()));
    }
    path.append("?limit=").append(q.limit());
    param(path, "prefix", q.prefix());
    param(path, "from", q.from());
    param(path, "to", q.to());
    if (q.descending()) {
      path.append("&desc=true");
    }
    param(path, "filter", q.filter());
    if (!q.select().isEmpty()) {
      param(path, "select", String.join(",", q.select()));
    }
    param(path, "continuation", q.continuation());
    return path.toString();
  }

  private static void param(StringBuilder path, String name, String value) {
    if (value != null) {
      path.append('&').append(name).append('=').append(UriEncoding.encode(value));
    }
  }
}
