package io.viewbase.storage.memory;

import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.Versioned;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;

/** A cursor over entries of a frozen state of the memory store. */
final class MemoryCursor implements Cursor {
  /** One entry: its partition, and its key with the versioned value. */
  record Position(byte[] partition, Map.Entry<byte[], Versioned> entry) {}

  private final Iterator<Position> positions;
  private final MemoryStore store;
  private Position current;
  private boolean closed;

  MemoryCursor(Iterator<Position> positions, MemoryStore store) {
    this.positions = positions;
    this.store = store;
  }

  @Override
  public boolean next() {
    store.ensureOpen();
    current = !closed && positions.hasNext() ? positions.next() : null;
    return current != null;
  }

  @Override
  public byte[] partition() {
    return position().partition().clone();
  }

  @Override
  public byte[] key() {
    return position().entry().getKey().clone();
  }

  @Override
  public long version() {
    return position().entry().getValue().version();
  }

  @Override
  public byte[] value() {
    return position().entry().getValue().value().clone();
  }

  private Position position() {
    if (current == null) {
      throw new NoSuchElementException(
          "the cursor is not on an entry: call next() first, and only while it returns true");
    }
    return current;
  }

  @Override
  public void close() {
    closed = true;
    current = null;
  }
}
