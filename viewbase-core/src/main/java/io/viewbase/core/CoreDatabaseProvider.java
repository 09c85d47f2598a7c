package io.viewbase.core;

import io.viewbase.api.Database;
import io.viewbase.api.DatabaseProvider;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.ViewbaseException;
import io.viewbase.storage.spi.StorageException;
import io.viewbase.storage.spi.StorageProvider;
import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.StoreConfig;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Opens the embedded engine for {@link io.viewbase.api.Viewbase#open}: finds the storage backend by
 * name among the {@link StorageProvider}s on the class path (core never names one) and wraps the
 * store in an {@link EmbeddedDatabase}.
 */
public final class CoreDatabaseProvider implements DatabaseProvider {
  @Override
  public Database open(OpenOptions options) {
    return open(options, Clock.systemUTC());
  }

  /**
   * Opens the engine with the clock that decides when items expire ({@code docs/ttl.md}): tests
   * pass one they move forward, which should run with the system clock (an offset), since an item's
   * version, the start of its life, is system time. {@code sweep.*} options set the sweeper ({@link
   * SweepSettings}); the backend gets the others.
   */
  public static EmbeddedDatabase open(OpenOptions options, Clock expiryClock) {
    SweepSettings sweep = SweepSettings.of(options.options());
    StorageProvider provider = find(options.storage());
    Store store;
    try {
      store =
          provider.open(
              new StoreConfig(
                  options.path(), options.sync(), SweepSettings.backendOptions(options.options())));
    } catch (StorageException e) {
      throw EmbeddedDatabase.storageError(e);
    }
    return new EmbeddedDatabase(store, options.limits(), expiryClock, sweep);
  }

  static StorageProvider find(String name) {
    List<String> available = new ArrayList<>();
    for (StorageProvider provider : ServiceLoader.load(StorageProvider.class)) {
      if (provider.name().equalsIgnoreCase(name)) {
        return provider;
      }
      available.add(provider.name());
    }
    throw ViewbaseException.of(
        ErrorCode.StorageBackendMissing,
        "No storage backend named '"
            + name
            + "' on the class path: add the dependency io.viewbase:viewbase-storage-"
            + name,
        "storage",
        name,
        "available",
        String.join(", ", available));
  }
}
