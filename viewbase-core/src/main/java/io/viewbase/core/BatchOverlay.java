package io.viewbase.core;

import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.OrderedKeyCodec;
import io.viewbase.storage.spi.PartitionCursor;
import io.viewbase.storage.spi.ReadView;
import io.viewbase.storage.spi.Versioned;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The state a batch sees while it is being decided: the store, with the effects of the batch's
 * earlier operations on top, so that a later operation reads what an earlier one wrote (operation 2
 * may claim the view key operation 1 released). It folds every mutation on one key into one: the
 * condition of the first (what the batch read from the store) and the effect of the last, so the
 * store receives each key once, as its batches require.
 */
final class BatchOverlay implements ReadView {
  /** All that the batch does to one key. */
  private static final class Slot {
    final byte[] partition;
    final byte[] key;
    final Condition condition;
    final int operation;
    final boolean asserted;
    Mutation effect;
    /** The key's state after the batch so far; null while unknown (only checked, never written). */
    Optional<Versioned> after;

    Slot(Mutation first, int operation, boolean asserted) {
      this.partition = first.partition();
      this.key = first.key();
      this.condition = first.condition();
      this.operation = operation;
      this.asserted = asserted;
    }
  }

  private final ReadView store;
  private final Map<ByteBuffer, Slot> slots = new LinkedHashMap<>();
  private List<Slot> committed;

  BatchOverlay(ReadView store) {
    this.store = store;
  }

  /**
   * Adds one mutation of operation {@code operation}; {@code asserted} marks a condition the
   * caller asked for (a check), whose failure is the operation's error rather than a reason to
   * retry.
   */
  void add(Mutation m, int operation, boolean asserted) {
    ByteBuffer k = ByteBuffer.wrap(OrderedKeyCodec.encode(m.partition(), m.key()));
    Slot slot = slots.get(k);
    if (slot == null) {
      slot = new Slot(m, operation, asserted);
      slots.put(k, slot);
    }
    if (m instanceof Mutation.Put put) {
      slot.effect = put;
      slot.after = Optional.of(new Versioned(put.version(), put.value()));
    } else if (m instanceof Mutation.Delete) {
      slot.effect = m;
      slot.after = Optional.empty();
    }
  }

  /** One mutation per key, in the order keys were first touched. */
  List<Mutation> mutations() {
    committed = new ArrayList<>(slots.values());
    List<Mutation> out = new ArrayList<>(committed.size());
    for (Slot s : committed) {
      if (s.effect instanceof Mutation.Put put) {
        out.add(new Mutation.Put(s.partition, s.key, put.version(), put.value(), s.condition));
      } else if (s.effect != null) {
        out.add(new Mutation.Delete(s.partition, s.key, s.condition));
      } else {
        out.add(new Mutation.Check(s.partition, s.key, s.condition));
      }
    }
    return out;
  }

  /** The operation whose mutation is at {@code index} of {@link #mutations()}. */
  int operationOf(int index) {
    return committed.get(index).operation;
  }

  boolean isAsserted(int index) {
    return committed.get(index).asserted;
  }

  @Override
  public Optional<Versioned> get(byte[] partition, byte[] key) {
    Slot slot = slots.get(ByteBuffer.wrap(OrderedKeyCodec.encode(partition, key)));
    return slot != null && slot.after != null ? slot.after : store.get(partition, key);
  }

  @Override
  public Cursor scan(byte[] partition, KeyRange range, boolean reverse) {
    throw new UnsupportedOperationException("a batch reads single keys");
  }

  @Override
  public Cursor scanAll(byte[] partitionPrefix, byte[] afterPartition, byte[] afterKey) {
    throw new UnsupportedOperationException("a batch reads single keys");
  }

  @Override
  public PartitionCursor partitions(byte[] prefix, byte[] afterPartition) {
    throw new UnsupportedOperationException("a batch reads single keys");
  }
}
