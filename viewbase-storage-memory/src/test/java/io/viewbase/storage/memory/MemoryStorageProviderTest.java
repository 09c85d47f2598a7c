package io.viewbase.storage.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.storage.spi.StorageProvider;
import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.StoreConfig;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class MemoryStorageProviderTest {

  @Test
  void serviceLoaderFindsTheProviderByTheNameMemory() {
    StorageProvider provider =
        ServiceLoader.load(StorageProvider.class).stream()
            .map(ServiceLoader.Provider::get)
            .filter(p -> p.name().equals("memory"))
            .findFirst()
            .orElseThrow();

    try (Store store = provider.open(new StoreConfig(null, true, Map.of()))) {
      assertThat(store.capabilities().durableCommits()).isFalse();
      assertThat(store.capabilities().groupCommit()).isFalse();
      assertThat(store.capabilities().snapshots()).isTrue();
      assertThat(store.capabilities().isolatedBatches()).isTrue();
    }
  }
}
