package io.viewbase.core;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.TableInfo;
import io.viewbase.api.ViewbaseException;
import java.time.Instant;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A table as the catalog holds it in memory: its name, its storage id, and the lock that keeps
 * writes out while the table is dropped (writers share it; drop takes it exclusively, so no write
 * lands under an id whose data is being purged).
 */
final class TableEntry {
  private final String name;
  private final int id;
  private final Instant created;
  private final byte[] prefix;
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private volatile boolean dropped;

  TableEntry(String name, int id, Instant created) {
    this.name = name;
    this.id = id;
    this.created = created;
    this.prefix = KeyLayout.tablePrefix(id);
  }

  String name() {
    return name;
  }

  int id() {
    return id;
  }

  Instant created() {
    return created;
  }

  byte[] prefix() {
    return prefix.clone();
  }

  TableInfo info() {
    return new TableInfo(name, TableInfo.TABLE, null, "ready", created);
  }

  /** Fails with TableNotFound if the table was dropped after this handle was obtained. */
  void checkLive() {
    if (dropped) {
      throw ViewbaseException.of(ErrorCode.TableNotFound, "The table does not exist", "table", name);
    }
  }

  /** Enters a write; pair with {@link #endWrite()}. */
  void beginWrite() {
    lock.readLock().lock();
    if (dropped) {
      lock.readLock().unlock();
      throw ViewbaseException.of(ErrorCode.TableNotFound, "The table does not exist", "table", name);
    }
  }

  void endWrite() {
    lock.readLock().unlock();
  }

  /** Waits for writes in flight, then refuses all later ones. */
  void markDropped() {
    lock.writeLock().lock();
    try {
      dropped = true;
    } finally {
      lock.writeLock().unlock();
    }
  }
}
