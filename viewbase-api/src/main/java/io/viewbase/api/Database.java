package io.viewbase.api;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A Viewbase database: a catalog of tables (and views). The embedded engine and the HTTP client
 * implement the same interface, so code moves from embedded to remote unchanged.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public interface Database extends AutoCloseable {

  /**
   * Creates a table; fails with {@link ErrorCode#TableAlreadyExists} if the name is taken
   * (case-insensitively).
   */
  TableInfo createTable(String name);

  /**
   * Creates a table with options (its change feed, its time-to-live); as {@link
   * #createTable(String)} otherwise. A database that keeps no options accepts only {@link
   * TableOptions#DEFAULT}.
   */
  default TableInfo createTable(String name, TableOptions options) {
    if (options == null || options.equals(TableOptions.DEFAULT)) {
      return createTable(name);
    }
    throw new ViewbaseException(
        ErrorCode.NotImplemented, "Table options are not supported by this database");
  }

  /** A table's options; {@link ErrorCode#TableNotFound} for an unknown table (or a view). */
  default TableOptions tableOptions(String name) {
    table(name);
    return TableOptions.DEFAULT;
  }

  /**
   * Changes a table's options, durably; writes committed after this returns follow them. Turning
   * the change feed on starts it at the next sequence number (the feed holds no entries of earlier
   * writes); turning it off keeps the entries held until retention drops them.
   */
  default TableOptions alterTable(String name, TableOptions options) {
    throw new ViewbaseException(
        ErrorCode.NotImplemented, "Table options are not supported by this database");
  }

  /**
   * Sweeps a table now: removes every item of it that has expired ({@link TimeToLive}), with its
   * view entries, and answers how many it removed. The background sweeper does the same at its own
   * pace; this one is not rate-limited. {@link ErrorCode#TableNotFound} for an unknown table.
   */
  default long expire(String table) {
    throw new ViewbaseException(
        ErrorCode.NotImplemented, "Time-to-live sweeps are not supported by this database");
  }

  /** What the sweeper did for a table ({@link SweepStatus}); TableNotFound for an unknown table. */
  default SweepStatus sweepStatus(String table) {
    throw new ViewbaseException(
        ErrorCode.NotImplemented, "Time-to-live sweeps are not supported by this database");
  }

  /** Drops a table and all its items; fails with {@link ErrorCode#TableNotFound}. */
  void dropTable(String name);

  /** Tables and views, ordered by name. */
  List<TableInfo> listTables();

  /**
   * The table or view with this name (case-insensitive); fails with {@link
   * ErrorCode#TableNotFound}. A view is read-only: its writes fail with {@link
   * ErrorCode#ViewIsReadOnly}, and its reads with {@link ErrorCode#ViewNotReady} until it is ready.
   */
  Table table(String name);

  /**
   * Creates a view and starts its backfill; writes to the source maintain it from this moment.
   * Fails with {@link ErrorCode#TableAlreadyExists} if the name is taken, {@link
   * ErrorCode#TableNotFound} for an unknown source, {@link ErrorCode#InvalidView} for a bad
   * template, filter or projection.
   */
  default ViewStatus createView(ViewDefinition definition) {
    throw new ViewbaseException(
        ErrorCode.NotImplemented, "Views are not supported by this database");
  }

  /**
   * The view's definition, state and backfill progress; {@link ErrorCode#TableNotFound} if there is
   * none.
   */
  default ViewStatus viewStatus(String name) {
    throw new ViewbaseException(
        ErrorCode.NotImplemented, "Views are not supported by this database");
  }

  /** Drops a view and its data. */
  default void dropView(String name) {
    throw new ViewbaseException(
        ErrorCode.NotImplemented, "Views are not supported by this database");
  }

  /** Compares every view entry with a recomputation from the source; repairs the drift if asked. */
  default VerifyReport verifyView(String name, boolean repair) {
    throw new ViewbaseException(
        ErrorCode.NotImplemented, "Views are not supported by this database");
  }

  /**
   * Commits a batch atomically: all of it, with every view in step, or nothing. On failure the
   * exception's context names {@code operationIndex} (0-based), and its code says why (for example
   * {@link ErrorCode#PreconditionFailed}, {@link ErrorCode#ItemAlreadyExists}, {@link
   * ErrorCode#ViewKeyConflict}).
   */
  default BatchResult commit(Batch batch) {
    throw new ViewbaseException(
        ErrorCode.NotImplemented, "Batches are not supported by this database");
  }

  /** The longest name a setting may have, in characters ({@link #putSetting}). */
  int MAX_SETTING_NAME_LENGTH = 128;

  /** The largest value a setting may hold: 64 KiB of UTF-8 ({@link #putSetting}). */
  int MAX_SETTING_VALUE_BYTES = 64 * 1024;

  /**
   * How many settings one table, view or the database as a whole may hold ({@link #putSetting}).
   */
  int MAX_SETTINGS = 64;

  /**
   * A setting that a protocol keeps in the catalog beside a table, or beside the database: the
   * Azure dialect keeps a table's stored access policies and the service's CORS rules this way.
   * Settings are not items: no item API, query or listing reaches them.
   *
   * @param table a table or view (case-insensitive), or null for the database as a whole
   * @param name the setting's name, e.g. {@code azure.acl}: 1 to {@link #MAX_SETTING_NAME_LENGTH}
   *     characters of {@code A-Z a-z 0-9 . _ -}
   * @return the value last put, read from storage (so every server sharing a store reads the same),
   *     or empty if none was put
   * @throws ViewbaseException {@link ErrorCode#TableNotFound} for a table or view that does not
   *     exist, {@link ErrorCode#InvalidInput} for a malformed name, {@link
   *     ErrorCode#NotImplemented} where the database keeps no settings (the HTTP client)
   */
  default Optional<String> setting(String table, String name) {
    throw new ViewbaseException(
        ErrorCode.NotImplemented, "Settings are not supported by this database");
  }

  /**
   * Stores a setting, durably, or removes it.
   *
   * <table>
   *   <caption>what a put does</caption>
   *   <tr><th>value</th><th>then</th></tr>
   *   <tr><td>null</td><td>the setting is removed (removing an absent one is no error)</td></tr>
   *   <tr><td>a string</td><td>it replaces the setting's value</td></tr>
   * </table>
   *
   * A table's (or view's) settings die with it: dropping it deletes them in the same atomic write,
   * and a table created again under the same name starts with none. Names are case-sensitive.
   *
   * @param table a table or view (case-insensitive), or null for the database as a whole
   * @param name as for {@link #setting}
   * @param value at most {@link #MAX_SETTING_VALUE_BYTES} bytes of UTF-8, or null to remove
   * @throws ViewbaseException {@link ErrorCode#TableNotFound} for a table or view that does not
   *     exist; {@link ErrorCode#InvalidInput} for a malformed name or a new setting beyond {@link
   *     #MAX_SETTINGS}; {@link ErrorCode#PropertyValueTooLarge} for a value over the limit; {@link
   *     ErrorCode#NotImplemented} where the database keeps no settings (the HTTP client)
   */
  default void putSetting(String table, String name, String value) {
    throw new ViewbaseException(
        ErrorCode.NotImplemented, "Settings are not supported by this database");
  }

  /**
   * Takes an online backup of the whole database (catalog, tables, views, settings, change feeds)
   * into a directory on the database's machine while writes go on: every write acknowledged before
   * the call is in it, no batch is half in it, and views stay in step with their sources. Backups
   * in one directory are numbered and share their common files; {@code viewbase restore} restores
   * one into a new data directory.
   *
   * <table>
   *   <caption>what a backup call answers</caption>
   *   <tr><th>case</th><th>error</th></tr>
   *   <tr><td>a directory that cannot hold backups (a file, the data directory or inside it, one
   *       holding other files; over HTTP, a relative path)</td><td>{@link ErrorCode#InvalidInput}
   *       </td></tr>
   *   <tr><td>another backup of this database, or into this directory, is running</td>
   *       <td>{@link ErrorCode#BackupInProgress}</td></tr>
   *   <tr><td>a storage that takes no backups (memory, Cassandra), or this default</td>
   *       <td>{@link ErrorCode#NotImplemented}, naming what to do instead</td></tr>
   * </table>
   */
  default BackupInfo backup(Path to) {
    throw new ViewbaseException(
        ErrorCode.NotImplemented, "Backups are not supported by this database");
  }

  /** The limits this database enforces. */
  Limits limits();

  /**
   * Reports this database's measurements (its store's, its views' backfill, its change feeds') to
   * {@code meters}, once per host registry; a database that measures nothing ignores it (the
   * default, and a remote database's).
   */
  default void bindMeters(Meters meters) {}

  @Override
  void close();
}
