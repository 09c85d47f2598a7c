package io.viewbase.storage.spi;

/**
 * A forward-only position over stored entries. {@link #next()} moves to the next entry; the
 * accessors then describe it until the following call. Returned arrays belong to the caller.
 * Cursors may pin native resources: close them.
 */
public interface Cursor extends AutoCloseable {
  /** Moves to the next entry; false when there is none (the cursor is then exhausted). */
  boolean next();

  byte[] partition();

  byte[] key();

  long version();

  byte[] value();

  @Override
  void close();
}
