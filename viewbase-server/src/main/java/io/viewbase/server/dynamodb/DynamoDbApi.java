package io.viewbase.server.dynamodb;

import io.netty.handler.codec.http.HttpHeaders;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Stability;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.HttpDate;
import io.viewbase.server.dynamodb.model.JsonTree;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DynamoDB JSON 1.0 protocol, as plain code over a {@link Database}: every operation is a
 * {@code POST /} whose {@code X-Amz-Target} names it ({@code DynamoDB_20120810.PutItem}), signed
 * with SigV4, its body a JSON object; the answer is a JSON object, or an error ({@link
 * DynamoDbErrors}).
 *
 * <pre>
 * step | checks                                                | refusal
 * -----+-------------------------------------------------------+-----------------------------------
 * 1    | GET / is the health check (200 "healthy: ..."); OPTIONS | 404 UnknownOperationException for
 *      |   a CORS preflight; any other method or path          |   other methods
 * 2    | Content-Type application/x-amz-json-1.0 or            | 404 UnknownOperationException
 *      |   application/json (what the SDKs and the CLI send)   |
 * 3    | X-Amz-Target: DynamoDB_20120810.&lt;Operation&gt; of the    | 400 UnknownOperationException
 *      |   registry; DynamoDBStreams_20120810.&lt;Operation&gt; of   |
 *      |   the streams registry ({@link StreamOperations})     |
 * 4    | SigV4 ({@link Authenticator})                          | 400 MissingAuthenticationToken…,
 *      |                                                       |   InvalidSignature…, Unrecognized…
 * 5    | the body is one JSON object, at most 16 MiB           | 400 SerializationException
 * 6    | the operation serves it                               | its own
 * </pre>
 *
 * Every answer carries {@code x-amzn-RequestId} (52 characters, as DynamoDB's), {@code x-amz-crc32}
 * (the CRC32 of the body, which the Java SDK checks), {@code Date} (which the SDKs use to correct
 * their clock) and, for a request with an {@code Origin}, {@code Access-Control-Allow-Origin: *}.
 * Operations are listed in {@link TableOperations}, {@link ItemOperations} and {@link
 * TtlOperations}, the streams' in {@link StreamOperations}; a real DynamoDB operation that none
 * serves answers UnknownOperationException saying that Viewbase does not serve it yet.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class DynamoDbApi implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DynamoDbApi.class);

  /** The content type DynamoDB's JSON protocol answers with (and the SDKs send). */
  public static final String CONTENT_TYPE = "application/x-amz-json-1.0";

  static final String API = "DynamoDB_20120810";
  static final String STREAMS_API = "DynamoDBStreams_20120810";

  static final ViewbaseException INTERNAL_ERROR =
      ViewbaseException.of(ErrorCode.InternalError, "Internal error");

  private static final char[] ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".toCharArray();
  private static final String EXPOSED =
      "x-amzn-RequestId,x-amzn-ErrorType,x-amz-crc32,x-amz-id-2,Date";

  /**
   * DynamoDB's operations Viewbase does not serve (yet): asked for, they answer that, rather than
   * that no such operation exists.
   */
  private static final Set<String> NOT_SERVED =
      Set.of(
          "BatchExecuteStatement",
          "BatchGetItem",
          "BatchWriteItem",
          "CreateBackup",
          "CreateGlobalTable",
          "DeleteBackup",
          "DeleteItem",
          "DeleteResourcePolicy",
          "DescribeBackup",
          "DescribeContributorInsights",
          "DescribeExport",
          "DescribeGlobalTable",
          "DescribeGlobalTableSettings",
          "DescribeImport",
          "DescribeKinesisStreamingDestination",
          "DescribeTableReplicaAutoScaling",
          "DisableKinesisStreamingDestination",
          "EnableKinesisStreamingDestination",
          "ExecuteStatement",
          "ExecuteTransaction",
          "ExportTableToPointInTime",
          "GetItem",
          "GetResourcePolicy",
          "ImportTable",
          "ListBackups",
          "ListContributorInsights",
          "ListExports",
          "ListGlobalTables",
          "ListImports",
          "PutItem",
          "PutResourcePolicy",
          "Query",
          "RestoreTableFromBackup",
          "RestoreTableToPointInTime",
          "Scan",
          "TransactGetItems",
          "TransactWriteItems",
          "UpdateContinuousBackups",
          "UpdateContributorInsights",
          "UpdateGlobalTable",
          "UpdateGlobalTableSettings",
          "UpdateItem",
          "UpdateKinesisStreamingDestination",
          "UpdateTableReplicaAutoScaling");

  private final DynamoDbOptions options;
  private final Authenticator authenticator;
  private final Clock clock;
  private final Map<String, DynamoDbOperation> operations;
  private final Map<String, DynamoDbOperation> streamOperations;
  private final TtlPasses ttlPasses;

  public DynamoDbApi(Database db, DynamoDbOptions options) {
    this(db, options, Clock.systemUTC());
  }

  DynamoDbApi(Database db, DynamoDbOptions options, Clock clock) {
    this.options = options;
    this.clock = clock;
    this.authenticator = new Authenticator(options.keys(), options.anyKey(), clock);
    DynamoDbTables tables = new DynamoDbTables(db);
    Map<String, DynamoDbOperation> all = new LinkedHashMap<>();
    register(all, new TableOperations(tables, clock).operations());
    register(all, new ItemOperations(db, tables).operations());
    this.ttlPasses = new TtlPasses(db, tables);
    register(all, new TtlOperations(tables, ttlPasses).operations());
    this.operations = Map.copyOf(all);
    this.streamOperations = Map.copyOf(new StreamOperations(db, tables, clock).operations());
    ttlPasses.resumeAll();
  }

  /**
   * Stops the background work of the dialect (the time-to-live passes); the database stays open.
   */
  @Override
  public void close() {
    ttlPasses.close();
  }

  private static void register(
      Map<String, DynamoDbOperation> all, Map<String, DynamoDbOperation> more) {
    for (Map.Entry<String, DynamoDbOperation> op : more.entrySet()) {
      if (all.putIfAbsent(op.getKey(), op.getValue()) != null) {
        throw new IllegalStateException("Two DynamoDB operations are named " + op.getKey());
      }
    }
  }

  /**
   * Serves one request in process as the listener serves a request it has read (the same checks,
   * signature, operation and answer headers), without a socket: for embedding the dialect behind
   * another transport, and for benchmarks of the dialect's own cost. Answers every failure itself.
   *
   * @param method the HTTP method ({@code POST})
   * @param target the request target as sent ({@code /})
   * @param headers the request's headers, as the client signed them
   * @param body the body's bytes
   */
  public DynamoDbAnswer handle(String method, String target, HttpHeaders headers, byte[] body) {
    return handle(new DynamoDbRequest(method, target, headers, body));
  }

  /** Serves a request; answers every failure itself. */
  DynamoDbAnswer handle(DynamoDbRequest request) {
    String requestId = requestId();
    DynamoDbAnswer answer;
    try {
      answer = serve(request, requestId);
    } catch (ViewbaseException e) {
      answer = error(e);
    } catch (RuntimeException | Error e) {
      LOG.error("DynamoDB request {} failed", requestId, e);
      answer = error(INTERNAL_ERROR);
    }
    return finish(answer, requestId, request.header("origin") != null);
  }

  private DynamoDbAnswer serve(DynamoDbRequest request, String requestId) {
    String method = request.method();
    if (method.equals("OPTIONS") && request.header("origin") != null) {
      return preflight(request);
    }
    if (method.equals("GET") && request.rawPath().equals("/")) {
      return DynamoDbAnswer.of(
          200,
          "text/plain",
          "healthy: dynamodb.viewbase.local ".getBytes(StandardCharsets.US_ASCII));
    }
    if (!method.equals("POST")) {
      throw ViewbaseException.of(ErrorCode.UnknownEndpoint, "DynamoDB operations are POST /");
    }
    String type = request.header("content-type");
    if (request.body().length > 0 && !jsonType(type)) {
      throw ViewbaseException.of(
          ErrorCode.UnsupportedMediaType,
          "A DynamoDB request's Content-Type is application/x-amz-json-1.0");
    }
    String target = request.header("x-amz-target");
    DynamoDbOperation operation = operation(target);
    Authenticator.Caller caller =
        authenticator.verify(
            method, request.rawPath(), request.rawQuery(), request::headerValues, request.body());
    Object tree = JsonTree.read(request.body(), options.maxRequestBytes());
    Map<String, Object> members = RequestTree.of(tree).members();
    CallContext call =
        new CallContext(
            target.substring(target.indexOf('.') + 1),
            caller.region(),
            options.account(),
            caller.accessKeyId(),
            requestId,
            request.header("host"));
    Object answer = operation.serve(members, call);
    return DynamoDbAnswer.of(200, CONTENT_TYPE, JsonTree.write(answer == null ? Map.of() : answer));
  }

  /**
   * The metrics label of a request: the name of the operation its X-Amz-Target names when this
   * dialect serves it, else {@code unknown} (a request not read, not a POST, or naming anything
   * else), so the labels are the served operations' names and no more.
   */
  String operationLabel(DynamoDbRequest request) {
    String target = request == null ? null : request.header("x-amz-target");
    int dot = target == null ? -1 : target.indexOf('.');
    if (dot < 0 || !request.method().equals("POST")) {
      return "unknown";
    }
    String api = target.substring(0, dot);
    String name = target.substring(dot + 1);
    boolean served =
        api.equals(API)
            ? operations.containsKey(name)
            : api.equals(STREAMS_API) && streamOperations.containsKey(name);
    return served ? name : "unknown";
  }

  /** The operation X-Amz-Target names, or UnknownOperationException. */
  private DynamoDbOperation operation(String target) {
    int dot = target == null ? -1 : target.indexOf('.');
    if (dot < 0) {
      throw ViewbaseException.of(
          ErrorCode.UnknownOperation,
          "A DynamoDB request names its operation in X-Amz-Target: " + API + ".<Operation>");
    }
    String api = target.substring(0, dot);
    String name = target.substring(dot + 1);
    DynamoDbOperation operation =
        api.equals(API)
            ? operations.get(name)
            : api.equals(STREAMS_API) ? streamOperations.get(name) : null;
    if (operation != null) {
      return operation;
    }
    if ((api.equals(API) || api.equals(STREAMS_API)) && NOT_SERVED.contains(name)) {
      throw ViewbaseException.of(
          ErrorCode.UnknownOperation,
          "Viewbase does not serve the DynamoDB operation " + name + " yet (see docs/dynamodb.md)");
    }
    throw ViewbaseException.of(ErrorCode.UnknownOperation, "Unknown operation " + target);
  }

  private static boolean jsonType(String type) {
    if (type == null) {
      return false;
    }
    String base = type.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
    return base.equals(CONTENT_TYPE) || base.equals("application/json");
  }

  /** A CORS preflight: DynamoDB lets browsers call it from any origin. */
  private static DynamoDbAnswer preflight(DynamoDbRequest request) {
    return DynamoDbAnswer.of(200, null, null)
        .with("Access-Control-Allow-Methods", request.header("access-control-request-method"))
        .with("Access-Control-Allow-Headers", request.header("access-control-request-headers"))
        .with("Access-Control-Max-Age", "172800");
  }

  /** The answer to an error the listener raises (a refusal, a request it cannot read). */
  DynamoDbAnswer error(ViewbaseException e) {
    if (e.code().dynamoDb().status() >= 500) {
      LOG.debug("DynamoDB request answered {}: {}", e.code().dynamoDb().status(), e.toString());
    }
    return DynamoDbErrors.answer(e);
  }

  /** Adds what every answer carries. */
  DynamoDbAnswer finish(DynamoDbAnswer answer, String requestId, boolean cors) {
    CRC32 crc = new CRC32();
    crc.update(answer.body());
    answer
        .with("x-amzn-RequestId", requestId)
        .with("x-amz-crc32", Long.toString(crc.getValue()))
        .with("Date", HttpDate.now(clock));
    if (cors) {
      answer
          .with("Access-Control-Allow-Origin", "*")
          .with("Access-Control-Expose-Headers", EXPOSED);
    }
    return answer;
  }

  /** A request id as DynamoDB's look: 52 upper-case letters and digits. */
  static String requestId() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    char[] id = new char[52];
    for (int i = 0; i < id.length; i++) {
      id[i] = ID_CHARS[random.nextInt(ID_CHARS.length)];
    }
    return new String(id);
  }

  /** Every registered operation's name, for tests and docs. */
  List<String> operationNames() {
    return List.copyOf(operations.keySet());
  }
}
