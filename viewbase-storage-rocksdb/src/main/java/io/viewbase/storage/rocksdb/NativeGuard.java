package io.viewbase.storage.rocksdb;

import io.viewbase.storage.spi.StorageException;
import java.util.ArrayList;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Keeps the store's native handles from being used after they are freed, which would crash the
 * JVM rather than throw. Every call that touches a handle runs between {@link #enter()} and
 * {@link #exit()} (a shared lock); {@link #close} takes the lock exclusively, so it waits for
 * those calls, then frees every cursor and snapshot still open, then the database.
 */
final class NativeGuard {
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final Set<AutoCloseable> open = ConcurrentHashMap.newKeySet();
  private final String closedMessage;
  /** Volatile for {@link #checkOpen}, which reads it without the lock. */
  private volatile boolean closed;

  NativeGuard(String closedMessage) {
    this.closedMessage = closedMessage;
  }

  /** Starts a call that uses native handles; fails if the store is closed. */
  void enter() {
    lock.readLock().lock();
    if (closed) {
      lock.readLock().unlock();
      throw new StorageException(closedMessage, null, true);
    }
  }

  /**
   * Fails if the store is closed, for a call that touches no native handle (a value cache hit):
   * no lock, so a call racing with close may still succeed, as if it had run just before.
   */
  void checkOpen() {
    if (closed) {
      throw new StorageException(closedMessage, null, true);
    }
  }

  void exit() {
    lock.readLock().unlock();
  }

  /** Remembers a cursor or snapshot, so that closing the store can free it. */
  void register(AutoCloseable resource) {
    open.add(resource);
  }

  void unregister(AutoCloseable resource) {
    open.remove(resource);
  }

  /** Frees every registered resource, then runs {@code closeStore}; only the first call does anything. */
  void close(Runnable closeStore) {
    lock.writeLock().lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      for (AutoCloseable resource : new ArrayList<>(open)) {
        try {
          resource.close();
        } catch (Exception e) {
          // keep freeing the rest: a leak is better than a crash at shutdown
        }
      }
      open.clear();
      closeStore.run();
    } finally {
      lock.writeLock().unlock();
    }
  }
}
