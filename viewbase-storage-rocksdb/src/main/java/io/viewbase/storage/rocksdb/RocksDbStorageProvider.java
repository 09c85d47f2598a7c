package io.viewbase.storage.rocksdb;

import io.viewbase.storage.spi.StorageProvider;
import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.StoreConfig;

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
}
