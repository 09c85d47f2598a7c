package io.viewbase.storage.rocksdb;

import io.viewbase.storage.spi.StorageException;
import io.viewbase.storage.spi.StoreConfig;
import java.nio.file.Path;
import java.util.Map;

/**
 * Run in a second JVM by {@link RocksDbDirectoryLockTest}: tries to open the directory given as the
 * argument and prints what happened.
 */
public final class TryOpen {
  private TryOpen() {}

  public static void main(String[] args) {
    try (RocksDbStore store =
        RocksDbStore.open(new StoreConfig(Path.of(args[0]), false, Map.of()))) {
      System.out.println(store.directory() == null ? "no directory" : "opened");
    } catch (StorageException e) {
      System.out.println(
          "unavailable=" + e.isUnavailable() + " kind=" + e.kind() + " " + e.getMessage());
    }
  }
}
