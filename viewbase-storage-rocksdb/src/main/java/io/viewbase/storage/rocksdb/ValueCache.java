package io.viewbase.storage.rocksdb;

import io.viewbase.storage.spi.Derivation;
import io.viewbase.storage.spi.Versioned;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The store's recently read entries on the Java heap, so that a repeated point read is a hash
 * lookup instead of a call into RocksDB. Exact: it never answers with an entry older than the last
 * acknowledged write of its key. Keyed by the encoded RocksDB key; an entry is the version and
 * value {@code get} returned, or that the key was absent. Bounded by bytes, evicting by CLOCK
 * (second chance): entries queue in insertion order, a hit marks its entry, and the evicting thread
 * (whichever insert went over the bound) requeues a marked entry once and drops an unmarked one. A
 * hit is one lock-free {@link ConcurrentHashMap} lookup and at most one field write: no
 * access-order list to relink and no frequency sketch to update, which is what made Caffeine's hit
 * several times slower here (measured: about 3 us against 0.6 us on 100k random keys).
 *
 * <p>Why it is never stale. Each key maps to one of {@link #STRIPES} counters, which only grow.
 *
 * <ul>
 *   <li>A writer (the group commit leader, the only thread that writes RocksDB) writes RocksDB,
 *       then for every key it wrote increments the key's counter and then removes the key from the
 *       cache ({@link #invalidate}), and only then acknowledges the write.
 *   <li>A reader that misses reads the counter ({@link #stamp}), reads RocksDB, and inserts what it
 *       read ({@link #insert}) in one atomic step on the key's map bin ({@link
 *       ConcurrentHashMap#computeIfAbsent}, under the lock the removal takes) only if the counter
 *       still holds the stamp.
 * </ul>
 *
 * Take a write W of key k acknowledged at time A, and a read of k that starts after A. If it
 * misses, it reads RocksDB after W was written, so sees W or later. If it hits, the entry it finds
 * was inserted after W's removal of k (a removal deletes whatever was there, and insert and removal
 * of one key are atomic with respect to each other), so the inserting reader checked the counter
 * after W's increment; its stamp equalled that count, so the stamp was read after the increment,
 * hence after W was written, and its RocksDB read, later still, saw W or later. A write that fails
 * partway is handled alike (its keys are invalidated whether or not RocksDB applied it). Two keys
 * that share a counter only cost a refused insert now and then.
 *
 * <p>The cache keeps its own copy of each value and hands out copies: a caller may change the array
 * it gets without changing what the next reader sees. Reads at a snapshot do not use the cache (an
 * entry may be newer than the snapshot). Thread-safe.
 *
 * <p>Derived results. An entry may also hold one result of a {@link Derivation} (what {@link
 * #derive} computed from it: the native API's rendered item, say), which a later read by a
 * derivation with an equal key gets without deriving again; a read by another derivation replaces
 * it. It is exact for the reason the entry is (it lives and dies with the entry), and its weight
 * counts against the bound like the entry's own.
 *
 * <p>Memory. Each entry weighs its key, its value, its derived result and {@link #ENTRY_OVERHEAD}.
 * An invalidated entry leaves the map at once; what stays until the clock reaches its place is the
 * queue node and the {@link Slot}, which no longer points at the entry ({@link #DEAD_WEIGHT}), so
 * that the bound holds for what is really reachable.
 */
final class ValueCache {
  /** Counters: a power of two, enough that unrelated keys rarely share one (32 KiB). */
  private static final int STRIPES = 4096;

  /**
   * Heap bytes of a live entry besides its key's and value's contents (compressed references): map
   * node 32 and table slot 8, key and value array headers 16 each, entry 56 (it is its own map
   * key), slot 16, queue node 24.
   */
  static final int ENTRY_OVERHEAD = 168;

  /** Heap bytes of a derived result besides what its derivation weighs: the memo object. */
  static final int MEMO_OVERHEAD = 24;

  /**
   * What an invalidated entry still weighs until the clock reaches it: its queue node and its
   * emptied slot. Writes release the rest at once, so that entries a write path read and then wrote
   * (the keys a batch of inserts found absent) do not crowd out live ones; the residue keeps a long
   * run of such writes from growing the queue without bound.
   */
  static final int DEAD_WEIGHT = 40;

  private final long maxBytes;
  private final ConcurrentHashMap<Key, Entry> entries = new ConcurrentHashMap<>();

  /**
   * A slot for every inserted entry not yet evicted, oldest first; an invalidated entry's slot is
   * empty.
   */
  private final ConcurrentLinkedQueue<Slot> clock = new ConcurrentLinkedQueue<>();

  /**
   * Weight of the slots in {@link #clock}: what the cache keeps reachable (an entry's weight while
   * it is cached, {@link #DEAD_WEIGHT} once invalidated).
   */
  private final AtomicLong bytes = new AtomicLong();

  /** Slots in {@link #clock} (its own size() walks the whole queue). */
  private final AtomicLong queued = new AtomicLong();

  private final ReentrantLock evicting = new ReentrantLock();
  private final AtomicLongArray counters = new AtomicLongArray(STRIPES);

  ValueCache(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  /** What a lookup of an encoded key finds: the entry, or null when the cache does not know. */
  Entry get(Key key) {
    Entry entry = entries.get(key);
    if (entry != null && !entry.referenced) {
      entry.referenced = true; // a racy write is fine: the mark only steers eviction
    }
    return entry;
  }

  /** The key's counter, read before a reader reads RocksDB for an entry to {@link #insert}. */
  long stamp(Key key) {
    return counters.get(key.stripe());
  }

  /**
   * Caches what a reader read, unless the key was written since it took {@code stamp}; whether
   * {@code entry} is now the cache's (if not, its value is still the reader's alone).
   */
  boolean insert(Key key, long stamp, Entry entry) {
    int stripe = key.stripe();
    if (counters.get(stripe) != stamp) {
      return false; // written meanwhile: the entry may be stale (and the check below would fail
      // anyway)
    }
    long weight =
        ENTRY_OVERHEAD + key.bytes.length + (entry.value == null ? 0 : entry.value.length);
    if (weight > maxBytes) {
      return false;
    }
    entry.keyOf(key);
    entry.state = weight;
    entry.slot = new Slot(entry);
    entry.cached = true;
    // An entry already there is as fresh as ours (every entry is), so only an absent key is filled.
    // The entry is its own map key: a hit, having compared the key, has the entry in the CPU cache.
    Entry cached =
        entries.computeIfAbsent(entry, k -> counters.get(stripe) == stamp ? entry : null);
    if (cached != entry) {
      entry.state = -1; // never published: counts for nothing, and its value is still the reader's
      entry.cached = false;
      return false;
    }
    clock.add(entry.slot);
    queued.incrementAndGet();
    grow(weight);
    return true;
  }

  /**
   * What {@code derivation} derives from a cached entry (empty if the entry says the key is
   * absent): the result the entry holds if a derivation with an equal {@link Derivation#key() key}
   * made it, else a new one, which the entry then holds instead.
   */
  @SuppressWarnings("unchecked")
  <T> Optional<T> derive(Entry entry, Derivation<T> derivation) {
    if (entry.value == null) {
      return Optional.empty();
    }
    Memo memo = entry.memo;
    Object key = derivation.key();
    if (memo != null && memo.key.equals(key)) {
      return Optional.of((T) memo.result);
    }
    T result = derivation.derive(entry.version, entry.value);
    Memo fresh = new Memo(key, result, MEMO_OVERHEAD + derivation.weight(result));
    long delta = fresh.weight - (memo == null ? 0 : memo.weight);
    // if another reader replaced the memo meanwhile, or the entry left the cache, keep theirs /
    // nothing
    if (Entry.MEMO.compareAndSet(entry, memo, fresh) && entry.addWeight(delta)) {
      grow(delta);
    }
    return Optional.of(result);
  }

  /** Forgets a key the caller has just written to RocksDB, before the write is acknowledged. */
  void invalidate(byte[] encodedKey) {
    Key key = new Key(encodedKey);
    counters.incrementAndGet(key.stripe());
    Entry removed = entries.remove(key);
    if (removed != null) {
      long weight = removed.release();
      removed.slot.entry = null; // the clock's slot no longer keeps the entry reachable
      if (weight >= 0) {
        bytes.addAndGet(DEAD_WEIGHT - weight); // the rest goes when the clock drops the slot
      }
    }
  }

  private void grow(long delta) {
    if (bytes.addAndGet(delta) > maxBytes) {
      evict();
    }
  }

  /**
   * Drops slots from the head of the clock until the cache is within its bound: an entry a hit
   * marked since it was queued goes to the tail instead, once. One thread evicts at a time; an
   * insert that finds another evicting leaves the work to it.
   */
  private void evict() {
    if (!evicting.tryLock()) {
      return;
    }
    try {
      // every entry is requeued at most once per pass, so two passes suffice without concurrent
      // hits
      long steps = 2 * queued.get() + 16;
      while (bytes.get() > maxBytes && steps-- > 0) {
        Slot slot = clock.poll();
        if (slot == null) {
          return;
        }
        Entry entry = slot.entry;
        if (entry != null && entry.referenced && entries.get(entry) == entry) {
          entry.referenced = false;
          clock.add(slot);
          continue;
        }
        queued.decrementAndGet();
        if (entry == null) {
          bytes.addAndGet(-DEAD_WEIGHT); // invalidated: the invalidation released the rest
          continue;
        }
        entries.remove(entry, entry); // no-op when the entry was invalidated meanwhile
        long weight = entry.release();
        bytes.addAndGet(weight >= 0 ? -weight : -DEAD_WEIGHT);
      }
    } finally {
      evicting.unlock();
    }
  }

  /** Entries held now (approximate while others read and write). */
  long size() {
    return entries.size();
  }

  /** Slots in the clock, invalidated entries' included until it drops them. */
  long queuedEntries() {
    return queued.get();
  }

  /** Bytes held now, as weighed against the bound. */
  long weightedBytes() {
    return bytes.get();
  }

  void clear() {
    evicting.lock();
    try {
      entries.clear();
      clock.clear();
      queued.set(0);
      bytes.set(0);
    } finally {
      evicting.unlock();
    }
  }

  /**
   * An encoded key with its hash, computed once for the lookup and the counter. A cached {@link
   * Entry} is a key too (the map's key for it), equal to the key it was read for.
   */
  static class Key {
    // final in spirit: a lookup key sets them in its constructor, an entry once before the map
    // publishes it
    private byte[] bytes;
    private int hash;

    /** Wraps, does not copy: the caller does not change {@code bytes} afterwards. */
    Key(byte[] bytes) {
      this.bytes = bytes;
      this.hash = Arrays.hashCode(bytes);
    }

    private Key() {}

    /** Makes this (an entry about to be cached) equal to {@code key}. */
    final void keyOf(Key key) {
      this.bytes = key.bytes;
      this.hash = key.hash;
    }

    int stripe() {
      return (hash ^ (hash >>> 16)) & (STRIPES - 1);
    }

    byte[] bytes() {
      return bytes;
    }

    @Override
    public final int hashCode() {
      return hash;
    }

    @Override
    public final boolean equals(Object other) {
      return other instanceof Key k && k.hash == hash && Arrays.equals(k.bytes, bytes);
    }
  }

  /**
   * An entry's place in the clock; emptied when the entry is invalidated, so that it can be
   * collected.
   */
  private static final class Slot {
    volatile Entry entry;

    Slot(Entry entry) {
      this.entry = entry;
    }
  }

  /** A derived result and the key of the derivation that made it. */
  private record Memo(Object key, Object result, long weight) {}

  /** A cached read: the version and value, or (value null) that the key was absent. */
  static final class Entry extends Key {
    private static final AtomicLongFieldUpdater<Entry> STATE =
        AtomicLongFieldUpdater.newUpdater(Entry.class, "state");
    static final AtomicReferenceFieldUpdater<Entry, Memo> MEMO =
        AtomicReferenceFieldUpdater.newUpdater(Entry.class, Memo.class, "memo");

    /** That the key was absent (a new object each time: an entry is queued at most once). */
    static Entry absent() {
      return new Entry(0, null);
    }

    private final long version;
    private final byte[] value;
    // set once by the inserting thread before the entry is published (map and queue publish
    // safely),
    // like the key this entry is
    private Slot slot;

    /**
     * Whether the cache owns the value (so a reader gets a copy): set before the map publishes the
     * entry, and unset only on an entry the map refused, which its reader alone holds.
     */
    private boolean cached;

    /** Whether a hit came since the clock last passed: a plain field, racy by design. */
    private boolean referenced;

    /**
     * The entry's weight while the cache counts it; -1 before it is cached, and once an
     * invalidation or the clock has released it (whichever came first).
     */
    private volatile long state = -1;

    private volatile Memo memo;

    /** Takes ownership of {@code value}: nobody else may hold it. */
    Entry(long version, byte[] value) {
      this.version = version;
      this.value = value;
    }

    /** Whether the cache holds this entry, or held it: its value must not be handed over. */
    boolean isCached() {
      return cached;
    }

    /**
     * Releases the entry: its weight, which the caller subtracts (less what the clock still will),
     * or -1 if an invalidation or the clock released it already.
     */
    long release() {
      return STATE.getAndSet(this, -1);
    }

    /** Adds to the weight of an entry not yet released; whether it was not. */
    boolean addWeight(long delta) {
      for (long s = state; s >= 0; s = state) {
        if (STATE.compareAndSet(this, s, s + delta)) {
          return true;
        }
      }
      return false;
    }

    /**
     * What {@code get} returns for this entry, with a fresh copy of the value (Arrays.copyOf, not
     * clone(), which C1 compiles as a call into the VM).
     */
    Optional<Versioned> toResult() {
      return value == null
          ? Optional.empty()
          : Optional.of(new Versioned(version, Arrays.copyOf(value, value.length)));
    }

    /**
     * What {@code get} returns for this entry, giving away the value: only for an entry never
     * cached.
     */
    Optional<Versioned> handOver() {
      return value == null ? Optional.empty() : Optional.of(new Versioned(version, value));
    }
  }
}
