package io.viewbase.storage.memory;

import io.viewbase.storage.spi.Store;
import io.viewbase.storage.tck.StoreConformanceTest;
import java.nio.file.Path;

class MemoryStoreTest extends StoreConformanceTest {
  @Override
  protected Store open(Path dir, boolean sync) {
    return new MemoryStore();
  }
}
