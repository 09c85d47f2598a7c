package io.viewbase.api;

import java.nio.file.Path;
import java.util.Map;

/**
 * How to open an embedded database.
 *
 * @param path the data directory (created if absent); ignored by the memory backend
 * @param storage the storage backend by name: {@code rocksdb} (default) or {@code memory}
 * @param sync true (default): a write returns only once its log record is synced to disk. false
 *     trades the last moments of writes on a machine crash for speed.
 * @param limits the limits to enforce
 * @param options backend-specific settings
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record OpenOptions(
    Path path, String storage, boolean sync, Limits limits, Map<String, String> options) {
  public OpenOptions {
    options = Map.copyOf(options);
  }

  public static OpenOptions at(Path path) {
    return new OpenOptions(path, "rocksdb", true, Limits.DEFAULT, Map.of());
  }

  public static OpenOptions inMemory() {
    return new OpenOptions(null, "memory", true, Limits.DEFAULT, Map.of());
  }

  public OpenOptions withStorage(String name) {
    return new OpenOptions(path, name, sync, limits, options);
  }

  public OpenOptions withSync(boolean durable) {
    return new OpenOptions(path, storage, durable, limits, options);
  }

  public OpenOptions withLimits(Limits newLimits) {
    return new OpenOptions(path, storage, sync, newLimits, options);
  }

  public OpenOptions withOptions(Map<String, String> backendOptions) {
    return new OpenOptions(path, storage, sync, limits, backendOptions);
  }
}
