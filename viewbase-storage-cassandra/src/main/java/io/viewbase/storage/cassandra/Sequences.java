package io.viewbase.storage.cassandra;

import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.OrderedKeyCodec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The sequences one store appends to ({@link Mutation.Append}): the last number it knows of each,
 * and a lock per sequence that lets one commit at a time of this store append to it.
 *
 * <p>The number itself is decided by Cassandra, not here: a sequence's own row (partition, key)
 * holds its last number, and a commit moves it from the number it expects to the next one with a
 * lightweight transaction ({@code IF value = <expected> AND claim = null}), in {@link
 * PartitionCommit}, or claims the row on that condition, in {@link ClaimedCommit}. Of the servers
 * that expect the same number, one wins; the others learn the new number from the failed
 * transaction and try again. What this class adds is economy: the lock keeps the threads of one
 * server from fighting each other in Paxos rounds on a hot sequence (only servers compete), and the
 * known number saves a read before every commit. A wrong known number (another server appended, the
 * row was deleted) costs one failed round, never a wrong number.
 */
final class Sequences {
  private static final long UNKNOWN = -1;

  private final Map<ByteBuffer, Sequence> sequences = new ConcurrentHashMap<>();

  /** One sequence of this store: its lock, and its last number as this store last saw it. */
  static final class Sequence {
    private final ReentrantLock lock = new ReentrantLock();
    private long last = UNKNOWN; // guarded by lock
  }

  /** The appends of one batch to one sequence, in batch order, and the numbers they take. */
  static final class Appends {
    private final ByteBuffer id;
    private final Sequence sequence;
    final byte[] partition;
    final byte[] key;

    /** The batch index of the first append: where the sequence's claim is taken. */
    final int firstIndex;

    final List<Mutation.Append> appends = new ArrayList<>();

    /** The number the sequence must have for this commit to go on; set while the lock is held. */
    long expected;

    private Appends(ByteBuffer id, Sequence sequence, Mutation.Append first, int index) {
      this.id = id;
      this.sequence = sequence;
      this.partition = first.partition();
      this.key = first.key();
      this.firstIndex = index;
    }

    /** The sequence's last number once this batch is applied. */
    long last() {
      return expected + appends.size();
    }

    /** The version the sequence's own entry takes: that of the batch's last append to it. */
    long version() {
      return appends.get(appends.size() - 1).version();
    }

    /** What this store last saw as the sequence's number, or a negative value if nothing. */
    long known() {
      return sequence.last;
    }

    /** Records that the sequence now holds {@code last}. */
    void learn(long last) {
      sequence.last = last;
    }

    /** Forgets the number: the outcome of a commit is unknown. */
    void forget() {
      sequence.last = UNKNOWN;
    }
  }

  /** The batch's appends grouped by sequence, in the order each sequence first appears. */
  List<Appends> of(List<Mutation> batch) {
    Map<ByteBuffer, Appends> out = null;
    for (int i = 0; i < batch.size(); i++) {
      if (batch.get(i) instanceof Mutation.Append append) {
        if (out == null) {
          out = new LinkedHashMap<>();
        }
        ByteBuffer id = ByteBuffer.wrap(OrderedKeyCodec.encode(append.partition(), append.key()));
        int index = i;
        out.computeIfAbsent(
                id,
                k ->
                    new Appends(
                        k, sequences.computeIfAbsent(k, x -> new Sequence()), append, index))
            .appends
            .add(append);
      }
    }
    return out == null ? List.of() : List.copyOf(out.values());
  }

  /**
   * Locks the sequences of a batch, in one global order (their encoded keys) so that two batches
   * appending to the same two sequences cannot wait for each other; close to unlock.
   */
  static Held hold(List<Appends> appends) {
    if (appends.isEmpty()) {
      return Held.NOTHING;
    }
    List<Appends> ordered = new ArrayList<>(appends);
    ordered.sort(Comparator.comparing(a -> a.id));
    List<ReentrantLock> locked = new ArrayList<>(ordered.size());
    for (Appends a : ordered) {
      a.sequence.lock.lock();
      locked.add(a.sequence.lock);
    }
    return new Held(locked);
  }

  /** The locks a commit holds. */
  static final class Held implements AutoCloseable {
    static final Held NOTHING = new Held(List.of());
    private final List<ReentrantLock> locks;

    private Held(List<ReentrantLock> locks) {
      this.locks = locks;
    }

    @Override
    public void close() {
      for (int i = locks.size() - 1; i >= 0; i--) {
        locks.get(i).unlock();
      }
    }
  }

  /** The 8-byte big-endian form of a sequence's last number, as its own entry stores it. */
  static ByteBuffer numberBytes(long n) {
    return ByteBuffer.wrap(Mutation.sequenceKey(new byte[0], n));
  }

  /** The last number a sequence row found by a lightweight transaction records (0 if none). */
  static long lastNumber(Found found) {
    return found.value() == null ? 0 : Mutation.sequenceNumber(PartitionBytes.array(found.value()));
  }
}
