package io.viewbase.cli;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.api.ViewbaseException;
import java.util.Locale;
import java.util.Map;

/**
 * Opens the embedded engine for the CLI. A RocksDB data directory belongs to one process at a time;
 * when another holds it, the user gets a message that says so and what to do, rather than RocksDB's
 * "lock hold by current process" text.
 */
final class DataDirectory {
  private DataDirectory() {}

  static Database open(OpenOptions options) {
    try {
      return Viewbase.open(options);
    } catch (RuntimeException failure) {
      if (options.path() != null && isLockConflict(failure)) {
        throw new ViewbaseException(
            ErrorCode.StorageLocked,
            "Data directory is in use by another process (a running 'viewbase serve'?); stop it, "
                + "or send the command to that server with --server URL",
            Map.of("data", options.path().toAbsolutePath()),
            failure);
      }
      throw failure;
    }
  }

  /**
   * RocksDB reports a held directory as an IO error on its LOCK file ("While lock file: …/LOCK:
   * Resource temporarily unavailable", or "lock hold by current process" within one JVM); the
   * engine may wrap it in its own exception, so the whole cause chain is searched.
   */
  private static boolean isLockConflict(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      String message = t.getMessage();
      if (message != null
          && (message.contains("LOCK")
              || message.toLowerCase(Locale.ROOT).contains("lock hold")
              || message.toLowerCase(Locale.ROOT).contains("lock file"))) {
        return true;
      }
    }
    return false;
  }
}
