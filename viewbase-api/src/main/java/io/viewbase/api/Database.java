package io.viewbase.api;

import java.util.List;

/**
 * A Viewbase database: a catalog of tables (and views). The embedded engine and the HTTP client
 * implement the same interface, so code moves from embedded to remote unchanged.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public interface Database extends AutoCloseable {

  /** Creates a table; fails with {@link ErrorCode#TableAlreadyExists} if the name is taken (case-insensitively). */
  TableInfo createTable(String name);

  /** Drops a table and all its items; fails with {@link ErrorCode#TableNotFound}. */
  void dropTable(String name);

  /** Tables and views, ordered by name. */
  List<TableInfo> listTables();

  /**
   * The table or view with this name (case-insensitive); fails with {@link ErrorCode#TableNotFound}.
   * A view is read-only: its writes fail with {@link ErrorCode#ViewIsReadOnly}, and its reads with
   * {@link ErrorCode#ViewNotReady} until it is ready.
   */
  Table table(String name);

  /**
   * Creates a view and starts its backfill; writes to the source maintain it from this moment.
   * Fails with {@link ErrorCode#TableAlreadyExists} if the name is taken, {@link
   * ErrorCode#TableNotFound} for an unknown source, {@link ErrorCode#InvalidView} for a bad template,
   * filter or projection.
   */
  default ViewStatus createView(ViewDefinition definition) {
    throw new ViewbaseException(ErrorCode.NotImplemented, "Views are not supported by this database");
  }

  /** The view's definition, state and backfill progress; {@link ErrorCode#TableNotFound} if there is none. */
  default ViewStatus viewStatus(String name) {
    throw new ViewbaseException(ErrorCode.NotImplemented, "Views are not supported by this database");
  }

  /** Drops a view and its data. */
  default void dropView(String name) {
    throw new ViewbaseException(ErrorCode.NotImplemented, "Views are not supported by this database");
  }

  /** Compares every view entry with a recomputation from the source; repairs the drift if asked. */
  default VerifyReport verifyView(String name, boolean repair) {
    throw new ViewbaseException(ErrorCode.NotImplemented, "Views are not supported by this database");
  }

  /**
   * Commits a batch atomically: all of it, with every view in step, or nothing. On failure the
   * exception's context names {@code operationIndex} (0-based), and its code says why (for example
   * {@link ErrorCode#PreconditionFailed}, {@link ErrorCode#ItemAlreadyExists},
   * {@link ErrorCode#ViewKeyConflict}).
   */
  default BatchResult commit(Batch batch) {
    throw new ViewbaseException(ErrorCode.NotImplemented, "Batches are not supported by this database");
  }

  /** The limits this database enforces. */
  Limits limits();

  @Override
  void close();
}
