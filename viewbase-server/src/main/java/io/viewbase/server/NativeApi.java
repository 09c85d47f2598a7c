package io.viewbase.server;

import io.viewbase.api.BackupInfo;
import io.viewbase.api.Batch;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Page;
import io.viewbase.api.Query;
import io.viewbase.api.Stability;
import io.viewbase.api.SweepStatus;
import io.viewbase.api.Table;
import io.viewbase.api.TableInfo;
import io.viewbase.api.ViewbaseException;
import io.viewbase.json.BackupInfoJson;
import io.viewbase.json.BatchJson;
import io.viewbase.json.BatchResultJson;
import io.viewbase.json.ItemJson;
import io.viewbase.json.PageJson;
import io.viewbase.json.SweepStatusJson;
import io.viewbase.json.TableInfoJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The native HTTP API v1 as plain translation: an {@link ApiRequest} in, calls on a {@link
 * Database}, an {@link ApiResponse} out. No socket is needed to test it; the Netty adapter only
 * carries bytes. Every failure becomes a JSON error with its code's status; an unexpected one (an
 * {@link Error} too, and an error whose answer cannot be rendered) is logged here and answered as a
 * generic 500.
 *
 * <p>Item writes, by method and conditional header:
 *
 * <pre>
 * method | header           | Table call           | success
 * -------+------------------+----------------------+---------------------------
 * PUT    | none             | upsert               | 200 + item + ETag
 * PUT    | If-Match: e | *  | replace(item, e)     | 200 (412 stale, 404 absent)
 * PUT    | If-None-Match: * | insert               | 201 (409 ItemAlreadyExists)
 * PATCH  | none             | upsertMerge          | 200
 * PATCH  | If-Match: e | *  | merge(item, e)       | 200 (412 stale, 404 absent)
 * DELETE | optional If-Match| delete(pk, id, e)    | 204 (404 absent, 412 stale)
 * </pre>
 *
 * {@code POST /v1/batch} is {@link Database#commit}: 200 with {@code {"items": [...]}}, or the
 * failing operation's error with its {@code operationIndex}.
 *
 * <p>Every request but health first shows its API key ({@link ApiKeys}, {@link Access}) when the
 * catalog holds one, or when it holds none and the server may not serve openly (it listens beyond
 * loopback): 401 with {@code WWW-Authenticate: Bearer} without a valid key, 403 for a key that does
 * not cover the request. The keys are managed at {@code /v1/admin/keys}.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class NativeApi {
  private static final Logger LOG = LoggerFactory.getLogger(NativeApi.class);
  private static final byte[] HEALTHY = "{\"status\":\"ok\"}".getBytes(StandardCharsets.UTF_8);
  private static final String PROMETHEUS = "text/plain; version=0.0.4; charset=utf-8";

  /** Rendered once: the answer to a failure must not itself be able to fail. */
  private static final ApiResponse INTERNAL_ERROR =
      ApiResponse.error(
          new ViewbaseException(
              ErrorCode.InternalError, "Internal error; the server log has the details"));

  private final Database db;
  private final ServerMetrics metrics;
  private final ViewEndpoints views;
  private final TableOptionEndpoints tableOptions;
  private final ChangeEndpoint changes;
  private final ApiKeys keys;
  private final boolean openWithoutKeys;
  private final ConsoleAssets console = new ConsoleAssets();

  /** The API over {@code db}, open to requests without a key while its catalog holds none. */
  public NativeApi(Database db) {
    this(db, new ServerMetrics(), ApiKeys.of(db), true);
  }

  /**
   * @param metrics the process's registry, which {@code GET /metrics} renders
   * @param openWithoutKeys whether a request needs no key while the catalog holds none (a loopback
   *     or {@code --insecure} server); otherwise, with no key, every request but health is refused
   */
  NativeApi(Database db, ServerMetrics metrics, ApiKeys keys, boolean openWithoutKeys) {
    this.keys = keys;
    this.openWithoutKeys = openWithoutKeys;
    this.db = db;
    this.metrics = metrics;
    this.views = new ViewEndpoints(db);
    this.tableOptions = new TableOptionEndpoints(db);
    this.changes = new ChangeEndpoint(db);
  }

  public ApiResponse handle(ApiRequest request) {
    return handle(request, RouteMatch.of(request.rawPath()));
  }

  /**
   * Whether a request is cheap enough to serve on the event loop: point reads and catalog reads (a
   * view's status among them) never wait on a disk sync, and sparing them a thread hop keeps them
   * fast. Creating, dropping and verifying a view write or scan: the worker pool runs them.
   */
  static boolean runsInline(String method, RouteMatch match) {
    return switch (match.route()) {
      case ITEM, TABLE, VIEW -> method.equals("GET");
      case TABLE_QUERY,
          PARTITION_QUERY,
          TABLE_EXPIRE,
          VIEW_VERIFY,
          BATCH,
          CHANGES,
          ADMIN_KEYS,
          ADMIN_KEY,
          ADMIN_BACKUP ->
          false;
      default -> true;
    };
  }

  ApiResponse handle(ApiRequest request, RouteMatch match) {
    try {
      return dispatch(request, match);
    } catch (RuntimeException | Error e) {
      return failure(request, e);
    }
  }

  /** Whether the request writes one item: {@link #handleItemWrite} serves it without blocking. */
  static boolean isItemWrite(String method, RouteMatch match) {
    return match.route() == Route.ITEM && !method.equals("GET") && Route.ITEM.allows(method);
  }

  /**
   * Serves a single-item write with the table's asynchronous write. The future completes on {@code
   * answerOn} (the connection's event loop) once the write is durable, with the answer made there
   * and not on the store's committing thread, which every write waits for. Never fails: errors,
   * {@link Error}s among them, are answers.
   */
  CompletableFuture<ApiResponse> handleItemWrite(
      ApiRequest request, RouteMatch match, Executor answerOn) {
    CompletableFuture<Item> write;
    try {
      authorize(request, match);
      admit(request, match);
      write = itemWrite(request, db.table(match.param(0)), match.param(1), match.param(2));
    } catch (RuntimeException | Error e) {
      write = CompletableFuture.failedFuture(e);
    }
    return write.handleAsync(
        (stored, failure) -> {
          ApiResponse answer;
          try {
            answer =
                failure == null
                    ? itemAnswer(request, stored)
                    : failure(request, Futures.unwrap(failure));
          } catch (RuntimeException | Error e) {
            answer = failure(request, e);
          }
          return answer;
        },
        answerOn);
  }

  /** Whether the request reads a change feed: {@link #handleChanges} serves it without blocking. */
  static boolean isChangeRead(RouteMatch match) {
    return match.route() == Route.CHANGES;
  }

  /**
   * Serves a change-feed read as a long-poll that holds no thread while it waits ({@link
   * ChangePolls}); the answer is made on {@code answerOn}. Never fails: errors are answers.
   */
  CompletableFuture<ApiResponse> handleChanges(
      ApiRequest request, RouteMatch match, Executor answerOn) {
    CompletableFuture<io.viewbase.api.ChangePage> poll;
    try {
      authorize(request, match);
      poll = changes.start(admit(request, match), match.param(0));
    } catch (RuntimeException | Error e) {
      poll = CompletableFuture.failedFuture(e);
    }
    return poll.handleAsync(
        (page, failure) -> {
          ApiResponse answer;
          try {
            answer =
                failure == null
                    ? ChangeEndpoint.answer(page)
                    : failure(request, Futures.unwrap(failure));
          } catch (RuntimeException | Error e) {
            answer = failure(request, e);
          }
          return answer;
        },
        answerOn);
  }

  /** Answers the change-feed polls that wait, and stops their threads. */
  void close() {
    changes.close();
  }

  /**
   * A failure's answer, which never fails: a Viewbase error as itself (or, if that cannot be
   * rendered, 500), anything else logged and answered as 500. Errors too: a request that dies
   * without an answer would leave its connection waiting forever.
   */
  private static ApiResponse failure(ApiRequest request, Throwable e) {
    if (e instanceof ViewbaseException v) {
      try {
        return errorAnswer(v);
      } catch (RuntimeException | Error unrenderable) {
        // not v itself in the log line: its text is what could not be made
        LOG.error(
            "Answering 500: cannot render the {} error of {} {}",
            v.code(),
            request.method(),
            request.rawPath(),
            unrenderable);
        return INTERNAL_ERROR;
      }
    }
    return unexpected(request, e);
  }

  /** Logs a failure no code expected and answers the generic 500 (which leaks nothing of it). */
  static ApiResponse unexpected(ApiRequest request, Throwable e) {
    try {
      LOG.error("Unexpected failure serving {} {}", request.method(), request.rawPath(), e);
    } catch (RuntimeException | Error unprintable) {
      LOG.error(
          "Unexpected failure serving {} {} (it cannot be printed: {})",
          request.method(),
          request.rawPath(),
          unprintable.getClass().getName());
    }
    return INTERNAL_ERROR;
  }

  /**
   * An error's answer; a 405 carries the {@code Allow} header its context names, a 401 the {@code
   * WWW-Authenticate} challenge (RFC 6750).
   */
  private static ApiResponse errorAnswer(ViewbaseException e) {
    ApiResponse answer = ApiResponse.error(e);
    if (e.code() == ErrorCode.MethodNotAllowed) {
      return answer.withHeader("Allow", (String) e.context().get("allowed"));
    }
    if (e.code() == ErrorCode.ApiKeyRequired) {
      return answer.withHeader("WWW-Authenticate", "Bearer realm=\"viewbase\"");
    }
    if (e.code() == ErrorCode.ApiKeyInvalid) {
      return answer.withHeader(
          "WWW-Authenticate", "Bearer realm=\"viewbase\", error=\"invalid_token\"");
    }
    return answer;
  }

  /**
   * The request's API key once it covers the request ({@link Access}), or null where none is needed
   * (health; a catalog without keys on a server that may serve openly). Runs before {@link #admit},
   * so a request without a key learns nothing of the routes either.
   */
  private ApiKey authorize(ApiRequest r, RouteMatch match) {
    Access.Need need = Access.of(r, match.route());
    if (need == Access.Need.NOTHING) {
      return null;
    }
    if (!keys.any()) {
      if (openWithoutKeys) {
        return null;
      }
      throw new ViewbaseException(
          ErrorCode.ApiKeyRequired,
          "This server listens beyond loopback and its catalog holds no API key: create one with"
              + " 'viewbase key create --data DIR --scope admin' while the server is stopped");
    }
    ApiKey key = keys.verify(r.authorization());
    Access.check(key, need, match);
    return key;
  }

  /**
   * The request's query parameters, once its path names an endpoint that answers its method and
   * takes those parameters (404 UnknownEndpoint, 405 MethodNotAllowed, 400 InvalidQuery otherwise).
   * Every request passes here before it reads or writes anything, so a refused one changes nothing.
   */
  private static Map<String, String> admit(ApiRequest r, RouteMatch match) {
    Route route = match.route();
    if (route == Route.UNKNOWN) {
      throw ViewbaseException.of(
          ErrorCode.UnknownEndpoint, "No endpoint answers this path", "path", r.rawPath());
    }
    if (!route.allows(r.method())) {
      throw ViewbaseException.of(
          ErrorCode.MethodNotAllowed,
          "This endpoint does not answer the method",
          "method",
          r.method(),
          "endpoint",
          route.template(),
          "allowed",
          route.allowHeader());
    }
    return QueryParameters.parse(r.rawQuery(), route);
  }

  private ApiResponse dispatch(ApiRequest r, RouteMatch match) {
    ApiKey key = authorize(r, match);
    Map<String, String> parameters = admit(r, match);
    return switch (match.route()) {
      case HEALTH -> ApiResponse.json(200, HEALTHY);
      case METRICS -> ApiResponse.text(200, PROMETHEUS, metrics.scrape());
      case TABLES -> ApiResponse.json(200, TableInfoJson.writeList(tablesFor(key)));
      case TABLE -> table(r, match.param(0));
      case TABLE_EXPIRE -> {
        TableInfo table = describe(match.param(0));
        yield ApiResponse.json(
            200, SweepStatusJson.writeExpired(table.name(), db.expire(table.name())));
      }
      case TABLE_QUERY -> query(parameters, match.param(0), null);
      case PARTITION_QUERY -> query(parameters, match.param(0), match.param(1));
      case ITEM -> item(r, db.table(match.param(0)), match.param(1), match.param(2));
      case CHANGES -> changes.serve(parameters, match.param(0));
      case BATCH -> batch(r, key);
      case ADMIN_KEYS -> adminKeys(r);
      case ADMIN_KEY -> {
        keys.revoke(match.param(0));
        yield ApiResponse.noContent();
      }
      case VIEW -> views.view(r, match.param(0));
      case VIEW_VERIFY -> views.verify(parameters, match.param(0));
      case ADMIN_BACKUP -> backup(r);
      case CONSOLE -> console.serve(r.rawPath(), r.ifNoneMatch());
      case UNKNOWN -> throw new IllegalStateException("admit refuses it");
    };
  }

  private ApiResponse table(ApiRequest r, String name) {
    return switch (r.method()) {
      case "PUT" -> tableOptions.create(r, name);
      case "PATCH" -> tableOptions.alter(r, name);
      case "DELETE" -> {
        db.dropTable(name);
        yield ApiResponse.noContent();
      }
      default -> {
        TableInfo info = describe(name);
        yield ApiResponse.json(
            200, SweepStatusJson.describe(info, tableOptions.options(info), sweepStatus(info)));
      }
    };
  }

  /**
   * What the sweeper did for a table, for its description; null for a view or a database without
   * one.
   */
  private SweepStatus sweepStatus(TableInfo info) {
    if (!info.kind().equals(TableInfo.TABLE)) {
      return null;
    }
    try {
      return db.sweepStatus(info.name());
    } catch (ViewbaseException e) {
      if (e.code() == ErrorCode.NotImplemented) {
        return null;
      }
      throw e;
    }
  }

  /**
   * A table's description; not in the v1 table of routes, but what a client needs to check a name.
   */
  private TableInfo describe(String name) {
    for (TableInfo info : db.listTables()) {
      if (info.name().equalsIgnoreCase(name)) {
        return info;
      }
    }
    throw ViewbaseException.of(ErrorCode.TableNotFound, "Table not found", "table", name);
  }

  private ApiResponse query(Map<String, String> parameters, String tableName, String partitionKey) {
    Table table = db.table(tableName);
    Query query = QueryParameters.toQuery(partitionKey, parameters, db.limits().maxPageSize());
    Page page = table.query(query);
    return ApiResponse.json(
        200,
        PageJson.write(
            page, QueryParameters.bool(parameters, "explain") ? table.explain(query) : null));
  }

  private ApiResponse item(ApiRequest r, Table table, String partitionKey, String id) {
    if (r.method().equals("GET")) {
      return table
          .get(partitionKey, id, ItemAnswer.READ)
          .orElseThrow(
              () ->
                  ViewbaseException.of(
                      ErrorCode.ItemNotFound,
                      "Item not found",
                      "table",
                      table.name(),
                      "partitionKey",
                      partitionKey,
                      "id",
                      id));
    }
    return itemAnswer(r, Futures.join(itemWrite(r, table, partitionKey, id)));
  }

  /**
   * PUT, PATCH or DELETE of an item, with the table's asynchronous writes: the stored item (null:
   * deleted).
   */
  private CompletableFuture<Item> itemWrite(
      ApiRequest r, Table table, String partitionKey, String id) {
    return switch (r.method()) {
      case "PUT" -> put(r, table, body(r, partitionKey, id));
      case "PATCH" -> {
        refuseIfNoneMatch(r);
        Item item = body(r, partitionKey, id);
        yield r.ifMatch() == null
            ? table.upsertMergeAsync(item)
            : table.mergeAsync(item, ifMatch(r));
      }
      default -> {
        refuseIfNoneMatch(r);
        yield table
            .deleteAsync(partitionKey, id, r.ifMatch() == null ? null : ifMatch(r))
            .thenApply(deleted -> null);
      }
    };
  }

  /**
   * A write's answer: 201 for an insert (PUT with If-None-Match), 200 with the item, 204 for a
   * delete.
   */
  private static ApiResponse itemAnswer(ApiRequest r, Item stored) {
    if (stored == null) {
      return ApiResponse.noContent();
    }
    return ItemAnswer.of(r.ifNoneMatch() != null ? 201 : 200, stored);
  }

  private static CompletableFuture<Item> put(ApiRequest r, Table table, Item item) {
    if (r.ifNoneMatch() != null) {
      if (!r.ifNoneMatch().trim().equals("*")) {
        throw ViewbaseException.of(
            ErrorCode.InvalidHeader,
            "If-None-Match supports only * (insert if absent)",
            "header",
            "If-None-Match",
            "value",
            r.ifNoneMatch());
      }
      if (r.ifMatch() != null) {
        throw ViewbaseException.of(
            ErrorCode.InvalidHeader,
            "If-Match and If-None-Match exclude each other",
            "header",
            "If-Match");
      }
      return table.insertAsync(item);
    }
    return r.ifMatch() == null ? table.upsertAsync(item) : table.replaceAsync(item, ifMatch(r));
  }

  private static void refuseIfNoneMatch(ApiRequest r) {
    if (r.ifNoneMatch() != null) {
      throw ViewbaseException.of(
          ErrorCode.InvalidHeader,
          "If-None-Match is supported on PUT only",
          "header",
          "If-None-Match",
          "method",
          r.method());
    }
  }

  private static String ifMatch(ApiRequest r) {
    String value = r.ifMatch().trim();
    if (value.isEmpty()) {
      throw ViewbaseException.of(
          ErrorCode.InvalidHeader, "If-Match is empty; send an ETag or *", "header", "If-Match");
    }
    return value;
  }

  private Item body(ApiRequest r, String partitionKey, String id) {
    requireJson(r);
    return ItemJson.read(r.body(), db.limits()).addressedTo(partitionKey, id);
  }

  static void requireJson(ApiRequest r) {
    String type = r.contentType();
    if (type == null) {
      return; // curl and friends often send none; the body must still parse as JSON
    }
    int semicolon = type.indexOf(';');
    String mime =
        (semicolon < 0 ? type : type.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
    if (!mime.equals("application/json") && !mime.endsWith("+json")) {
      throw ViewbaseException.of(
          ErrorCode.UnsupportedMediaType,
          "Request bodies must be application/json",
          "contentType",
          type);
    }
  }

  /**
   * {@code POST /v1/batch}: 200 with what each operation stored, or the error of the operation that
   * failed, its {@code operationIndex} among the error's fields, and nothing written.
   */
  private ApiResponse batch(ApiRequest r, ApiKey key) {
    requireJson(r);
    Batch batch = BatchJson.read(r.body(), db.limits());
    if (key != null) {
      Access.check(key, batch);
    }
    return ApiResponse.json(200, BatchResultJson.write(db.commit(batch)));
  }

  /** The tables and views the key reaches: every one for a key (or a request) without a list. */
  private List<TableInfo> tablesFor(ApiKey key) {
    List<TableInfo> all = db.listTables();
    return key == null || key.tables().isEmpty()
        ? all
        : all.stream().filter(t -> key.reaches(t.name())).toList();
  }

  /**
   * {@code GET /v1/admin/keys}: the keys without secrets; {@code POST}: a new key, 201 with its
   * secret, shown this once.
   */
  private ApiResponse adminKeys(ApiRequest r) {
    if (r.method().equals("GET")) {
      return ApiResponse.json(200, KeyJson.writeListing(keys.list()));
    }
    requireJson(r);
    KeyJson.Request asked = KeyJson.readRequest(r.body());
    return ApiResponse.json(
        201, KeyJson.writeCreated(keys.create(asked.scope(), asked.tables(), asked.name())));
  }

  /**
   * {@code POST /v1/admin/backup} with {@code {"to": DIR}}: 200 with the {@link BackupInfo}. DIR is
   * on the server's machine and must be absolute, since the server's working directory is nobody's
   * business; the database refuses a second backup while one runs (409 BackupInProgress). It runs
   * on a worker ({@link #runsInline} says no) and may take minutes on a large database.
   */
  private ApiResponse backup(ApiRequest r) {
    requireJson(r);
    String to = BackupInfoJson.readRequest(r.body());
    Path target;
    try {
      target = Path.of(to);
    } catch (InvalidPathException e) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput, "The backup target is not a path", "to", to);
    }
    if (!target.isAbsolute()) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "The backup target must be an absolute path on the server's machine",
          "to",
          to);
    }
    return ApiResponse.json(200, BackupInfoJson.write(db.backup(target)));
  }
}
