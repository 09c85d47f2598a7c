package io.viewbase.api;

/**
 * The stable codes of every error Viewbase reports, as one table: each constant names its HTTP
 * status, how the Azure Tables dialect answers it, how the DynamoDB dialect answers it, and in one
 * sentence when it happens ({@link #description()}). A code never changes meaning; clients may
 * branch on it.
 *
 * <pre>
 * dialect  | status             | code                  | message
 * ---------+--------------------+-----------------------+--------------------------------------------
 * native   | httpStatus()       | the constant's name   | the error's own; its context as named fields
 * Azure    | azure().status()   | azure().code()        | azure().message() where Azure has a fixed
 *          |                    |                       |   one ({@link AzureError}), else the error's own
 * DynamoDB | dynamoDb().status()| dynamoDb().type() in  | dynamoDb().message() where DynamoDB has a
 *          |   (400 for every   |   __type, after its   |   fixed one ({@link DynamoDbError}), else the
 *          |   client error)    |   namespace and '#'   |   error's own
 * </pre>
 *
 * A constant is one declaration: {@code Name(status, azure("AzureCode"),
 * dynamoDb("DynamoDbException"), "When it happens.")}, with {@code azure("AzureCode", "Azure's
 * fixed message.")} where Azure has a message that clients may match, {@code azure("AzureCode",
 * "Azure's words. %s")} where Azure's message leads and Viewbase's follows, and {@code
 * azure(status, "AzureCode", message)} where Azure answers with another status; {@code
 * dynamoDb(...)} takes the same three forms, its status being 400 unless given. Every constant
 * names both renderings, so the compiler keeps the table whole.
 *
 * <p>The first group is what the engine and every dialect raise. The second is the Azure dialect's
 * own refusals (authentication and shared access signatures, its wire format, its batches), which
 * the native API never raises; each is named after the Azure code it answers with, but for the one
 * case where Azure picks its code by operation, {@link #TableNotFoundOnDelete}. The third is the
 * DynamoDB dialect's own refusals (SigV4, its wire format, its table and item operations), each
 * named after the DynamoDB exception it answers with, without {@code Exception} ({@code
 * UnrecognizedClient} answers {@code UnrecognizedClientException}), or with {@code Failure} in its
 * place where the bare word is no name ({@link #ValidationFailure}, {@link #SerializationFailure});
 * their Azure renderings are generic, since that dialect never raises them.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public enum ErrorCode {
  // ---- Every dialect: the engine's errors and the protocols' common ones ----

  InvalidInput(
      400,
      azure("InvalidInput"),
      dynamoDb("ValidationException"),
      "A request is malformed in a way no more specific code covers (bad percent-encoding, malformed HTTP)."),
  InvalidJson(
      400,
      azure("InvalidInput"),
      dynamoDb("SerializationException"),
      "The request body is not well-formed JSON, or JSON of the wrong shape."),
  InvalidKey(
      400,
      azure("InvalidInput"),
      dynamoDb("ValidationException"),
      "A partition key or id is over 1024 bytes of UTF-8 or holds a character the dialect does not allow."),
  InvalidTableName(
      400,
      azure("InvalidResourceName", "The specifed resource name contains invalid characters. %s"),
      dynamoDb("ValidationException"),
      "A table or view name does not match ^[A-Za-z][A-Za-z0-9]{2,62}$, or is reserved."),
  InvalidPropertyName(
      400,
      azure("PropertyNameInvalid"),
      dynamoDb("ValidationException"),
      "A property name is empty, too long or reserved (starts with '_'; in the Azure dialect, with '$')."),
  InvalidValue(
      400,
      azure("InvalidInput"),
      dynamoDb("ValidationException"),
      "A value cannot be represented: it does not fit its annotation, nests too deep, or is an Azure object or array."),
  TooManyProperties(
      400,
      azure("TooManyProperties"),
      dynamoDb("ValidationException"),
      "An item has more properties than the limit (255 by default)."),
  PropertyValueTooLarge(
      400,
      azure("PropertyValueTooLarge"),
      dynamoDb("ValidationException"),
      "A property value exceeds its limit (for example a string over 64 KiB in the Azure dialect)."),
  ItemTooLarge(
      400,
      azure("EntityTooLarge"),
      dynamoDb("ValidationException", "Item size has exceeded the maximum allowed size"),
      "An item's encoded size exceeds the limit (1 MiB by default)."),
  RequestTooLarge(
      413,
      azure(
          "RequestBodyTooLarge",
          "The request body is too large and exceeds the maximum " + "permissible limit."),
      dynamoDb(413, "RequestEntityTooLarge", "Request Entity Too Large"),
      "The request body exceeds what the server (or the operation) accepts."),
  RequestTimeout(
      408,
      azure("OperationTimedOut"),
      dynamoDb(408, "RequestTimeoutException", null),
      "A request's line, headers or body did not arrive within the server's timeout; the connection is closed."),
  KeyMismatch(
      400,
      azure("InvalidInput"),
      dynamoDb("ValidationException"),
      "The body names a partition key or id different from its address."),
  InvalidContinuation(
      400,
      azure("InvalidInput"),
      dynamoDb("ValidationException", "The provided starting key is invalid: %s"),
      "A continuation token was not issued by this database for this query, or was altered."),
  InvalidQuery(
      400,
      azure("InvalidInput"),
      dynamoDb("ValidationException"),
      "A query parameter is unknown, repeated, out of range or contradictory (for example a limit above 1000)."),
  InvalidFilter(
      400,
      azure("InvalidInput"),
      dynamoDb("ValidationException"),
      "A filter does not parse, does not type-check or exceeds a limit."),
  InvalidView(
      400,
      azure("InvalidInput"),
      dynamoDb("ValidationException"),
      "A view definition is invalid (a template, filter or projection does not parse or names nothing)."),
  InvalidHeader(
      400,
      azure("InvalidHeaderValue"),
      dynamoDb("ValidationException"),
      "A header is malformed or missing (If-None-Match other than *; in the Azure dialect, x-ms-version)."),
  // The native API's API keys. Only the native API raises them (the Azure and DynamoDB dialects
  // check their own signatures); they sit in this group, by status, since the groups below are
  // each one dialect's own, named after its codes.
  ApiKeyRequired(
      401,
      azure("AuthenticationFailed"),
      dynamoDb("MissingAuthenticationTokenException"),
      "A native-API request carries no Authorization: Bearer key though the server requires keys (at start: a server bound beyond loopback finds no key and was not told --insecure)."),
  ApiKeyInvalid(
      401,
      azure("AuthenticationFailed"),
      dynamoDb("UnrecognizedClientException"),
      "A native-API request's bearer key is malformed, unknown or revoked."),
  ApiKeyDenied(
      403,
      azure("AuthorizationPermissionMismatch"),
      dynamoDb("AccessDeniedException"),
      "A valid API key's scope or tables do not cover the request (a read key writing, a table it does not list, an admin route)."),
  TableNotFound(
      404,
      azure("TableNotFound", "The table specified does not exist."),
      dynamoDb("ResourceNotFoundException", "Requested resource not found"),
      "The named table (or view) does not exist."),
  ItemNotFound(
      404,
      azure("ResourceNotFound", "The specified resource does not exist."),
      dynamoDb("ConditionalCheckFailedException", "The conditional request failed"),
      "No item has the given partition key and id."),
  ApiKeyNotFound(
      404,
      azure("ResourceNotFound"),
      dynamoDb("ResourceNotFoundException"),
      "No API key has the id a revoke names."),
  UnknownEndpoint(
      404,
      azure("ResourceNotFound"),
      dynamoDb(404, "UnknownOperationException", null),
      "No endpoint answers the requested path."),
  MethodNotAllowed(
      405,
      azure("UnsupportedHttpVerb"),
      dynamoDb(404, "UnknownOperationException", null),
      "The endpoint exists but does not answer this HTTP method."),
  TableAlreadyExists(
      409,
      azure("TableAlreadyExists", "The table specified already exists."),
      dynamoDb("ResourceInUseException"),
      "A table or view with this name (compared case-insensitively) already exists."),
  ItemAlreadyExists(
      409,
      azure("EntityAlreadyExists", "The specified entity already exists."),
      dynamoDb("ConditionalCheckFailedException", "The conditional request failed"),
      "An insert found an item with the same partition key and id."),
  ViewKeyConflict(
      409,
      azure("EntityAlreadyExists"),
      dynamoDb("ValidationException"),
      "A write would give two source items the same key in a view; nothing was written."),
  ViewIsReadOnly(
      409,
      azure("OperationNotAllowedOnView", "The table is a Viewbase view, which is read-only. %s"),
      dynamoDb("ValidationException"),
      "A write was addressed to a view (in the Azure dialect, Delete Table too); views are read-only."),
  ViewNotReady(
      409,
      azure("ViewNotReady"),
      dynamoDb("ValidationException"),
      "A view was read before its backfill finished, or after it failed."),
  TableBeingDeleted(
      409,
      azure("TableBeingDeleted"),
      dynamoDb("ResourceInUseException"),
      "The table is being dropped."),
  ChangeFeedDisabled(
      409,
      azure("InvalidInput"),
      dynamoDb("ValidationException"),
      "The table's change feed was read, but the table does not record one (enable it in the table's options)."),
  ChangesExpired(
      410,
      azure("InvalidInput"),
      dynamoDb("TrimmedDataAccessException"),
      "A change-feed read asked for entries older than the oldest the feed still holds (its context names"
          + " oldest); resume from there, or re-read the table."),
  PreconditionFailed(
      412,
      azure(
          "UpdateConditionNotSatisfied",
          "The update condition specified in the request was not satisfied."),
      dynamoDb("ConditionalCheckFailedException", "The conditional request failed"),
      "A conditional write named an ETag that is no longer the item's current one."),
  UnsupportedMediaType(
      415,
      azure("InvalidInput"),
      dynamoDb(404, "UnknownOperationException", null),
      "The request's content type is not JSON."),
  NotImplemented(
      501,
      azure("NotImplemented"),
      dynamoDb("ValidationException"),
      "The capability exists in the API but is not built in this version."),
  // A database that cannot serve the call now; none is the request's fault, so none is a 4xx.
  // WriteConflict and ShuttingDown mean "retry": nothing was done, and the same request succeeds
  // once the cause passes. The others mean "give up": the same call on the same handle fails the
  // same way (DatabaseClosed, StorageLocked, StorageUnreachable), or its outcome is unknown
  // (Timeout).
  WriteConflict(
      503,
      azure("ServerBusy"),
      dynamoDb("ThrottlingException"),
      "Retry: the items a write or batch reads kept changing under it (it "
          + "lost the race for them 1000 times in a row, or the store gave up claiming them); nothing was written."),
  ShuttingDown(
      503,
      azure("ServerBusy"),
      dynamoDb(503, "ServiceUnavailable", null),
      "Retry, against another server or once this one is back: the server or "
          + "database is shutting down and refused the request before doing anything of it."),
  DatabaseClosed(
      503,
      azure("ServerBusy"),
      dynamoDb(503, "ServiceUnavailable", null),
      "Give up: the database was closed before the call (over HTTP: the "
          + "server's database is closed), and nothing was done; open it again."),
  StorageLocked(
      503,
      azure("ServerBusy"),
      dynamoDb(503, "ServiceUnavailable", null),
      "Give up: the data directory is held by another process (or another open in this one)."),
  StorageUnreachable(
      503,
      azure("ServerBusy"),
      dynamoDb(503, "ServiceUnavailable", null),
      "Give up: the storage cannot be reached or opened (a Cassandra "
          + "cluster without live nodes or enough replicas, a data directory that cannot be created), or, from a client, "
          + "the server."),
  // Neither Azure Tables nor DynamoDB has a disk-full error (their storage is the service's): both
  // dialects answer with the native 507 and code, so that a client sees the cause rather than a
  // generic ServerBusy or InternalError (docs/reliability.md).
  InsufficientStorage(
      507,
      azure("InsufficientStorage"),
      dynamoDb(507, "InsufficientStorage", null),
      "Retry once space is freed: the file system of the data directory is full, so the write "
          + "was refused and nothing of it was written; reads go on, and writes are taken again "
          + "once space is freed, without a restart."),
  Timeout(
      504,
      azure("OperationTimedOut"),
      dynamoDb(500, "InternalServerError", null),
      "Give up, and check before retrying what is not idempotent: a wait "
          + "ended without an answer (the storage or the server did not answer in time, views were not ready in time, "
          + "the waiting thread was interrupted); a write may or may not have been applied."),
  ServerBusy(
      503,
      azure("ServerBusy"),
      dynamoDb("ThrottlingException", "Rate of requests exceeds the allowed throughput."),
      "The server has as many connections open as it allows; retry later, or reuse a connection."),
  StorageBackendMissing(
      500,
      azure("InternalError"),
      dynamoDb(500, "InternalServerError", null),
      "A storage backend named at open time is not on the class path."),
  InternalError(
      500,
      azure("InternalError", "The server encountered an internal error; its log has the details."),
      dynamoDb(
          500,
          "InternalServerError",
          "The server encountered an internal error; its log has the details."),
      "Something failed inside Viewbase; the server log has the details. Never the client's fault."),
  BackupInProgress(
      409,
      azure("InvalidInput"),
      dynamoDb("ValidationException"),
      "A backup was asked for while another backup of the database, or into the same directory, was running; retry once it ends."),

  // ---- The Azure Tables dialect only: named after the Azure code they answer with ----

  AuthenticationFailed(
      403,
      azure("AuthenticationFailed", "Server failed to authenticate the request. %s"),
      dynamoDb("UnrecognizedClientException"),
      "A request's signature, date or account, or its shared access signature, does not verify."),
  AuthorizationPermissionMismatch(
      403,
      azure(
          "AuthorizationPermissionMismatch",
          "This request is not authorized to perform this operation using this permission. %s"),
      dynamoDb("AccessDeniedException"),
      "A shared access signature does not grant the operation, or not on this entity's keys."),
  AuthorizationResourceTypeMismatch(
      403,
      azure(
          "AuthorizationResourceTypeMismatch",
          "This request is not authorized to perform this operation using this resource type. %s"),
      dynamoDb("AccessDeniedException"),
      "A shared access signature is not for the resource type the operation needs."),
  AuthorizationServiceMismatch(
      403,
      azure(
          "AuthorizationServiceMismatch",
          "This request is not authorized to perform this operation using this service. %s"),
      dynamoDb("AccessDeniedException"),
      "An account shared access signature does not include the table service."),
  AuthorizationProtocolMismatch(
      403,
      azure(
          "AuthorizationProtocolMismatch",
          "This request is not authorized to perform this operation using this protocol. %s"),
      dynamoDb("AccessDeniedException"),
      "A shared access signature does not allow http, which this server speaks."),
  AuthorizationSourceIPMismatch(
      403,
      azure(
          "AuthorizationSourceIPMismatch",
          "This request is not authorized to perform this operation using this source IP. %s"),
      dynamoDb("AccessDeniedException"),
      "The client's address is outside those a shared access signature allows."),
  InsufficientAccountPermissions(
      403,
      azure(
          "InsufficientAccountPermissions",
          "The account being accessed does not have sufficient permissions to execute this operation. %s"),
      dynamoDb("AccessDeniedException"),
      "A write was addressed to an account's read-only secondary endpoint."),
  CorsPreflightFailure(
      403,
      azure("CorsPreflightFailure", "CORS not enabled or no matching rule found for this request."),
      dynamoDb("AccessDeniedException"),
      "No CORS rule allows a preflight's origin, method and headers."),
  InvalidUri(
      400,
      azure("InvalidUri"),
      dynamoDb("ValidationException"),
      "A request path names no account, or more segments than a table resource."),
  InvalidQueryParameterValue(
      400,
      azure(
          "InvalidQueryParameterValue",
          "Value for one of the query parameters specified in the request URI is invalid. %s"),
      dynamoDb("ValidationException"),
      "A query parameter is given twice, or names a service operation the endpoint does not answer."),
  PropertiesNeedValue(
      400,
      azure("PropertiesNeedValue"),
      dynamoDb("ValidationException"),
      "A required property is missing: an entity's PartitionKey or RowKey, or Create Table's TableName."),
  PropertyNameTooLong(
      400,
      azure("PropertyNameTooLong"),
      dynamoDb("ValidationException"),
      "A property name is longer than 255 characters."),
  DuplicatePropertiesSpecified(
      400,
      azure("DuplicatePropertiesSpecified"),
      dynamoDb("ValidationException"),
      "An entity names a property twice."),
  OutOfRangeInput(
      400,
      azure("OutOfRangeInput"),
      dynamoDb("ValidationException"),
      "Create Table names a table shorter than 3 or longer than 63 characters."),
  InvalidXmlDocument(
      400,
      azure("InvalidXmlDocument", "XML specified is not syntactically valid. %s"),
      dynamoDb("ValidationException"),
      "An access policy or service properties document is not well-formed, lacks an element or holds too many."),
  InvalidXmlNodeValue(
      400,
      azure(
          "InvalidXmlNodeValue",
          "The value for one of the XML nodes is not in the correct format. %s"),
      dynamoDb("ValidationException"),
      "An element of a service properties document holds a value Azure does not accept."),
  CommandsInBatchActOnDifferentPartitions(
      400,
      azure(
          "CommandsInBatchActOnDifferentPartitions",
          "All commands in a batch must operate on same entity group."),
      dynamoDb("ValidationException"),
      "A batch's operations name more than one partition key."),
  InvalidDuplicateRow(
      400,
      azure(
          "InvalidDuplicateRow",
          "The batch request contains multiple changes with same row "
              + "key. An entity can appear only once in a batch request."),
      dynamoDb("ValidationException"),
      "A batch names one entity twice."),
  TableNotFoundOnDelete(
      404,
      azure("ResourceNotFound", "The specified resource does not exist."),
      dynamoDb("ResourceNotFoundException", "Requested resource not found"),
      "Delete Table names a table that does not exist (an entity operation on one is TableNotFound)."),

  // ---- The DynamoDB dialect only: named after the DynamoDB exception they answer with ----

  ValidationFailure(
      400,
      azure("InvalidInput"),
      dynamoDb("ValidationException"),
      "A DynamoDB request breaks one of DynamoDB's rules for its parameters (a missing member, a value out of range, a key schema that does not fit)."),
  SerializationFailure(
      400,
      azure("InvalidInput"),
      dynamoDb("SerializationException"),
      "A DynamoDB request body is JSON, but a member holds another type than the operation takes (a string for a number, a list for a map)."),
  UnknownOperation(
      400,
      azure("InvalidInput"),
      dynamoDb("UnknownOperationException"),
      "A DynamoDB request's X-Amz-Target names no operation, or one Viewbase does not serve."),
  MissingAuthenticationToken(
      400,
      azure(403, "AuthenticationFailed", "Server failed to authenticate the request. %s"),
      dynamoDb("MissingAuthenticationTokenException", "Request is missing Authentication Token"),
      "A DynamoDB request carries no AWS4-HMAC-SHA256 Authorization header."),
  IncompleteSignature(
      400,
      azure(403, "AuthenticationFailed", "Server failed to authenticate the request. %s"),
      dynamoDb("IncompleteSignatureException"),
      "A DynamoDB request's Authorization header lacks a part (Credential, SignedHeaders, Signature), or its date, or is malformed."),
  InvalidSignature(
      400,
      azure(403, "AuthenticationFailed", "Server failed to authenticate the request. %s"),
      dynamoDb("InvalidSignatureException"),
      "A DynamoDB request's signature does not verify, has expired, or is scoped to another service or date."),
  UnrecognizedClient(
      400,
      azure(403, "AuthenticationFailed", "Server failed to authenticate the request. %s"),
      dynamoDb(
          "UnrecognizedClientException", "The security token included in the request is invalid."),
      "A DynamoDB request is signed with an access key id the server does not know."),
  ResourceNotFound(
      400,
      azure(404, "ResourceNotFound", "The specified resource does not exist."),
      dynamoDb("ResourceNotFoundException", "Requested resource not found: %s"),
      "A DynamoDB table operation names a table (or an ARN) that does not exist; the message names it."),
  ResourceInUse(
      400,
      azure(409, "TableAlreadyExists", "The table specified already exists."),
      dynamoDb("ResourceInUseException"),
      "A DynamoDB table is created under a name that is taken, or changed while a change to it is under way."),
  LimitExceeded(
      400,
      azure("InvalidInput"),
      dynamoDb("LimitExceededException"),
      "A DynamoDB request would pass a per-table or per-account limit (indexes created at once, tables)."),
  ConditionalCheckFailed(
      400,
      azure(
          412,
          "UpdateConditionNotSatisfied",
          "The update condition specified in the request was not satisfied."),
      dynamoDb("ConditionalCheckFailedException", "The conditional request failed"),
      "A DynamoDB write's ConditionExpression (or Expected) is false for the item; an Item context member carries it when asked for."),
  TransactionCanceled(
      400,
      azure("InvalidInput"),
      dynamoDb("TransactionCanceledException"),
      "A DynamoDB transaction was cancelled; its CancellationReasons context member lists, per item, why (or None)."),
  TransactionConflict(
      400,
      azure("InvalidInput"),
      dynamoDb("TransactionConflictException"),
      "A DynamoDB write met an item that a transaction under way holds; retry."),
  IdempotentParameterMismatch(
      400,
      azure("InvalidInput"),
      dynamoDb("IdempotentParameterMismatchException"),
      "A DynamoDB transaction repeats a ClientRequestToken of the last ten minutes with other parameters."),
  TrimmedDataAccess(
      400,
      azure("InvalidInput"),
      dynamoDb("TrimmedDataAccessException"),
      "A DynamoDB stream read asked for records older than the stream still holds."),
  ExpiredIterator(
      400,
      azure("InvalidInput"),
      dynamoDb("ExpiredIteratorException"),
      "A DynamoDB stream read used a shard iterator older than fifteen minutes.");

  private final int httpStatus;
  private final AzureError azure;
  private final DynamoDbError dynamoDb;
  private final String description;

  ErrorCode(int httpStatus, AzureError azure, DynamoDbError dynamoDb, String description) {
    this.httpStatus = httpStatus;
    this.azure =
        azure.status() == 0 ? new AzureError(httpStatus, azure.code(), azure.message()) : azure;
    this.dynamoDb = dynamoDb;
    this.description = description;
  }

  /**
   * The status of the native API's answer, and of the Azure dialect's unless {@link #azure()} names
   * another.
   */
  public int httpStatus() {
    return httpStatus;
  }

  /** How the Azure Tables dialect answers this error. */
  public AzureError azure() {
    return azure;
  }

  /** How the DynamoDB dialect answers this error. */
  public DynamoDbError dynamoDb() {
    return dynamoDb;
  }

  /** When this error happens, in one sentence. */
  public String description() {
    return description;
  }

  /** Whether the client caused this error (a 4xx status). */
  public boolean isClientError() {
    return httpStatus >= 400 && httpStatus < 500;
  }

  /**
   * How the Azure Tables dialect answers an error: Azure's status and error code, and the message
   * where Azure has a fixed one. The message is the answer's whole message when it holds no {@code
   * %s}; otherwise {@code %s} stands for the error's own message and context, which follow Azure's
   * words. With no message, the error's own message and context are the answer's.
   *
   * @param status the status Azure answers with
   * @param code the Azure error code ({@code x-ms-error-code} and {@code odata.error.code})
   * @param message Azure's message, possibly with one {@code %s}; or null
   */
  public record AzureError(int status, String code, String message) {}

  /** Azure's code, the native status, and the error's own message. */
  private static AzureError azure(String code) {
    return new AzureError(0, code, null);
  }

  /**
   * Azure's code and Azure's fixed message (with {@code %s} for the error's own), the native
   * status.
   */
  private static AzureError azure(String code, String message) {
    return new AzureError(0, code, message);
  }

  /** Where Azure answers with a status of its own (no code needs it yet). */
  private static AzureError azure(int status, String code, String message) {
    return new AzureError(status, code, message);
  }

  /**
   * How the DynamoDB dialect answers an error: DynamoDB's status and exception name (the part of
   * {@code __type} after its {@code #}, which the SDKs turn into an exception class), and the
   * message where DynamoDB has a fixed one. As for {@link AzureError}, a message without {@code %s}
   * is the answer's whole message, {@code %s} stands for the error's own message and context, and
   * with no message the error's own is the answer's.
   *
   * @param status the status DynamoDB answers with: 400 for every error the client can fix, as
   *     DynamoDB's JSON protocol does, but for the HTTP layer's own (404, 408, 413)
   * @param type the exception name, e.g. {@code ValidationException}
   * @param message DynamoDB's message, possibly with one {@code %s}; or null
   */
  public record DynamoDbError(int status, String type, String message) {}

  /** A DynamoDB exception answered with 400, with the error's own message. */
  private static DynamoDbError dynamoDb(String type) {
    return new DynamoDbError(400, type, null);
  }

  /** A DynamoDB exception answered with 400, with DynamoDB's message (or its words and a %s). */
  private static DynamoDbError dynamoDb(String type, String message) {
    return new DynamoDbError(400, type, message);
  }

  /** A DynamoDB answer with a status other than 400: a server error, or the HTTP layer's. */
  private static DynamoDbError dynamoDb(int status, String type, String message) {
    return new DynamoDbError(status, type, message);
  }
}
