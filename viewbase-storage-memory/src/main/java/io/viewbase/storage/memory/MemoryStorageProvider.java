package io.viewbase.storage.memory;

import io.viewbase.storage.spi.StorageProvider;
import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.StoreConfig;

/** Finds the memory backend by the name {@code memory}. It ignores the directory and options. */
public final class MemoryStorageProvider implements StorageProvider {
  @Override
  public String name() {
    return "memory";
  }

  @Override
  public Store open(StoreConfig config) {
    return new MemoryStore();
  }
}
