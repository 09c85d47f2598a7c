package io.viewbase.storage.spi;

/** A frozen state of a store: every read sees the data as it was when the snapshot was taken. */
public interface Snapshot extends ReadView, AutoCloseable {
  @Override
  void close();
}
