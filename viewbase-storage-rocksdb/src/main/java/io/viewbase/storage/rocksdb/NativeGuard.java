package io.viewbase.storage.rocksdb;

import io.viewbase.storage.spi.StorageException;
import java.util.ArrayList;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * Keeps the store's native handles from being used after they are freed, which would crash the JVM
 * rather than throw. Every call that touches a handle runs between {@link #enter()} and {@link
 * #exit()}; {@link #close} waits for those calls, then frees every cursor and snapshot still open,
 * then the database.
 *
 * <p>The calls in progress are counted in stripes, a thread always in the same one (by its id),
 * each on its own cache line: entering is one atomic increment of a line that other threads rarely
 * touch, where a shared read lock made every call of every thread write the same line (and look up
 * its hold count). It is Dekker's handshake: {@code enter} increments, then reads {@code closed};
 * {@code close} sets {@code closed}, then reads the stripes (all volatile, so one total order). A
 * call either sees {@code closed} and backs out, or {@code close} sees its increment and waits
 * until every stripe has drained to zero.
 *
 * <p>What a call pays is the two lock-prefixed increments, some 11 ns a pair on a 2-core x86
 * machine, not their wrapping: C1 (the tier a server stopped at {@code -XX:TieredStopAtLevel=1}
 * runs) force-inlines {@link AtomicLongArray}'s VarHandle path down to the intrinsic, and a
 * VarHandle on a {@code long[]} of our own, one on a padded field, or padded {@code AtomicLong}s
 * measured within a nanosecond of it. So a hot path saves by entering less often (a cursor enters
 * once per entry, value included), and {@link #enter()} keeps its failure out of line so that it
 * stays small enough for C1 to inline.
 */
final class NativeGuard {
  private static final int STRIPES = 32; // a power of two
  private static final int SPACING = 16; // longs: 128 bytes, so no two stripes share a cache line
  private final AtomicLongArray inside = new AtomicLongArray(STRIPES * SPACING);
  private final Set<AutoCloseable> open = ConcurrentHashMap.newKeySet();
  private final String closedMessage;
  private final Object closing = new Object();
  private volatile boolean closed;

  NativeGuard(String closedMessage) {
    this.closedMessage = closedMessage;
  }

  /** Starts a call that uses native handles; fails if the store is closed. */
  void enter() {
    int stripe = stripe();
    inside.getAndIncrement(stripe);
    if (closed) {
      backOut(stripe);
    }
  }

  /** Undoes the increment of a call that found the store closed, and refuses it. */
  private void backOut(int stripe) {
    inside.getAndDecrement(stripe);
    throw new StorageException(closedMessage, null, StorageException.Kind.CLOSED);
  }

  /**
   * Fails if the store is closed, for a call that touches no native handle (a value cache hit): no
   * lock, so a call racing with close may still succeed, as if it had run just before.
   */
  void checkOpen() {
    if (closed) {
      throw new StorageException(closedMessage, null, StorageException.Kind.CLOSED);
    }
  }

  /** Ends a call started by {@link #enter()}, on the same thread. */
  void exit() {
    inside.getAndDecrement(stripe());
  }

  private static int stripe() {
    long id = Thread.currentThread().getId();
    return (int) ((id ^ (id >>> 5)) & (STRIPES - 1)) * SPACING;
  }

  /** Remembers a cursor or snapshot, so that closing the store can free it. */
  void register(AutoCloseable resource) {
    open.add(resource);
  }

  void unregister(AutoCloseable resource) {
    open.remove(resource);
  }

  /**
   * Frees every registered resource, then runs {@code closeStore}; only the first call does
   * anything.
   */
  void close(Runnable closeStore) {
    synchronized (closing) {
      if (closed) {
        return;
      }
      closed = true;
      awaitCallsInProgress();
      for (AutoCloseable resource : new ArrayList<>(open)) {
        try {
          resource.close();
        } catch (Exception e) {
          // keep freeing the rest: a leak is better than a crash at shutdown
        }
      }
      open.clear();
      closeStore.run();
    }
  }

  /**
   * Waits until no call is inside: a pass that reads every stripe at zero proves it, since a call
   * that entered after its stripe was read has seen {@code closed} and backed out. Calls are short
   * (one native call each), so a short sleep between passes is enough.
   */
  private void awaitCallsInProgress() {
    while (true) {
      boolean idle = true;
      for (int i = 0; i < STRIPES && idle; i++) {
        idle = inside.get(i * SPACING) == 0;
      }
      if (idle) {
        return;
      }
      LockSupport.parkNanos(50_000);
    }
  }
}
