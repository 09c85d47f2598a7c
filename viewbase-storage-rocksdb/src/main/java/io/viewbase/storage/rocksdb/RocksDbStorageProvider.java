package io.viewbase.storage.rocksdb;

import io.viewbase.storage.spi.StorageProvider;
import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.StoreConfig;
import io.viewbase.storage.spi.StoredBackup;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/**
 * Finds the RocksDB backend by the name {@code rocksdb}; see {@link RocksDbSettings} for its
 * options.
 */
public final class RocksDbStorageProvider implements StorageProvider {
  @Override
  public String name() {
    return "rocksdb";
  }

  @Override
  public Store open(StoreConfig config) {
    return RocksDbStore.open(config);
  }

  @Override
  public List<StoredBackup> backups(Path directory) {
    return RocksDbBackups.list(directory);
  }

  @Override
  public StoredBackup restore(Path from, OptionalLong id, Path dataDirectory) {
    return RocksDbBackups.restore(from, id, dataDirectory);
  }
}
