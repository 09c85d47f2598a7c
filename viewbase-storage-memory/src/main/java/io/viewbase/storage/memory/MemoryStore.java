package io.viewbase.storage.memory;

import io.viewbase.storage.spi.BatchRules;
import io.viewbase.storage.spi.Capabilities;
import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.PartitionCursor;
import io.viewbase.storage.spi.Snapshot;
import io.viewbase.storage.spi.StorageException;
import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.Versioned;
import java.util.List;
import java.util.Optional;

/**
 * The reference store: everything in memory, one lock, readable rather than fast. It is what the
 * conformance suite's expectations were written against, and the backend of in-memory databases and
 * of tests.
 *
 * <p>Commits check their conditions and apply under one lock (appends take their numbers there), so
 * batches are atomic and isolated. Snapshots and cursors read a frozen copy-on-write state (see
 * {@link PartitionedData}), so taking one is free and the next write to a partition pays for one
 * copy of it. Nothing survives {@link #close()}.
 */
public final class MemoryStore implements Store {
  private static final Capabilities CAPABILITIES =
      new Capabilities(true, true, true, true, false, false, true);

  private final Object lock = new Object();
  private final PartitionedData data = new PartitionedData();
  private volatile boolean closed;

  @Override
  public Capabilities capabilities() {
    return CAPABILITIES;
  }

  @Override
  public Optional<Versioned> get(byte[] partition, byte[] key) {
    synchronized (lock) {
      ensureOpen();
      return copyOf(data.get(partition, key));
    }
  }

  @Override
  public Cursor scan(byte[] partition, KeyRange range, boolean reverse) {
    return frozen().scan(partition, range, reverse);
  }

  @Override
  public Cursor scanAll(byte[] partitionPrefix, byte[] afterPartition, byte[] afterKey) {
    return frozen().scanAll(partitionPrefix, afterPartition, afterKey);
  }

  @Override
  public PartitionCursor partitions(byte[] prefix, byte[] afterPartition) {
    return frozen().partitions(prefix, afterPartition);
  }

  @Override
  public Snapshot snapshot() {
    return new MemorySnapshot(frozen());
  }

  /**
   * Checks every condition, in order, then applies every mutation; under the lock, so no other
   * commit or read sees a half-applied batch.
   */
  @Override
  public void commit(List<Mutation> batch) throws ConditionFailedException {
    BatchRules.validate(batch);
    synchronized (lock) {
      ensureOpen();
      for (int i = 0; i < batch.size(); i++) {
        Mutation m = batch.get(i);
        Versioned current = data.get(m.partition(), m.key());
        Long version = current == null ? null : current.version();
        Condition condition = m.condition();
        if (!condition.isMetBy(version)) {
          throw new ConditionFailedException(i, condition, version);
        }
      }
      for (Mutation m : batch) {
        if (m instanceof Mutation.Append append) {
          append(append);
        } else if (m instanceof Mutation.Put put) {
          data.put(
              put.partition().clone(),
              put.key().clone(),
              new Versioned(put.version(), put.value().clone()));
        } else if (m instanceof Mutation.Delete) {
          data.remove(m.partition(), m.key());
        }
      }
    }
  }

  /** Stores the entry under the sequence's next number and records that number; under the lock. */
  private void append(Mutation.Append append) {
    Versioned last = data.get(append.partition(), append.key());
    long n = (last == null ? 0 : Mutation.sequenceNumber(last.value())) + 1;
    data.put(
        append.partition().clone(),
        Mutation.sequenceKey(append.key(), n),
        new Versioned(append.version(), append.value().clone()));
    data.put(
        append.partition().clone(),
        append.key().clone(),
        new Versioned(append.version(), Mutation.sequenceKey(new byte[0], n)));
  }

  @Override
  public void close() {
    closed = true;
  }

  private FrozenView frozen() {
    synchronized (lock) {
      ensureOpen();
      return new FrozenView(data.freeze(), this);
    }
  }

  void ensureOpen() {
    if (closed) {
      throw new StorageException("the memory store is closed", null, StorageException.Kind.CLOSED);
    }
  }

  /** A copy the caller may change: stored arrays are never handed out. */
  static Optional<Versioned> copyOf(Versioned stored) {
    return stored == null
        ? Optional.empty()
        : Optional.of(new Versioned(stored.version(), stored.value().clone()));
  }
}
