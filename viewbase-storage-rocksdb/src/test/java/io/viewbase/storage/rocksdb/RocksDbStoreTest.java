package io.viewbase.storage.rocksdb;

import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.StoreConfig;
import io.viewbase.storage.tck.StoreConformanceTest;
import java.nio.file.Path;
import java.util.Map;

class RocksDbStoreTest extends StoreConformanceTest {
  @Override
  protected Store open(Path dir, boolean sync) {
    return RocksDbStore.open(
        new StoreConfig(
            dir, sync, Map.of("rocksdb.blockCacheBytes", "8m", "rocksdb.writeBufferBytes", "4m")));
  }
}
