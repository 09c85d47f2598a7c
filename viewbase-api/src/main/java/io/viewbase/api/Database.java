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

  /** The table or view with this name (case-insensitive); fails with {@link ErrorCode#TableNotFound}. */
  Table table(String name);

  /** The limits this database enforces. */
  Limits limits();

  @Override
  void close();
}
