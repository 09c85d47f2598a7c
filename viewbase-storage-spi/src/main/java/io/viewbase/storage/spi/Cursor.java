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

  /**
   * The length of {@link #key()}, for a caller that only counts the bytes it read. By default the
   * key is copied to measure it; a backend that holds the key in a buffer of its own measures it
   * there.
   */
  default int keyLength() {
    return key().length;
  }

  long version();

  byte[] value();

  /**
   * Lets {@code reader} look at the current entry's value in place, as {@code buf[offset, offset +
   * length)}: bytes that may belong to the cursor, valid only during the call, not to be modified
   * or kept, and the reader must not move the cursor. For callers that only look at a value (a scan
   * testing a filter), which then need not copy it. By default the reader gets a copy from {@link
   * #value()}; a backend that holds the value in a buffer of its own hands over that.
   */
  default <T> T readValue(ValueReader<T> reader) {
    byte[] value = value();
    return reader.read(value, 0, value.length);
  }

  /** Reads a value handed over by {@link #readValue}. */
  @FunctionalInterface
  interface ValueReader<T> {
    T read(byte[] buf, int offset, int length);
  }

  @Override
  void close();
}
