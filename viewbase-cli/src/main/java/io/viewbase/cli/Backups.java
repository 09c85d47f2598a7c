package io.viewbase.cli;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import io.viewbase.storage.spi.StorageException;
import io.viewbase.storage.spi.StorageProvider;
import io.viewbase.storage.spi.StoredBackup;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * What {@code backup --list} and {@code restore} read on this machine: the backup directories of
 * the RocksDB backend, the one that takes backups, through its {@link StorageProvider}. Its
 * refusals become the CLI's errors:
 *
 * <pre>
 * provider throws          | error
 * -------------------------+---------------------------------------------------------------
 * IllegalArgumentException | InvalidInput (no such backup, a non-empty data directory, ...)
 * StorageException         | InternalError (a file failed its checksum, a copy failed)
 * </pre>
 */
final class Backups {
  private static final String BACKEND = "rocksdb";

  private Backups() {}

  static StorageProvider provider() {
    for (StorageProvider provider : ServiceLoader.load(StorageProvider.class)) {
      if (provider.name().equals(BACKEND)) {
        return provider;
      }
    }
    throw new ViewbaseException(
        ErrorCode.StorageBackendMissing,
        "The rocksdb storage backend is not on the class path; backups need it");
  }

  /** The provider's refusals as the CLI's errors; anything else as it is. */
  static RuntimeException translate(RuntimeException failure) {
    if (failure instanceof IllegalArgumentException) {
      return new ViewbaseException(ErrorCode.InvalidInput, failure.getMessage(), Map.of(), failure);
    }
    if (failure instanceof StorageException) {
      return new ViewbaseException(
          ErrorCode.InternalError, failure.getMessage(), Map.of(), failure);
    }
    return failure;
  }

  /** One listed backup as a JSON line. */
  static String json(StoredBackup b) {
    return "{\"id\":"
        + b.id()
        + ",\"created\":"
        + JsonText.quote(b.created().toString())
        + ",\"sizeBytes\":"
        + b.sizeBytes()
        + ",\"files\":"
        + b.files()
        + "}";
  }
}
