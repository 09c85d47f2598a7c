package io.viewbase.api;

/**
 * The stable codes of every error Viewbase reports. A code never changes meaning; clients may
 * branch on it. Each constant carries its HTTP status, the error code the Azure Tables dialect
 * reports for it, and when it happens.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public enum ErrorCode {
  /** A request body or parameter is malformed in a way no more specific code covers. */
  InvalidInput(400, "InvalidInput"),
  /** The request body is not well-formed JSON, or JSON of the wrong shape. */
  InvalidJson(400, "InvalidInput"),
  /** A partition key or id is empty, longer than 1024 bytes of UTF-8, or holds a control character. */
  InvalidKey(400, "InvalidInput"),
  /** A table name does not match {@code ^[A-Za-z][A-Za-z0-9]{2,62}$}. */
  InvalidTableName(400, "InvalidResourceName"),
  /** A property name is empty, too long, reserved (starts with '_') or not valid. */
  InvalidPropertyName(400, "PropertyNameInvalid"),
  /** A property value cannot be represented (for example a typed annotation that does not parse). */
  InvalidValue(400, "InvalidInput"),
  /** An item has more properties than the limit (255 by default). */
  TooManyProperties(400, "TooManyProperties"),
  /** A property value exceeds its limit (for example a string over 64 KiB in the Azure dialect). */
  PropertyValueTooLarge(400, "PropertyValueTooLarge"),
  /** An item's encoded size exceeds the limit (1 MiB by default). */
  ItemTooLarge(400, "EntityTooLarge"),
  /** The request body exceeds what the server accepts. */
  RequestTooLarge(413, "RequestBodyTooLarge"),
  /** A request's line, headers or body did not arrive within the server's timeout; the connection is closed. */
  RequestTimeout(408, "RequestTimeout"),
  /** The body names a partition key or id different from the address it was sent to. */
  KeyMismatch(400, "InvalidInput"),
  /** A continuation token was not issued by this database for this query, or was altered. */
  InvalidContinuation(400, "InvalidInput"),
  /** A query parameter is out of range or contradictory (for example limit above 1000). */
  InvalidQuery(400, "InvalidInput"),
  /** A $filter expression does not parse or does not type-check. */
  InvalidFilter(400, "InvalidInput"),
  /** A view definition is invalid: a template, where filter or projection does not parse or names nothing. */
  InvalidView(400, "InvalidInput"),
  /** A header value is malformed (for example an If-Match that is not an ETag). */
  InvalidHeader(400, "InvalidHeaderValue"),
  /** The named table (or view) does not exist. */
  TableNotFound(404, "TableNotFound"),
  /** No item has the given partition key and id. */
  ItemNotFound(404, "ResourceNotFound"),
  /** No endpoint answers the requested path. */
  UnknownEndpoint(404, "ResourceNotFound"),
  /** The endpoint exists but not with this HTTP method. */
  MethodNotAllowed(405, "UnsupportedHttpVerb"),
  /** A table with this name (compared case-insensitively) already exists. */
  TableAlreadyExists(409, "TableAlreadyExists"),
  /** An insert found an item with the same partition key and id. */
  ItemAlreadyExists(409, "EntityAlreadyExists"),
  /** A write would give two source items the same key in a unique view. */
  ViewKeyConflict(409, "EntityAlreadyExists"),
  /** A write was addressed to a view; views are read-only. */
  ViewIsReadOnly(409, "OperationNotAllowedOnView"),
  /** A view was read before its backfill finished. */
  ViewNotReady(409, "ViewNotReady"),
  /** The table is being dropped. */
  TableBeingDeleted(409, "TableBeingDeleted"),
  /** A conditional write named an ETag that is no longer the item's current one. */
  PreconditionFailed(412, "UpdateConditionNotSatisfied"),
  /** The request's content type is not JSON. */
  UnsupportedMediaType(415, "InvalidInput"),
  /** The capability exists in the API but is not built in this version. */
  NotImplemented(501, "NotImplemented"),
  // A database that cannot serve the call now. None is the request's fault, so none is a 4xx.
  // WriteConflict and ShuttingDown mean "retry": nothing was done, and the same request succeeds
  // once the cause passes. The others mean "give up": the same call on the same handle fails the
  // same way (DatabaseClosed, StorageLocked, StorageUnreachable), or its outcome is unknown
  // (Timeout, 504: the answer did not come in time; the others are 503).
  /**
   * Retry: the items a write or batch reads kept changing under it (it lost the race for them
   * 1000 times in a row, or the store gave up claiming them); nothing was written.
   */
  WriteConflict(503, "ServerBusy"),
  /**
   * Retry, against another server or once this one is back: the server or database is shutting
   * down and refused the request before doing anything of it.
   */
  ShuttingDown(503, "ServerBusy"),
  /**
   * Give up: the database was closed before the call (over HTTP: the server's database is closed);
   * nothing was done. Open it again.
   */
  DatabaseClosed(503, "ServerBusy"),
  /** Give up: the data directory is held by another process (or another open in this one). */
  StorageLocked(503, "ServerBusy"),
  /**
   * Give up: the storage cannot be reached or opened (a Cassandra cluster without live nodes or
   * enough replicas, a data directory that cannot be created), or, from a client, the server.
   */
  StorageUnreachable(503, "ServerBusy"),
  /**
   * Give up, and check before retrying what is not idempotent: a wait ended without an answer (the
   * storage or the server did not answer in time, views were not ready in time, the waiting thread
   * was interrupted); a write may or may not have been applied.
   */
  Timeout(504, "OperationTimedOut"),
  /** The server has as many connections open as it allows; retry later, or reuse a connection. */
  ServerBusy(503, "ServerBusy"),
  /** A storage backend named at open time is not on the class path. */
  StorageBackendMissing(500, "InternalError"),
  /** Something failed inside Viewbase; the server log has the details. Never the client's fault. */
  InternalError(500, "InternalError");

  private final int httpStatus;
  private final String azureCode;

  ErrorCode(int httpStatus, String azureCode) {
    this.httpStatus = httpStatus;
    this.azureCode = azureCode;
  }

  public int httpStatus() {
    return httpStatus;
  }

  public String azureCode() {
    return azureCode;
  }

  /** Whether the client caused this error (a 4xx status). */
  public boolean isClientError() {
    return httpStatus >= 400 && httpStatus < 500;
  }
}
