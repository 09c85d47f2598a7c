package io.viewbase.storage.spi;

import java.nio.file.Path;
import java.util.Map;

/**
 * How to open a store.
 *
 * @param directory where a local backend keeps its files (null for backends without files)
 * @param sync whether {@link Store#commit} returns only after the commit is durable
 * @param options backend-specific settings, as text
 */
public record StoreConfig(Path directory, boolean sync, Map<String, String> options) {
  public StoreConfig {
    options = Map.copyOf(options);
  }

  public String option(String name, String defaultValue) {
    return options.getOrDefault(name, defaultValue);
  }
}
