package io.viewbase.api;

/**
 * The stable codes of every error Viewbase reports, as one table: each constant names its HTTP
 * status, how the Azure Tables dialect answers it, and in one sentence when it happens ({@link
 * #description()}). A code never changes meaning; clients may branch on it.
 *
 * <pre>
 * dialect | status             | code                | message
 * --------+--------------------+---------------------+----------------------------------------------
 * native  | httpStatus()       | the constant's name | the error's own; its context as named fields
 * Azure   | azure().status()   | azure().code()      | azure().message() where Azure has a fixed one
 *         |                    |                     |   ({@link AzureError}), else the error's own
 * </pre>
 *
 * A constant is one declaration: {@code Name(status, azure("AzureCode"), "When it happens.")}, with
 * {@code azure("AzureCode", "Azure's fixed message.")} where Azure has a message that clients may
 * match, {@code azure("AzureCode", "Azure's words. %s")} where Azure's message leads and Viewbase's
 * follows, and {@code azure(status, "AzureCode", message)} where Azure answers with another status.
 *
 * <p>The first group is what the engine and every dialect raise. The second is the Azure dialect's
 * own refusals (authentication and shared access signatures, its wire format, its batches), which
 * the native API never raises; each is named after the Azure code it answers with, but for the one
 * case where Azure picks its code by operation, {@link #TableNotFoundOnDelete}.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public enum ErrorCode {
  // ---- Every dialect: the engine's errors and the protocols' common ones ----

  InvalidInput(
      400,
      azure("InvalidInput"),
      "A request is malformed in a way no more specific code covers (bad percent-encoding, malformed HTTP)."),
  InvalidJson(
      400,
      azure("InvalidInput"),
      "The request body is not well-formed JSON, or JSON of the wrong shape."),
  InvalidKey(
      400,
      azure("InvalidInput"),
      "A partition key or id is over 1024 bytes of UTF-8 or holds a character the dialect does not allow."),
  InvalidTableName(
      400,
      azure("InvalidResourceName", "The specifed resource name contains invalid characters. %s"),
      "A table or view name does not match ^[A-Za-z][A-Za-z0-9]{2,62}$, or is reserved."),
  InvalidPropertyName(
      400,
      azure("PropertyNameInvalid"),
      "A property name is empty, too long or reserved (starts with '_'; in the Azure dialect, with '$')."),
  InvalidValue(
      400,
      azure("InvalidInput"),
      "A value cannot be represented: it does not fit its annotation, nests too deep, or is an Azure object or array."),
  TooManyProperties(
      400,
      azure("TooManyProperties"),
      "An item has more properties than the limit (255 by default)."),
  PropertyValueTooLarge(
      400,
      azure("PropertyValueTooLarge"),
      "A property value exceeds its limit (for example a string over 64 KiB in the Azure dialect)."),
  ItemTooLarge(
      400, azure("EntityTooLarge"), "An item's encoded size exceeds the limit (1 MiB by default)."),
  RequestTooLarge(
      413,
      azure(
          "RequestBodyTooLarge",
          "The request body is too large and exceeds the maximum " + "permissible limit."),
      "The request body exceeds what the server (or the operation) accepts."),
  RequestTimeout(
      408,
      azure("OperationTimedOut"),
      "A request's line, headers or body did not arrive within the server's timeout; the connection is closed."),
  KeyMismatch(
      400,
      azure("InvalidInput"),
      "The body names a partition key or id different from its address."),
  InvalidContinuation(
      400,
      azure("InvalidInput"),
      "A continuation token was not issued by this database for this query, or was altered."),
  InvalidQuery(
      400,
      azure("InvalidInput"),
      "A query parameter is unknown, repeated, out of range or contradictory (for example a limit above 1000)."),
  InvalidFilter(
      400,
      azure("InvalidInput"),
      "A filter does not parse, does not type-check or exceeds a limit."),
  InvalidView(
      400,
      azure("InvalidInput"),
      "A view definition is invalid (a template, filter or projection does not parse or names nothing)."),
  InvalidHeader(
      400,
      azure("InvalidHeaderValue"),
      "A header is malformed or missing (If-None-Match other than *; in the Azure dialect, x-ms-version)."),
  TableNotFound(
      404,
      azure("TableNotFound", "The table specified does not exist."),
      "The named table (or view) does not exist."),
  ItemNotFound(
      404,
      azure("ResourceNotFound", "The specified resource does not exist."),
      "No item has the given partition key and id."),
  UnknownEndpoint(404, azure("ResourceNotFound"), "No endpoint answers the requested path."),
  MethodNotAllowed(
      405,
      azure("UnsupportedHttpVerb"),
      "The endpoint exists but does not answer this HTTP method."),
  TableAlreadyExists(
      409,
      azure("TableAlreadyExists", "The table specified already exists."),
      "A table or view with this name (compared case-insensitively) already exists."),
  ItemAlreadyExists(
      409,
      azure("EntityAlreadyExists", "The specified entity already exists."),
      "An insert found an item with the same partition key and id."),
  ViewKeyConflict(
      409,
      azure("EntityAlreadyExists"),
      "A write would give two source items the same key in a view; nothing was written."),
  ViewIsReadOnly(
      409,
      azure("OperationNotAllowedOnView", "The table is a Viewbase view, which is read-only. %s"),
      "A write was addressed to a view (in the Azure dialect, Delete Table too); views are read-only."),
  ViewNotReady(
      409,
      azure("ViewNotReady"),
      "A view was read before its backfill finished, or after it failed."),
  TableBeingDeleted(409, azure("TableBeingDeleted"), "The table is being dropped."),
  ChangeFeedDisabled(
      409,
      azure("InvalidInput"),
      "The table's change feed was read, but the table does not record one (enable it in the table's options)."),
  ChangesExpired(
      410,
      azure("InvalidInput"),
      "A change-feed read asked for entries older than the oldest the feed still holds (its context names"
          + " oldest); resume from there, or re-read the table."),
  PreconditionFailed(
      412,
      azure(
          "UpdateConditionNotSatisfied",
          "The update condition specified in the request was not satisfied."),
      "A conditional write named an ETag that is no longer the item's current one."),
  UnsupportedMediaType(415, azure("InvalidInput"), "The request's content type is not JSON."),
  NotImplemented(
      501,
      azure("NotImplemented"),
      "The capability exists in the API but is not built in this version."),
  // A database that cannot serve the call now; none is the request's fault, so none is a 4xx.
  // WriteConflict and ShuttingDown mean "retry": nothing was done, and the same request succeeds
  // once the cause passes. The others mean "give up": the same call on the same handle fails the
  // same way (DatabaseClosed, StorageLocked, StorageUnreachable), or its outcome is unknown
  // (Timeout).
  WriteConflict(
      503,
      azure("ServerBusy"),
      "Retry: the items a write or batch reads kept changing under it (it "
          + "lost the race for them 1000 times in a row, or the store gave up claiming them); nothing was written."),
  ShuttingDown(
      503,
      azure("ServerBusy"),
      "Retry, against another server or once this one is back: the server or "
          + "database is shutting down and refused the request before doing anything of it."),
  DatabaseClosed(
      503,
      azure("ServerBusy"),
      "Give up: the database was closed before the call (over HTTP: the "
          + "server's database is closed), and nothing was done; open it again."),
  StorageLocked(
      503,
      azure("ServerBusy"),
      "Give up: the data directory is held by another process (or another open in this one)."),
  StorageUnreachable(
      503,
      azure("ServerBusy"),
      "Give up: the storage cannot be reached or opened (a Cassandra "
          + "cluster without live nodes or enough replicas, a data directory that cannot be created), or, from a client, "
          + "the server."),
  Timeout(
      504,
      azure("OperationTimedOut"),
      "Give up, and check before retrying what is not idempotent: a wait "
          + "ended without an answer (the storage or the server did not answer in time, views were not ready in time, "
          + "the waiting thread was interrupted); a write may or may not have been applied."),
  ServerBusy(
      503,
      azure("ServerBusy"),
      "The server has as many connections open as it allows; retry later, or reuse a connection."),
  StorageBackendMissing(
      500,
      azure("InternalError"),
      "A storage backend named at open time is not on the class path."),
  InternalError(
      500,
      azure("InternalError", "The server encountered an internal error; its log has the details."),
      "Something failed inside Viewbase; the server log has the details. Never the client's fault."),

  // ---- The Azure Tables dialect only: named after the Azure code they answer with ----

  AuthenticationFailed(
      403,
      azure("AuthenticationFailed", "Server failed to authenticate the request. %s"),
      "A request's signature, date or account, or its shared access signature, does not verify."),
  AuthorizationPermissionMismatch(
      403,
      azure(
          "AuthorizationPermissionMismatch",
          "This request is not authorized to perform this operation using this permission. %s"),
      "A shared access signature does not grant the operation, or not on this entity's keys."),
  AuthorizationResourceTypeMismatch(
      403,
      azure(
          "AuthorizationResourceTypeMismatch",
          "This request is not authorized to perform this operation using this resource type. %s"),
      "A shared access signature is not for the resource type the operation needs."),
  AuthorizationServiceMismatch(
      403,
      azure(
          "AuthorizationServiceMismatch",
          "This request is not authorized to perform this operation using this service. %s"),
      "An account shared access signature does not include the table service."),
  AuthorizationProtocolMismatch(
      403,
      azure(
          "AuthorizationProtocolMismatch",
          "This request is not authorized to perform this operation using this protocol. %s"),
      "A shared access signature does not allow http, which this server speaks."),
  AuthorizationSourceIPMismatch(
      403,
      azure(
          "AuthorizationSourceIPMismatch",
          "This request is not authorized to perform this operation using this source IP. %s"),
      "The client's address is outside those a shared access signature allows."),
  InsufficientAccountPermissions(
      403,
      azure(
          "InsufficientAccountPermissions",
          "The account being accessed does not have sufficient permissions to execute this operation. %s"),
      "A write was addressed to an account's read-only secondary endpoint."),
  CorsPreflightFailure(
      403,
      azure("CorsPreflightFailure", "CORS not enabled or no matching rule found for this request."),
      "No CORS rule allows a preflight's origin, method and headers."),
  InvalidUri(
      400,
      azure("InvalidUri"),
      "A request path names no account, or more segments than a table resource."),
  InvalidQueryParameterValue(
      400,
      azure(
          "InvalidQueryParameterValue",
          "Value for one of the query parameters specified in the request URI is invalid. %s"),
      "A query parameter is given twice, or names a service operation the endpoint does not answer."),
  PropertiesNeedValue(
      400,
      azure("PropertiesNeedValue"),
      "A required property is missing: an entity's PartitionKey or RowKey, or Create Table's TableName."),
  PropertyNameTooLong(
      400, azure("PropertyNameTooLong"), "A property name is longer than 255 characters."),
  DuplicatePropertiesSpecified(
      400, azure("DuplicatePropertiesSpecified"), "An entity names a property twice."),
  OutOfRangeInput(
      400,
      azure("OutOfRangeInput"),
      "Create Table names a table shorter than 3 or longer than 63 characters."),
  InvalidXmlDocument(
      400,
      azure("InvalidXmlDocument", "XML specified is not syntactically valid. %s"),
      "An access policy or service properties document is not well-formed, lacks an element or holds too many."),
  InvalidXmlNodeValue(
      400,
      azure(
          "InvalidXmlNodeValue",
          "The value for one of the XML nodes is not in the correct format. %s"),
      "An element of a service properties document holds a value Azure does not accept."),
  CommandsInBatchActOnDifferentPartitions(
      400,
      azure(
          "CommandsInBatchActOnDifferentPartitions",
          "All commands in a batch must operate on same entity group."),
      "A batch's operations name more than one partition key."),
  InvalidDuplicateRow(
      400,
      azure(
          "InvalidDuplicateRow",
          "The batch request contains multiple changes with same row "
              + "key. An entity can appear only once in a batch request."),
      "A batch names one entity twice."),
  TableNotFoundOnDelete(
      404,
      azure("ResourceNotFound", "The specified resource does not exist."),
      "Delete Table names a table that does not exist (an entity operation on one is TableNotFound).");

  private final int httpStatus;
  private final AzureError azure;
  private final String description;

  ErrorCode(int httpStatus, AzureError azure, String description) {
    this.httpStatus = httpStatus;
    this.azure =
        azure.status() == 0 ? new AzureError(httpStatus, azure.code(), azure.message()) : azure;
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
}
