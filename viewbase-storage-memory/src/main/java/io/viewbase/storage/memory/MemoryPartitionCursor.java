package io.viewbase.storage.memory;

import io.viewbase.storage.spi.PartitionCursor;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;

/** A walk over the partitions of a frozen state of the memory store. */
final class MemoryPartitionCursor implements PartitionCursor {
  private final Iterator<byte[]> partitions;
  private final MemoryStore store;
  private byte[] current;
  private boolean closed;

  MemoryPartitionCursor(Iterator<byte[]> partitions, MemoryStore store) {
    this.partitions = partitions;
    this.store = store;
  }

  @Override
  public boolean next() {
    store.ensureOpen();
    current = !closed && partitions.hasNext() ? partitions.next() : null;
    return current != null;
  }

  @Override
  public byte[] partition() {
    if (current == null) {
      throw new NoSuchElementException("the cursor is not on a partition: call next() first");
    }
    return Arrays.copyOf(current, current.length);
  }

  @Override
  public void close() {
    closed = true;
    current = null;
  }
}
