package io.viewbase.server.azure;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Stability;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.Futures;
import io.viewbase.server.HttpDate;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Azure Table Storage REST protocol as plain translation: an {@link AzureRequest} in, calls on
 * a {@link Database}, an {@link AzureResponse} out. No socket is needed to test it.
 *
 * <pre>
 * path (after the account)     | method                  | operation
 * -----------------------------+-------------------------+---------------------------------------
 * /Tables                      | GET / POST              | Query Tables / Create Table
 * /Tables('t')                 | DELETE                  | Delete Table
 * /t, /t()                     | GET / POST              | Query Entities / Insert Entity
 * /t?comp=acl                  | GET, HEAD / PUT         | Get / Set Table ACL (XML)
 * /t(PartitionKey=,RowKey=)    | GET                     | Get Entity
 *                              | PUT                     | Update / Insert-or-Replace
 *                              | MERGE, PATCH, POST with | Merge / Insert-or-Merge
 *                              | X-HTTP-Method: MERGE    |
 *                              | DELETE                  | Delete Entity
 * /$batch                      | POST                    | Entity group transaction
 * /?restype=service&comp=...   | GET / PUT               | Get / Set Service Properties, Get Service Stats
 * any path                     | OPTIONS                 | CORS preflight, unauthenticated ({@link Cors})
 * </pre>
 *
 * Every answer carries {@code x-ms-request-id}, {@code x-ms-version} (the version implemented, see
 * {@link ServiceVersions}), {@code Date}, the exact {@code x-ms-client-request-id} the client sent,
 * and the CORS headers the service's rules give it. Failures are Azure's error bodies with {@code
 * x-ms-error-code} (XML for ACL, service and preflight requests, JSON otherwise); an unexpected
 * one, an {@link Error} such as a StackOverflowError included, is logged and answered once as 500
 * InternalError.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class AzureApi {
  private static final Logger LOG = LoggerFactory.getLogger(AzureApi.class);
  static final String VERSION = ServiceVersions.IMPLEMENTED;

  /**
   * The answer to a failure no code expected; rendered, never thrown (its message is Azure's,
   * fixed).
   */
  static final ViewbaseException INTERNAL_ERROR =
      new ViewbaseException(
          ErrorCode.InternalError, "Unexpected failure; the server log has the details");

  private final Authenticator authenticator;
  private final TableEndpoints tables;
  private final EntityEndpoints entities;
  private final AclEndpoints acl;
  private final BatchEndpoint batch;
  private final Cors cors;
  private final ServiceProperties service;

  public AzureApi(Database db, AzureOptions options) {
    LegacyAclTable.migrate(db);
    AclStore acls = new AclStore(db);
    this.authenticator = new Authenticator(options.accounts(), options.anonymousAccess(), acls);
    this.tables = new TableEndpoints(db);
    this.entities = new EntityEndpoints(db);
    this.acl = new AclEndpoints(db, tables, acls);
    this.batch = new BatchEndpoint(db, entities);
    this.cors = new Cors(() -> ServiceProperties.stored(db).cors());
    this.service = new ServiceProperties(db, cors);
  }

  /**
   * Whether a request is cheap enough to serve on the event loop: a point read never waits on a
   * disk sync, and sparing it a thread hop keeps it fast. Decided from the path's shape alone.
   */
  static boolean runsInline(AzureRequest request) {
    if (!request.method().equals("GET")) {
      return false;
    }
    String path = request.rawPath();
    return path.endsWith(")")
        && !path.endsWith("()")
        && path.indexOf("Tables(") < 0
        && path.indexOf("Tables%28") < 0;
  }

  /**
   * Whether a request writes one entity (insert, update, merge, their upsert forms, delete), which
   * {@link #handleAsync} serves without waiting for the write: the event loop can take it.
   */
  static boolean isEntityWrite(AzureRequest request) {
    return entityWritePath(request) != null;
  }

  /**
   * The parsed path of a request {@link #isEntityWrite} says yes to, or null: the channel handler
   * hands it to {@link #handleAsync(AzureRequest, ResourcePath, Executor)}, which need not parse it
   * again.
   */
  static ResourcePath entityWritePath(AzureRequest request) {
    String method = request.method();
    if (!method.equals("POST")
        && !method.equals("PUT")
        && !method.equals("MERGE")
        && !method.equals("PATCH")
        && !method.equals("DELETE")) {
      return null;
    }
    ResourcePath path;
    try {
      path = ResourcePath.parse(request.rawPath(), request.header("host"));
    } catch (RuntimeException malformed) {
      return null; // answered with its error on a worker, like any request that is not a fast path
    }
    if (path.kind() == ResourcePath.Kind.ENTITY) {
      return path; // every method but GET on an entity writes it (or is refused)
    }
    boolean insert =
        path.kind() == ResourcePath.Kind.ENTITIES
            && method.equals("POST")
            && request.header("x-http-method") == null
            && !request.rawQuery().contains("comp=");
    return insert ? path : null;
  }

  /** Serves the request on the calling thread (a single-entity write waits for its sync). */
  public AzureResponse handle(AzureRequest request) {
    String requestId = RequestIds.next();
    AzureResponse response;
    try {
      if (request.method().equals("OPTIONS")) {
        return finish(request, requestId, cors.preflight(request));
      }
      Call call = call(request, null);
      String method = method(call);
      CompletableFuture<Item> write = entityWrite(call, method);
      response =
          write == null
              ? answer(call, method, requestId)
              : entities.answer(call, Futures.join(write));
    } catch (RuntimeException | Error e) { // an Error too: a request is always answered
      response = error(request, requestId, e);
    }
    return finish(request, requestId, response);
  }

  /**
   * {@link #handleAsync(AzureRequest, Executor)} with the answers built on the completing thread.
   */
  public CompletableFuture<AzureResponse> handleAsync(AzureRequest request) {
    return handleAsync(request, Runnable::run);
  }

  /**
   * Serves the request: a single-entity write's answer completes on {@code answerOn} (the
   * connection's event loop) once the database's asynchronous write is durable, made there and not
   * on the store's committing thread, which every write waits for; any other request's before this
   * returns. The future never fails: errors are answers.
   */
  public CompletableFuture<AzureResponse> handleAsync(AzureRequest request, Executor answerOn) {
    return handleAsync(request, null, answerOn);
  }

  /**
   * {@link #handleAsync(AzureRequest, Executor)} of a request whose path is parsed already (or
   * null).
   */
  CompletableFuture<AzureResponse> handleAsync(
      AzureRequest request, ResourcePath parsed, Executor answerOn) {
    String requestId = RequestIds.next();
    try {
      if (request.method().equals("OPTIONS")) {
        return CompletableFuture.completedFuture(
            finish(request, requestId, cors.preflight(request)));
      }
      Call call = call(request, parsed);
      String method = method(call);
      CompletableFuture<Item> write = entityWrite(call, method);
      if (write != null) {
        return write.handleAsync(
            (stored, failure) -> written(call, requestId, stored, failure), answerOn);
      }
      return CompletableFuture.completedFuture(
          finish(request, requestId, answer(call, method, requestId)));
    } catch (RuntimeException | Error e) { // an Error too: a request is always answered
      return CompletableFuture.completedFuture(
          finish(request, requestId, error(request, requestId, e)));
    }
  }

  /** The answer to a single-entity write that stored {@code stored}, or failed; never throws. */
  private AzureResponse written(Call call, String requestId, Item stored, Throwable failure) {
    AzureRequest request = call.request();
    AzureResponse response;
    try {
      response =
          failure == null
              ? entities.answer(call, stored)
              : error(request, requestId, Futures.unwrap(failure));
    } catch (RuntimeException | Error e) { // an Error too: a request is always answered
      response = error(request, requestId, e);
    }
    return finish(request, requestId, response);
  }

  /** The headers every answer carries. */
  private AzureResponse finish(AzureRequest request, String requestId, AzureResponse response) {
    return cors.decorate(
        request,
        response
            .with("x-ms-request-id", requestId)
            .with("x-ms-version", VERSION)
            .with("Date", HttpDate.now())
            .with("x-ms-client-request-id", request.header("x-ms-client-request-id")));
  }

  /**
   * A failure's answer: a Viewbase error by its row of the error table, anything else logged and
   * 500.
   */
  private static AzureResponse error(AzureRequest request, String requestId, Throwable cause) {
    boolean xml = AzureErrors.answersInXml(request);
    if (cause instanceof ViewbaseException e) {
      if (e.code().azure().status() >= 500) {
        LOG.warn(
            "Azure request {} {} failed: {}", request.method(), request.rawPath(), e.toString());
      }
      return AzureErrors.answer(e, xml, requestId);
    }
    LOG.error(
        "Azure request {} {} failed unexpectedly", request.method(), request.rawPath(), cause);
    return AzureErrors.answer(INTERNAL_ERROR, xml, requestId);
  }

  /** Parses (unless {@code parsed} is the path, parsed already) and authenticates the request. */
  private Call call(AzureRequest request, ResourcePath parsed) {
    ServiceVersions.check(request.header("x-ms-version"));
    ResourcePath path =
        parsed != null ? parsed : ResourcePath.parse(request.rawPath(), request.header("host"));
    QueryString query = QueryString.parse(request.rawQuery());
    Grant grant = authenticator.authenticate(request, path, query);
    if (path.secondary() && !request.method().equals("GET") && !request.method().equals("HEAD")) {
      throw ViewbaseException.of(
          ErrorCode.InsufficientAccountPermissions,
          "The secondary endpoint serves reads only; write through the account's primary endpoint",
          "account",
          path.account(),
          "endpoint",
          path.account() + ResourcePath.SECONDARY);
    }
    MetadataLevel level = MetadataLevel.choose(query.get("$format"), request.header("accept"));
    return new Call(request, path, query, grant, level);
  }

  /** The request's method, or for a POST the one its X-HTTP-Method header names. */
  private static String method(Call call) {
    String method = call.request().method();
    if (method.equals("POST")) {
      String override = call.request().header("x-http-method");
      if (override != null) {
        method = override.trim().toUpperCase(java.util.Locale.ROOT);
      }
    }
    return method;
  }

  /**
   * A single-entity write's stored entity (null for a delete), to come; null for any other request.
   * {@link EntityEndpoints#answer} makes its answer.
   */
  private CompletableFuture<Item> entityWrite(Call call, String method) {
    ResourcePath.Kind kind = call.path().kind();
    if (kind == ResourcePath.Kind.ENTITY) {
      switch (method) {
        case "PUT":
          return entities.update(call);
        case "MERGE":
        case "PATCH":
          return entities.merge(call);
        case "DELETE":
          return entities.delete(call);
        default:
          return null;
      }
    }
    if (kind == ResourcePath.Kind.ENTITIES
        && method.equals("POST")
        && !"acl".equals(call.query().get("comp"))) {
      return entities.insert(call);
    }
    return null;
  }

  /** The answer of a request that is not a single-entity write. */
  private AzureResponse answer(Call call, String method, String requestId) {
    ResourcePath path = call.path();
    return switch (path.kind()) {
      case TABLES ->
          switch (method) {
            case "GET" -> tables.query(call);
            case "POST" -> tables.create(call);
            default -> notAllowed(method, "Tables");
          };
      case TABLE ->
          method.equals("DELETE") ? tables.delete(call) : notAllowed(method, "Tables('name')");
      case BATCH ->
          method.equals("POST") ? batch.handle(call, requestId) : notAllowed(method, "$batch");
      case ENTITIES -> {
        if ("acl".equals(call.query().get("comp"))) {
          yield switch (method) {
            case "GET" -> acl.get(call, true);
            case "HEAD" -> acl.get(call, false);
            case "PUT" -> acl.set(call);
            default -> notAllowed(method, "a table's ACL");
          };
        }
        yield switch (method) {
          case "GET" -> entities.query(call);
          default -> notAllowed(method, "a table");
        };
      }
      case ENTITY ->
          switch (method) {
            case "GET" -> entities.get(call);
            default -> notAllowed(method, "an entity");
          };
      case SERVICE -> service.handle(call, method);
    };
  }

  private static AzureResponse notAllowed(String method, String what) {
    throw ViewbaseException.of(
        ErrorCode.MethodNotAllowed,
        "The resource doesn't support the specified HTTP verb",
        "method",
        method,
        "resource",
        what);
  }
}
