package io.viewbase.storage.spi;

/**
 * A forward-only position over stored entries. {@link #next()} moves to the next entry; the
 * accessors then describe it until the following call. Returned arrays belong to the caller, and
 * stay unchanged after the cursor moves on; {@link #partition()} may hand out one array for a run
 * of entries of the same partition, so callers must not modify it. Cursors may pin native
 * resources: close them.
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
