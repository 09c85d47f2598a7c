package io.viewbase.storage.spi;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/**
 * A storage backend, found by {@link #name()} through {@link java.util.ServiceLoader} ({@code
 * META-INF/services/io.viewbase.storage.spi.StorageProvider}).
 */
public interface StorageProvider {
  /** The name users choose the backend by, e.g. {@code rocksdb}, {@code memory}. */
  String name();

  Store open(StoreConfig config);

  /**
   * The backups a directory that {@link Store#backup} wrote holds, oldest first; none for a
   * directory that does not exist. {@link UnsupportedOperationException} where the backend takes no
   * backups, {@link IllegalArgumentException} for a directory that is no backup directory.
   */
  default List<StoredBackup> backups(Path directory) {
    throw new UnsupportedOperationException("The " + name() + " backend takes no backups");
  }

  /**
   * Restores a backup from {@code from} into {@code dataDirectory}, offline: no store may be open
   * on it, and it must be empty or absent (a restore never overwrites a database). Restores the
   * latest backup when {@code id} is empty. Answers the backup restored.
   *
   * @throws IllegalArgumentException if {@code from} holds no such backup, or {@code dataDirectory}
   *     is not empty
   * @throws UnsupportedOperationException where the backend takes no backups
   * @throws StorageException if a file fails its checksum or cannot be copied
   */
  default StoredBackup restore(Path from, OptionalLong id, Path dataDirectory) {
    throw new UnsupportedOperationException("The " + name() + " backend takes no backups");
  }
}
