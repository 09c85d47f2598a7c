package io.viewbase.storage.spi;

/** A forward-only walk over partition keys. Close it. */
public interface PartitionCursor extends AutoCloseable {
  boolean next();

  byte[] partition();

  @Override
  void close();
}
