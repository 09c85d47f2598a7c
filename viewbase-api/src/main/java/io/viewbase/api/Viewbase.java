package io.viewbase.api;

import java.nio.file.Path;
import java.util.ServiceLoader;

/**
 * The entry point of the embedded engine: {@code try (Database db = Viewbase.open(path)) {...}}.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class Viewbase {
  private Viewbase() {}

  /** Opens (creating if needed) a durable RocksDB-backed database in this directory. */
  public static Database open(Path path) {
    return open(OpenOptions.at(path));
  }

  public static Database open(OpenOptions options) {
    for (DatabaseProvider provider : ServiceLoader.load(DatabaseProvider.class)) {
      return provider.open(options);
    }
    throw new ViewbaseException(
        ErrorCode.StorageBackendMissing,
        "No embedded engine on the class path: add the dependency io.viewbase:viewbase-core "
            + "(and a storage backend such as io.viewbase:viewbase-storage-rocksdb)");
  }
}
