package io.viewbase.storage.rocksdb;

import io.viewbase.storage.spi.Bytes;
import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.OrderedKeyCodec;
import io.viewbase.storage.spi.StorageException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Conditional commits, grouped: concurrent batches share one RocksDB write and so one log sync.
 *
 * <p>Leader/follower without a thread of its own (LevelDB's writer queue): a committing thread
 * queues its batch; the thread at the head of the queue is the leader. The leader takes the
 * queued batches as a group, checks each batch's conditions in queue order against the database
 * plus what the earlier batches of the group will write, writes every batch that passed as one
 * {@link WriteBatch}, and wakes the others with their outcome. While it writes (and syncs), new
 * batches queue up behind it and the next leader takes them all. An uncontended commit is led by
 * its own thread: no hand-off.
 *
 * <table>
 *   <caption>outcome of a batch in a group</caption>
 *   <tr><th>its conditions</th><th>the group's write</th><th>its caller gets</th></tr>
 *   <tr><td>hold</td><td>succeeds</td><td>return (durable if synced)</td></tr>
 *   <tr><td>one fails</td><td>any</td><td>{@link ConditionFailedException}; the others go on</td></tr>
 *   <tr><td>hold</td><td>fails</td><td>{@link StorageException}, as does every batch of the group</td></tr>
 * </table>
 *
 * <p>Only one leader runs at a time, so condition checks and writes are serialized: batches are
 * atomic and isolated across partitions.
 */
final class GroupCommit implements AutoCloseable {
  /** Bounds one group, so that a burst does not build one huge write. */
  private static final int MAX_GROUP_BATCHES = 1024;
  private static final long MAX_GROUP_BYTES = 32L << 20;
  private static final long RETAINED_BATCH_BYTES = 4L << 20;

  private final RocksDB db;
  private final WriteOptions writeOptions;
  private final ReadOptions readOptions;
  private final ReentrantLock queueLock = new ReentrantLock();
  private final ArrayDeque<Pending> queue = new ArrayDeque<>();
  // Leader-only state: one leader at a time, and each hands over under queueLock.
  private WriteBatch writeBatch = new WriteBatch();
  private final byte[] versionBuffer = new byte[StoredValue.VERSION_BYTES];
  private final AtomicLong commits = new AtomicLong();
  private final AtomicLong writeGroups = new AtomicLong();

  GroupCommit(RocksDB db, boolean sync) {
    this.db = db;
    this.writeOptions = new WriteOptions().setSync(sync);
    this.readOptions = new ReadOptions();
  }

  /** Batches written so far. */
  long commits() {
    return commits.get();
  }

  /** RocksDB writes (and, when synced, log syncs) so far; at most {@link #commits()}. */
  long writeGroups() {
    return writeGroups.get();
  }

  /** Commits an already validated batch; returns once it is written (and synced if so configured). */
  void commit(List<Mutation> batch) throws ConditionFailedException {
    Pending pending = new Pending(batch, queueLock.newCondition());
    queueLock.lock();
    try {
      queue.addLast(pending);
      while (!pending.done && queue.peekFirst() != pending) {
        pending.wakeUp.awaitUninterruptibly();
      }
      if (!pending.done) {
        lead(pending);
      }
    } finally {
      queueLock.unlock();
    }
    pending.report();
  }

  /** Called with queueLock held by the batch at the head of the queue; returns with it held. */
  private void lead(Pending self) {
    List<Pending> group = takeGroup();
    queueLock.unlock();
    try {
      writeGroup(group);
    } finally {
      queueLock.lock();
    }
    for (int i = 0; i < group.size(); i++) {
      Pending member = queue.pollFirst();
      member.done = true;
      if (member != self) {
        member.wakeUp.signal();
      }
    }
    Pending nextLeader = queue.peekFirst();
    if (nextLeader != null) {
      nextLeader.wakeUp.signal();
    }
  }

  private List<Pending> takeGroup() {
    List<Pending> group = new ArrayList<>(Math.min(queue.size(), MAX_GROUP_BATCHES));
    long bytes = 0;
    for (Pending pending : queue) {
      if (!group.isEmpty() && (group.size() == MAX_GROUP_BATCHES || bytes + pending.bytes > MAX_GROUP_BYTES)) {
        break;
      }
      group.add(pending);
      bytes += pending.bytes;
    }
    return group;
  }

  /** Decides the outcome of every batch of the group; never throws. */
  private void writeGroup(List<Pending> group) {
    List<Pending> written = new ArrayList<>(group.size());
    try {
      writeBatch.clear();
      // what earlier batches of this group write: encoded key -> version, or null once deleted
      Map<ByteBuffer, Long> overlay = group.size() > 1 ? new HashMap<>() : null;
      for (Pending pending : group) {
        pending.conditionFailure = checkConditions(pending, overlay);
        if (pending.conditionFailure == null) {
          addToWriteBatch(pending, overlay);
          written.add(pending);
        }
      }
      if (!written.isEmpty()) {
        db.write(writeOptions, writeBatch);
        writeGroups.incrementAndGet();
        commits.addAndGet(written.size());
      }
    } catch (RocksDBException | RuntimeException | Error e) {
      StorageException failure = new StorageException("RocksDB failed to write a group of " + group.size()
          + " batches: " + e.getMessage(), e);
      for (Pending pending : group) {
        if (pending.conditionFailure == null) {
          pending.failure = failure;
        }
      }
    } finally {
      releaseIfLarge();
    }
  }

  /** A cleared WriteBatch keeps its buffer; after a big group, start over with a small one. */
  private void releaseIfLarge() {
    if (writeBatch.getDataSize() > RETAINED_BATCH_BYTES) {
      writeBatch.close();
      writeBatch = new WriteBatch();
    }
  }

  private ConditionFailedException checkConditions(Pending pending, Map<ByteBuffer, Long> overlay)
      throws RocksDBException {
    List<Mutation> batch = pending.batch;
    for (int i = 0; i < batch.size(); i++) {
      Condition condition = batch.get(i).condition();
      if (condition.kind() == Condition.Kind.NONE) {
        continue;
      }
      Long current = currentVersion(pending.keys[i], overlay);
      if (!condition.isMetBy(current)) {
        return new ConditionFailedException(i, condition, current);
      }
    }
    return null;
  }

  private Long currentVersion(byte[] key, Map<ByteBuffer, Long> overlay) throws RocksDBException {
    if (overlay != null) {
      ByteBuffer wrapped = ByteBuffer.wrap(key);
      if (overlay.containsKey(wrapped)) {
        return overlay.get(wrapped);
      }
    }
    // only the version is needed: copy 8 bytes, not the whole value
    int size = db.get(readOptions, key, versionBuffer);
    if (size == RocksDB.NOT_FOUND) {
      return null;
    }
    if (size < StoredValue.VERSION_BYTES) {
      throw new StorageException("corrupt entry: the stored value of " + Bytes.toDisplay(key) + " is shorter than its version", null);
    }
    return StoredValue.version(versionBuffer);
  }

  private void addToWriteBatch(Pending pending, Map<ByteBuffer, Long> overlay) throws RocksDBException {
    List<Mutation> batch = pending.batch;
    for (int i = 0; i < batch.size(); i++) {
      Mutation m = batch.get(i);
      if (m instanceof Mutation.Put put) {
        writeBatch.put(pending.keys[i], pending.stored[i]);
        if (overlay != null) {
          overlay.put(ByteBuffer.wrap(pending.keys[i]), put.version());
        }
      } else if (m instanceof Mutation.Delete) {
        writeBatch.delete(pending.keys[i]);
        if (overlay != null) {
          overlay.put(ByteBuffer.wrap(pending.keys[i]), null);
        }
      }
    }
  }

  @Override
  public void close() {
    writeBatch.close();
    readOptions.close();
    writeOptions.close();
  }

  /** A batch waiting for its group, encoded by its own thread so the leader only checks and writes. */
  private static final class Pending {
    final List<Mutation> batch;
    final byte[][] keys;
    /** The RocksDB value of each put; null for deletes and checks. */
    final byte[][] stored;
    final long bytes;
    final java.util.concurrent.locks.Condition wakeUp;
    // Written by the leader before done is set under queueLock, read by the owner after.
    boolean done;
    ConditionFailedException conditionFailure;
    StorageException failure;

    Pending(List<Mutation> batch, java.util.concurrent.locks.Condition wakeUp) {
      this.batch = batch;
      this.wakeUp = wakeUp;
      keys = new byte[batch.size()][];
      stored = new byte[batch.size()][];
      long size = 0;
      for (int i = 0; i < keys.length; i++) {
        Mutation m = batch.get(i);
        keys[i] = OrderedKeyCodec.encode(m.partition(), m.key());
        if (m instanceof Mutation.Put put) {
          stored[i] = StoredValue.encode(put.version(), put.value());
          size += stored[i].length;
        }
        size += keys[i].length;
      }
      bytes = size;
    }

    void report() throws ConditionFailedException {
      if (conditionFailure != null) {
        throw conditionFailure;
      }
      if (failure != null) {
        throw failure;
      }
    }
  }
}
