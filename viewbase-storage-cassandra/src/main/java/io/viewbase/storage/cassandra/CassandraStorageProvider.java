package io.viewbase.storage.cassandra;

import io.viewbase.storage.spi.StorageProvider;
import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.StoreConfig;

/**
 * Finds the Cassandra backend by the name {@code cassandra}; see {@link CassandraSettings} for its
 * options.
 */
public final class CassandraStorageProvider implements StorageProvider {
  @Override
  public String name() {
    return "cassandra";
  }

  @Override
  public Store open(StoreConfig config) {
    return CassandraStore.open(CassandraSettings.from(config));
  }
}
