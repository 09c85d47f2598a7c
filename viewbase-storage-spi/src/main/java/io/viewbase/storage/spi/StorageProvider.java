package io.viewbase.storage.spi;

/**
 * A storage backend, found by {@link #name()} through {@link java.util.ServiceLoader} ({@code
 * META-INF/services/io.viewbase.storage.spi.StorageProvider}).
 */
public interface StorageProvider {
  /** The name users choose the backend by, e.g. {@code rocksdb}, {@code memory}. */
  String name();

  Store open(StoreConfig config);
}
