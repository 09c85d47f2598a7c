package io.viewbase.core;

import io.viewbase.api.Item;
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
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One attempt at committing a write set ({@link WritePipeline}): the mutations its operations have
 * decided so far, each operation's result, and the store as the set sees it while it is decided.
 *
 * <p>Each mutation is either an operation's <em>rule</em> ({@link #addRule}: a write decided by its
 * condition, a check), whose failure at commit is that operation's error, or conditional on what
 * was read ({@link #add}), whose failure means something changed: decide again.
 *
 * <p>A write alone needs no more: its mutations touch distinct keys (its item's, and one or two per
 * view), so they go to the store as they come. Several operations are decided against the store
 * plus the set's earlier operations, so that a later one reads what an earlier one wrote (operation
 * 2 may claim the view key operation 1 released), and every mutation on one key is folded into one:
 * the condition of the first (what the set read from the store) and the effect of the last, so the
 * store receives each key once, as its batches require.
 */
abstract sealed class Draft implements ReadView, ViewMaintainer.Context {
  /**
   * A claim of a view key another item held, left to the end of the set ({@link
   * ViewMaintainer.Context#defer}).
   */
  record Claim(ViewMaintainer.DeferredClaim claim, int operation) {}

  final ReadView store;

  /** The version everything this attempt writes takes. */
  final long version;

  /** What the attempt's operations put in change feeds, in operation order; null: nothing. */
  private List<ChangeFeed.Recorded> recorded;

  private Draft(ReadView store, long version) {
    this.store = store;
    this.version = version;
  }

  /** Adds what the current operation puts in its table's change feed. */
  void record(ChangeFeed.Recorded change) {
    if (recorded == null) {
      recorded = new ArrayList<>(2);
    }
    recorded.add(change);
  }

  List<ChangeFeed.Recorded> recorded() {
    return recorded == null ? List.of() : recorded;
  }

  /**
   * What goes to the store: {@link #mutations()}, then the change-feed appends, so that a
   * mutation's index means the same in both.
   */
  List<Mutation> batch() {
    List<Mutation> mutations = mutations();
    if (recorded == null) {
      return mutations;
    }
    List<Mutation> batch = new ArrayList<>(mutations.size() + recorded.size());
    batch.addAll(mutations);
    batch.addAll(ChangeFeed.appends(recorded, version));
    return batch;
  }

  /**
   * The draft of attempt {@code attempt} at {@code operations} operations, writing at {@code
   * version}. A write alone guesses its view entries on its first attempt (see {@link
   * ViewMaintainer.Context#optimistic}); a batch of several reads them, because its deferred claims
   * need their owners.
   */
  static Draft of(ReadView store, int operations, int attempt, long version) {
    return operations == 1
        ? new Alone(store, attempt == 0, version)
        : new Several(store, operations, version);
  }

  /** Whether the set is one operation, which no other can see or change. */
  abstract boolean isAlone();

  /** From now on, mutations and the result are operation {@code operation}'s. */
  abstract void begin(int operation);

  /** Adds a mutation whose condition is the current operation's rule. */
  abstract void addRule(Mutation m);

  /** The current operation's result: the stored item, or null (a delete, a check). */
  abstract void result(Item stored);

  abstract Item result(int operation);

  abstract List<Item> results();

  /** The mutations to commit, one per key. */
  abstract List<Mutation> mutations();

  /** Whether the mutation at {@code index} of {@link #mutations()} is a rule. */
  abstract boolean isRule(int index);

  /** The operation whose mutation is at {@code index} of {@link #mutations()}. */
  abstract int operationOf(int index);

  /** The claims left to the end, in order. */
  abstract List<Claim> claims();

  @Override
  public Cursor scan(byte[] partition, KeyRange range, boolean reverse) {
    throw new UnsupportedOperationException("a write reads single keys");
  }

  @Override
  public Cursor scanAll(byte[] partitionPrefix, byte[] afterPartition, byte[] afterKey) {
    throw new UnsupportedOperationException("a write reads single keys");
  }

  @Override
  public PartitionCursor partitions(byte[] prefix, byte[] afterPartition) {
    throw new UnsupportedOperationException("a write reads single keys");
  }

  /** A write alone: reads go to the store, mutations to a list (most often of one). */
  private static final class Alone extends Draft {
    private final boolean optimistic;
    private Mutation first;

    /** Every mutation, once there is more than one. */
    private List<Mutation> all;

    private int ruleIndex = -1;
    private Item result;

    Alone(ReadView store, boolean optimistic, long version) {
      super(store, version);
      this.optimistic = optimistic;
    }

    @Override
    boolean isAlone() {
      return true;
    }

    @Override
    void begin(int operation) {
      // always operation 0
    }

    @Override
    public Optional<Versioned> get(byte[] partition, byte[] key) {
      return store.get(partition, key);
    }

    @Override
    public boolean optimistic() {
      return optimistic;
    }

    @Override
    public void add(Mutation m) {
      if (first == null) {
        first = m;
      } else {
        if (all == null) {
          all = new ArrayList<>(4);
          all.add(first);
        }
        all.add(m);
      }
    }

    @Override
    void addRule(Mutation m) {
      ruleIndex = all != null ? all.size() : first != null ? 1 : 0;
      add(m);
    }

    @Override
    public boolean defer(ViewMaintainer.DeferredClaim claim) {
      return false;
    }

    @Override
    void result(Item stored) {
      result = stored;
    }

    @Override
    Item result(int operation) {
      return result;
    }

    @Override
    List<Item> results() {
      return Arrays.asList(result);
    }

    @Override
    List<Mutation> mutations() {
      return all != null ? all : List.of(first);
    }

    @Override
    boolean isRule(int index) {
      return index == ruleIndex;
    }

    @Override
    int operationOf(int index) {
      return 0;
    }

    @Override
    List<Claim> claims() {
      return List.of();
    }
  }

  /**
   * Several operations: the store with the earlier operations' effects on top, one slot per key.
   */
  private static final class Several extends Draft {
    /** All that the set does to one key. */
    private static final class Slot {
      final byte[] partition;
      final byte[] key;
      final Condition condition;
      final int operation;
      final boolean rule;
      Mutation effect;

      /** The key's state after the set so far; null while unknown (only checked, never written). */
      Optional<Versioned> after;

      Slot(Mutation first, int operation, boolean rule) {
        this.partition = first.partition();
        this.key = first.key();
        this.condition = first.condition();
        this.operation = operation;
        this.rule = rule;
      }
    }

    private final Map<ByteBuffer, Slot> slots = new LinkedHashMap<>();
    private final Item[] results;
    private final List<Claim> claims = new ArrayList<>();
    private int operation;
    private List<Slot> committed;

    Several(ReadView store, int operations, long version) {
      super(store, version);
      this.results = new Item[operations];
    }

    @Override
    boolean isAlone() {
      return false;
    }

    @Override
    void begin(int operation) {
      this.operation = operation;
    }

    @Override
    public Optional<Versioned> get(byte[] partition, byte[] key) {
      Slot slot = slots.get(ByteBuffer.wrap(OrderedKeyCodec.encode(partition, key)));
      return slot != null && slot.after != null ? slot.after : store.get(partition, key);
    }

    @Override
    public boolean optimistic() {
      return false;
    }

    @Override
    public void add(Mutation m) {
      add(m, false);
    }

    @Override
    void addRule(Mutation m) {
      add(m, true);
    }

    private void add(Mutation m, boolean rule) {
      ByteBuffer k = ByteBuffer.wrap(OrderedKeyCodec.encode(m.partition(), m.key()));
      Slot slot = slots.get(k);
      if (slot == null) {
        slot = new Slot(m, operation, rule);
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

    @Override
    public boolean defer(ViewMaintainer.DeferredClaim claim) {
      claims.add(new Claim(claim, operation));
      return true;
    }

    @Override
    void result(Item stored) {
      results[operation] = stored;
    }

    @Override
    Item result(int operation) {
      return results[operation];
    }

    @Override
    List<Item> results() {
      return Arrays.asList(results);
    }

    @Override
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

    @Override
    boolean isRule(int index) {
      return committed.get(index).rule;
    }

    @Override
    int operationOf(int index) {
      return committed.get(index).operation;
    }

    @Override
    List<Claim> claims() {
      return claims;
    }
  }
}
