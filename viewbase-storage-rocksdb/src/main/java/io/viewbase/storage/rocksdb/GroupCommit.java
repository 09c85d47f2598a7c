package io.viewbase.storage.rocksdb;

import io.viewbase.storage.spi.Bytes;
import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.OrderedKeyCodec;
import io.viewbase.storage.spi.StorageException;
import io.viewbase.storage.spi.StoreMeters;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Conditional commits, grouped: concurrent batches share one RocksDB write and so one log sync.
 *
 * <p>Leader/follower without a thread of its own (LevelDB's writer queue): a committing thread
 * queues its batch; if no group is being led it leads, else it parks until the leader either
 * decides its outcome or hands it the lead for the next group. The leader takes the queued batches
 * as a group, checks each batch's conditions in queue order against the database plus what the
 * earlier batches of the group will write, writes every batch that passed as one {@link
 * WriteBatch}, and wakes the others with their outcome. While it writes (and syncs), new batches
 * queue up behind it and the next leader takes them all. An uncontended commit is led by its own
 * thread: no hand-off.
 *
 * <p>{@link #commitAsync} queues a batch without a thread waiting for it: if no group is being led,
 * the store's committer thread (started on first use) leads, and it keeps leading while batches are
 * queued; a blocking leader that reaches its round limit with an asynchronous batch at the head of
 * the queue hands the lead to the committer. Whoever writes a group completes its asynchronous
 * members' futures, after the write and the cache invalidation, so their dependent actions run on
 * that thread: they must not block (in particular not commit and wait).
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
 * atomic and isolated across partitions. After the write, and before waking anyone, the leader
 * removes every key written from the readers' {@link ValueCache}.
 */
final class GroupCommit implements AutoCloseable {
  /** Bounds one group, so that a burst does not build one huge write. */
  private static final int MAX_GROUP_BATCHES = 1024;

  private static final long MAX_GROUP_BYTES = 32L << 20;
  private static final long RETAINED_BATCH_BYTES = 4L << 20;

  /** Groups one leader runs before it hands over, bounding how long its own caller waits. */
  private static final int MAX_ROUNDS = 8;

  /** Keys whose version the leader remembers (about 100 bytes each). */
  private static final int VERSION_CACHE_ENTRIES = 200_000;

  private final RocksDB db;

  /** The data directory, named by a failure that concerns it (a full disk). */
  private final Path directory;

  /** Refuses a group before RocksDB sees it while the disk is nearly full; leader-only. */
  private final SpaceReserve spaceReserve;

  /** The readers' cache, told of every key written before the write is acknowledged; or null. */
  private final ValueCache valueCache;

  private final WriteOptions writeOptions;
  private final ReadOptions readOptions;
  private final ReentrantLock queueLock = new ReentrantLock();
  private final ArrayDeque<Pending> queue = new ArrayDeque<>();

  /** Versions of recent keys, so that checking a condition rarely reads RocksDB; leader-only. */
  private final VersionCache versions = new VersionCache(VERSION_CACHE_ENTRIES);

  /**
   * The last number of each sequence appended to ({@link Mutation.Append}), by its encoded key:
   * read once from RocksDB, then kept; leader-only, and forgotten when a write fails.
   */
  private final Map<ByteBuffer, long[]> sequences = new HashMap<>();

  /** Whether a thread is leading (or about to lead) a group; guarded by queueLock. */
  private boolean leaderActive;

  // Leader-only state: one leader at a time, and each hands over under queueLock.
  private WriteBatch writeBatch = new WriteBatch();
  private final byte[] versionBuffer = new byte[StoredValue.VERSION_BYTES];
  private final AtomicLong commits = new AtomicLong();
  private final AtomicLong writeGroups = new AtomicLong();

  /** Leads groups for asynchronous batches; null until the first one. Guarded by queueLock. */
  private Thread committer;

  /** Set (under queueLock) when the lead is handed to the committer; it clears it. */
  private volatile boolean committerLeads;

  /** Set under queueLock by {@link #close()}; queued batches then fail and no group starts. */
  private boolean closed;

  /** Batches per RocksDB write, and that write's time (its log sync): set once by bindMeters. */
  private volatile StoreMeters.Recorder groupBatches = StoreMeters.Recorder.NONE;

  private volatile StoreMeters.Recorder writeSeconds = StoreMeters.Recorder.NONE;

  GroupCommit(
      RocksDB db, Path directory, boolean sync, ValueCache valueCache, long reservedDiskBytes) {
    this.db = db;
    this.directory = directory;
    this.spaceReserve = new SpaceReserve(directory, reservedDiskBytes);
    this.valueCache = valueCache;
    this.writeOptions = new WriteOptions().setSync(sync);
    this.readOptions = new ReadOptions();
  }

  /**
   * Reports each group's size in batches and its write's time: the write is the log sync when
   * commits are synced, which is what a durable write waits for. Buckets: powers of two up to the
   * group bound; write times from 50 µs (an unsynced write) to 250 ms (a stalled disk).
   */
  void bindMeters(StoreMeters meters) {
    groupBatches =
        meters.distribution(
            "viewbase.rocksdb.group.commit.batches",
            "Batches written together in one RocksDB write (one log sync)",
            null,
            new double[] {1, 2, 4, 8, 16, 64, 256, MAX_GROUP_BATCHES});
    writeSeconds =
        meters.distribution(
            "viewbase.rocksdb.group.commit.write",
            "Time of one group's RocksDB write, its log sync included when commits are synced",
            "seconds",
            new double[] {0.00005, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.02, 0.25});
    meters.counter(
        "viewbase.rocksdb.commits", "Batches committed since the store opened", commits::get);
  }

  /** Batches written so far. */
  long commits() {
    return commits.get();
  }

  /** RocksDB writes (and, when synced, log syncs) so far; at most {@link #commits()}. */
  long writeGroups() {
    return writeGroups.get();
  }

  /**
   * Commits an already validated batch; returns once it is written (and synced if so configured).
   */
  void commit(List<Mutation> batch) throws ConditionFailedException {
    if (Thread.currentThread() == committer) {
      // (read without the lock: only the committer itself can see its own thread here)
      throw new IllegalStateException(
          "A blocking commit from an action chained to an asynchronous commit runs "
              + "on the store's committer thread and would wait for itself; chain it with an executor "
              + "(thenApplyAsync(..., executor)) or use commitAsync");
    }
    Pending pending = new Pending(batch, Thread.currentThread(), null);
    boolean lead;
    queueLock.lock();
    try {
      if (closed) {
        throw closedFailure();
      }
      queue.addLast(pending);
      lead = !leaderActive;
      leaderActive = true;
    } finally {
      queueLock.unlock();
    }
    if (!lead) {
      // Wait on our own flag, not on the lock: the leader wakes each follower directly, so
      // followers do not convoy through the lock one after another.
      int state;
      while ((state = pending.state) == Pending.WAITING) {
        LockSupport.park(this);
      }
      if (state == Pending.DONE) {
        pending.wakeChildren();
        pending.report();
        return;
      }
    }
    lead(pending);
    pending.report();
  }

  /**
   * Queues an already validated batch and returns at once. The future completes, on the thread that
   * writes the batch's group, when {@link #commit} would have returned, or exceptionally with what
   * it would have thrown.
   */
  CompletableFuture<Void> commitAsync(List<Mutation> batch) {
    Pending pending = new Pending(batch, null, new CompletableFuture<>());
    queueLock.lock();
    try {
      if (closed) {
        return CompletableFuture.failedFuture(closedFailure());
      }
      queue.addLast(pending);
      if (!leaderActive) {
        leaderActive = true;
        handToCommitter();
      }
    } finally {
      queueLock.unlock();
    }
    return pending.future;
  }

  /** Makes the committer thread lead the next groups; the caller holds queueLock and the lead. */
  private void handToCommitter() {
    if (committer == null) {
      committer = new Thread(this::runCommitter, "viewbase-rocksdb-committer");
      committer.setDaemon(true);
      committer.start();
    }
    committerLeads = true;
    LockSupport.unpark(committer);
  }

  private void runCommitter() {
    while (true) {
      while (!committerLeads) {
        LockSupport.park(this);
      }
      committerLeads = false;
      if (!lead(null)) {
        return;
      }
    }
  }

  private StorageException closedFailure() {
    return new StorageException("the store is closed", null, StorageException.Kind.CLOSED);
  }

  /**
   * Runs the group headed by {@code self}, then, while batches are queued, the groups after it (up
   * to {@link #MAX_ROUNDS}), and finally hands leadership to the next queued batch. A leader that
   * keeps going is already on a CPU; handing off at every group would put each next leader behind
   * the followers it just woke, and the log would sit idle meanwhile. The committer thread ({@code
   * self} null) has no caller waiting and leads until the queue is empty.
   *
   * @return false if the store closed while leading (the committer then stops)
   */
  private boolean lead(Pending self) {
    for (int round = 0; ; round++) {
      List<Pending> group;
      queueLock.lock();
      try {
        if (closed) {
          leaderActive = false;
          return false;
        }
        group = takeGroup();
      } finally {
        queueLock.unlock();
      }
      writeGroup(group);
      wake(group, self);
      Pending next;
      queueLock.lock();
      try {
        next = queue.peekFirst();
        if (next == null || closed) {
          leaderActive = false;
          return !closed;
        }
        if (self == null || round + 1 < MAX_ROUNDS) {
          continue;
        }
        if (next.thread == null) {
          handToCommitter();
          return true;
        }
      } finally {
        queueLock.unlock();
      }
      next.state = Pending.LEAD;
      LockSupport.unpark(next.thread);
      return true;
    }
  }

  /**
   * Tells every member but {@code self} its outcome. Blocked members are woken as a binary tree:
   * the leader unparks the root, and each woken member unparks its two children; the leader makes
   * one wake-up call instead of one per member, and is free sooner to lead the next group.
   * Asynchronous members' futures complete after that, on this thread.
   */
  private static void wake(List<Pending> group, Pending self) {
    List<Pending> members = new ArrayList<>(group.size());
    List<Pending> asynchronous = null;
    for (Pending member : group) {
      if (member.future != null) {
        if (asynchronous == null) {
          asynchronous = new ArrayList<>();
        }
        asynchronous.add(member);
      } else if (member != self) {
        members.add(member);
      }
    }
    for (int i = 0; i < members.size(); i++) {
      Pending member = members.get(i);
      member.left = 2 * i + 1 < members.size() ? members.get(2 * i + 1) : null;
      member.right = 2 * i + 2 < members.size() ? members.get(2 * i + 2) : null;
    }
    for (Pending member : members) {
      member.state = Pending.DONE;
    }
    if (!members.isEmpty()) {
      LockSupport.unpark(members.get(0).thread);
    }
    if (asynchronous != null) {
      for (Pending member : asynchronous) {
        member.complete();
      }
    }
  }

  /** Removes the next group from the head of the queue (the leader's own batch is the head). */
  private List<Pending> takeGroup() {
    List<Pending> group = new ArrayList<>(Math.min(queue.size(), MAX_GROUP_BATCHES));
    long bytes = 0;
    while (!queue.isEmpty()) {
      Pending pending = queue.peekFirst();
      if (!group.isEmpty()
          && (group.size() == MAX_GROUP_BATCHES || bytes + pending.bytes > MAX_GROUP_BYTES)) {
        break;
      }
      group.add(queue.pollFirst());
      bytes += pending.bytes;
    }
    return group;
  }

  /** Decides the outcome of every batch of the group; never throws. */
  private void writeGroup(List<Pending> group) {
    List<Pending> written = new ArrayList<>(group.size());
    try {
      spaceReserve.check(groupBytes(group));
      writeBatch.clear();
      // what earlier batches of this group write: encoded key -> version, or null once deleted;
      // only a later batch's condition asks, so a group of blind writes keeps none
      Map<ByteBuffer, Long> overlay = conditionAfterFirst(group) ? new HashMap<>() : null;
      for (Pending pending : group) {
        pending.conditionFailure = checkConditions(pending, overlay);
        if (pending.conditionFailure == null) {
          addToWriteBatch(pending, overlay);
          written.add(pending);
        }
      }
      if (!written.isEmpty()) {
        long start = System.nanoTime();
        try {
          db.write(writeOptions, writeBatch);
        } catch (RocksDBException | RuntimeException e) {
          versions.clear(); // nothing is known of the keys this write touched: forget everything
          sequences.clear();
          throw e;
        } finally {
          // after the write (even a failed one, which may have been applied) and before any
          // member of the group is told its outcome: see ValueCache for why this order is exact
          invalidate(written);
        }
        writeSeconds.record((System.nanoTime() - start) / 1e9);
        groupBatches.record(written.size());
        writeGroups.incrementAndGet();
        commits.addAndGet(written.size());
        for (Pending pending : written) {
          remember(pending);
        }
      }
    } catch (RocksDBException | RuntimeException | Error e) {
      StorageException failure = writeFailure(group.size(), e);
      for (Pending pending : group) {
        if (pending.conditionFailure == null) {
          pending.failure = failure;
        }
      }
    } finally {
      releaseIfLarge();
    }
  }

  /**
   * A failed group write as its members' failure.
   *
   * <pre>
   * RocksDB's status              | kind     | why
   * ------------------------------+----------+--------------------------------------------------
   * the reserve refused the group | NO_SPACE | free space below the reserve ({@link SpaceReserve})
   * IOError, subcode NoSpace      | NO_SPACE | ENOSPC on the log, a flush or a compaction: RocksDB
   *   (or its message says so)    |          |   stops writes until space is freed and it resumes
   * anything else                 | FAILED   | an I/O error, corruption, a bug
   * </pre>
   *
   * RocksDB answers every write after a background ENOSPC with that same status until it has
   * resumed, so a write refused for a flush's failure is told the same as one whose own log append
   * failed.
   */
  private StorageException writeFailure(int batches, Throwable e) {
    if (e instanceof StorageException refused && refused.kind() == StorageException.Kind.NO_SPACE) {
      return refused; // the reserve's refusal: RocksDB was not asked
    }
    if (isNoSpace(e)) {
      return new StorageException(
          "the file system of the data directory "
              + directory
              + " is full: writes are refused until space is freed (reads go on); RocksDB: "
              + e.getMessage(),
          e,
          StorageException.Kind.NO_SPACE);
    }
    return new StorageException(
        "RocksDB failed to write a group of " + batches + " batches: " + e.getMessage(), e);
  }

  /** Whether RocksDB failed for lack of space (ENOSPC), by its status or, lacking one, message. */
  static boolean isNoSpace(Throwable e) {
    if (e instanceof RocksDBException rocks && rocks.getStatus() != null) {
      Status status = rocks.getStatus();
      if (status.getSubCode() == Status.SubCode.NoSpace) {
        return true;
      }
    }
    return String.valueOf(e.getMessage()).contains("No space left on device");
  }

  private static long groupBytes(List<Pending> group) {
    long bytes = 0;
    for (Pending pending : group) {
      bytes += pending.bytes;
    }
    return bytes;
  }

  /** Removes every key the written batches put or deleted from the readers' cache. */
  private void invalidate(List<Pending> written) {
    if (valueCache == null) {
      return;
    }
    for (Pending pending : written) {
      List<Mutation> batch = pending.batch;
      for (int i = 0; i < batch.size(); i++) {
        if (!(batch.get(i) instanceof Mutation.Check)) {
          valueCache.invalidate(pending.keys[i]);
        }
      }
      if (pending.appended != null) {
        for (byte[] key : pending.appended) {
          valueCache.invalidate(key);
        }
      }
    }
  }

  /**
   * Whether a batch other than the group's first has a condition (which earlier batches may
   * decide).
   */
  private static boolean conditionAfterFirst(List<Pending> group) {
    for (int i = 1; i < group.size(); i++) {
      if (group.get(i).conditional) {
        return true;
      }
    }
    return false;
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
    Long cached = versions.get(key);
    if (cached != null) {
      return cached == VersionCache.ABSENT ? null : cached;
    }
    // only the version is needed: copy 8 bytes, not the whole value
    int size = db.get(readOptions, key, versionBuffer);
    if (size == RocksDB.NOT_FOUND) {
      versions.put(key, VersionCache.ABSENT);
      return null;
    }
    if (size < StoredValue.VERSION_BYTES) {
      throw new StorageException(
          "corrupt entry: the stored value of "
              + Bytes.toDisplay(key)
              + " is shorter than its version",
          null);
    }
    long version = StoredValue.version(versionBuffer);
    versions.put(key, version);
    return version;
  }

  /**
   * Records the versions a written batch left behind: every key it wrote that the cache holds is
   * updated (a stale version would be wrong), and keys written under a condition are added (they
   * are the ones conditions will ask about again).
   */
  private void remember(Pending pending) {
    List<Mutation> batch = pending.batch;
    for (int i = 0; i < batch.size(); i++) {
      Mutation m = batch.get(i);
      long version;
      if (m instanceof Mutation.Put put) {
        version = put.version();
      } else if (m instanceof Mutation.Append append) {
        version = append.version();
      } else if (m instanceof Mutation.Delete) {
        version = VersionCache.ABSENT;
      } else {
        continue;
      }
      if (m.condition().kind() != Condition.Kind.NONE) {
        versions.put(pending.keys[i], version);
      } else {
        versions.updateIfPresent(pending.keys[i], version);
      }
    }
  }

  private void addToWriteBatch(Pending pending, Map<ByteBuffer, Long> overlay)
      throws RocksDBException {
    List<Mutation> batch = pending.batch;
    for (int i = 0; i < batch.size(); i++) {
      Mutation m = batch.get(i);
      if (m instanceof Mutation.Put put) {
        writeBatch.put(pending.keys[i], pending.stored[i]);
        if (overlay != null) {
          overlay.put(ByteBuffer.wrap(pending.keys[i]), put.version());
        }
      } else if (m instanceof Mutation.Append append) {
        append(pending, i, append);
        if (overlay != null) {
          overlay.put(ByteBuffer.wrap(pending.keys[i]), append.version());
        }
      } else if (m instanceof Mutation.Delete) {
        writeBatch.delete(pending.keys[i]);
        if (overlay != null) {
          overlay.put(ByteBuffer.wrap(pending.keys[i]), null);
        }
      }
    }
  }

  /**
   * Writes an append under its sequence's next number, and that number as the sequence's last: the
   * leader alone numbers, in the order it writes, so numbers are dense and in commit order.
   */
  private void append(Pending pending, int index, Mutation.Append append) throws RocksDBException {
    byte[] sequenceKey = pending.keys[index];
    long[] last = sequences.get(ByteBuffer.wrap(sequenceKey));
    if (last == null) {
      byte[] stored = db.get(readOptions, sequenceKey);
      last = new long[] {stored == null ? 0 : Mutation.sequenceNumber(StoredValue.value(stored))};
      sequences.put(ByteBuffer.wrap(sequenceKey), last);
    }
    long n = ++last[0];
    byte[] entryKey =
        OrderedKeyCodec.encode(append.partition(), Mutation.sequenceKey(append.key(), n));
    writeBatch.put(entryKey, StoredValue.encode(append.version(), append.value()));
    writeBatch.put(
        sequenceKey, StoredValue.encode(append.version(), Mutation.sequenceKey(new byte[0], n)));
    if (pending.appended == null) {
      pending.appended = new ArrayList<>();
    }
    pending.appended.add(entryKey);
  }

  /**
   * Fails the queued asynchronous batches, stops the committer once its group is written, and frees
   * the native objects. The store calls it when no blocking commit is running.
   */
  @Override
  public void close() {
    Thread stopping;
    List<Pending> abandoned;
    queueLock.lock();
    try {
      closed = true;
      abandoned = new ArrayList<>(queue);
      queue.clear();
      stopping = committer;
    } finally {
      queueLock.unlock();
    }
    StorageException failure = closedFailure();
    for (Pending pending : abandoned) {
      pending.failure = failure;
      if (pending.future != null) {
        pending.complete();
      } else {
        pending.state = Pending.DONE; // (none should be queued: the store closes once they return)
        LockSupport.unpark(pending.thread);
      }
    }
    if (stopping != null && stopping != Thread.currentThread()) {
      committerLeads = true;
      LockSupport.unpark(stopping);
      boolean interrupted = false;
      while (stopping.isAlive()) {
        try {
          stopping.join();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    writeBatch.close();
    readOptions.close();
    writeOptions.close();
  }

  /**
   * A batch waiting for its group, encoded by its own thread so the leader only checks and writes.
   */
  private static final class Pending {
    final List<Mutation> batch;
    final byte[][] keys;

    /** The RocksDB value of each put; null for deletes and checks. */
    final byte[][] stored;

    final long bytes;

    /** Whether any mutation has a condition other than NONE. */
    final boolean conditional;

    static final int WAITING = 0;
    static final int DONE = 1;
    static final int LEAD = 2;

    /** The committing thread, or null for an asynchronous batch. */
    final Thread thread;

    /** Completed with the outcome of an asynchronous batch; null for a blocking one. */
    final CompletableFuture<Void> future;

    /**
     * WAITING until the leader sets DONE (outcome decided) or LEAD (this batch leads the next
     * group).
     */
    volatile int state = WAITING;

    // Written by the leader before it sets state, read by the owner after it sees the state.
    ConditionFailedException conditionFailure;

    /** The encoded keys of the entries this batch's appends wrote; leader-only. */
    List<byte[]> appended;

    StorageException failure;

    /** Members of the same group this one wakes once it is woken (see {@link GroupCommit#wake}). */
    Pending left;

    Pending right;

    void wakeChildren() {
      if (left != null) {
        LockSupport.unpark(left.thread);
      }
      if (right != null) {
        LockSupport.unpark(right.thread);
      }
    }

    Pending(List<Mutation> batch, Thread thread, CompletableFuture<Void> future) {
      this.batch = batch;
      this.thread = thread;
      this.future = future;
      keys = new byte[batch.size()][];
      stored = new byte[batch.size()][];
      long size = 0;
      boolean anyCondition = false;
      for (int i = 0; i < keys.length; i++) {
        Mutation m = batch.get(i);
        anyCondition |= m.condition().kind() != Condition.Kind.NONE;
        keys[i] = OrderedKeyCodec.encode(m.partition(), m.key());
        if (m instanceof Mutation.Put put) {
          stored[i] = StoredValue.encode(put.version(), put.value());
          size += stored[i].length;
        } else if (m instanceof Mutation.Append append) {
          size += append.value().length + 2L * (StoredValue.VERSION_BYTES + Long.BYTES);
        }
        size += keys[i].length;
      }
      bytes = size;
      conditional = anyCondition;
    }

    /** Completes an asynchronous batch's future with the outcome the leader decided. */
    void complete() {
      if (conditionFailure != null) {
        future.completeExceptionally(conditionFailure);
      } else if (failure != null) {
        future.completeExceptionally(failure);
      } else {
        future.complete(null);
      }
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
