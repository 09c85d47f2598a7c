package io.viewbase.core;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.TableInfo;
import io.viewbase.api.TableOptions;
import io.viewbase.api.ViewbaseException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.StampedLock;

/**
 * A table as the catalog holds it in memory: its stored {@link TableRecord} (name, storage id,
 * creation time), and the lock that keeps writes out while the table is dropped (writers share it;
 * drop takes it exclusively, so no write lands under an id whose data is being purged).
 */
final class TableEntry {
  private final TableRecord record;
  private final String name;
  private final int id;
  private final byte[] prefix;

  /**
   * Writers share it, drops and view changes take it alone. Not owned by a thread (a {@link
   * StampedLock}'s views): an asynchronous write enters on the caller's thread and leaves on the
   * thread its commit completes on. Not reentrant either: no path enters it twice.
   */
  private final StampedLock gate = new StampedLock();

  private final Lock shared = gate.asReadLock();
  private final Lock exclusive = gate.asWriteLock();
  private volatile boolean dropped;

  /**
   * TEMPORARY, until the table options land with TableRecord: held in memory only, so that the
   * time-to-live can be built and tested against {@link #options()}.
   */
  private volatile TableOptions options = TableOptions.DEFAULT;

  /** For a view: what makes it one; null for a table. */
  private volatile ViewHandle view;

  /** For a table: the views whose source it is. Changed only under the write lock. */
  private volatile List<ViewHandle> views = List.of();

  TableEntry(TableRecord record) {
    this.record = record;
    this.name = record.name();
    this.id = record.id();
    this.prefix = KeyLayout.tablePrefix(id);
  }

  TableRecord record() {
    return record;
  }

  String name() {
    return name;
  }

  int id() {
    return id;
  }

  Instant created() {
    return record.created();
  }

  byte[] prefix() {
    return prefix.clone();
  }

  TableInfo info() {
    ViewHandle v = view;
    return v == null
        ? new TableInfo(name, TableInfo.TABLE, null, "ready", created())
        : new TableInfo(name, TableInfo.VIEW, v.source().name(), v.state().text(), created());
  }

  /** The table's current options (a view's are {@link TableOptions#DEFAULT}). */
  TableOptions options() {
    return options;
  }

  /** TEMPORARY: see {@link #options}. */
  void options(TableOptions next) {
    options = next == null ? TableOptions.DEFAULT : next;
  }

  ViewHandle view() {
    return view;
  }

  void view(ViewHandle handle) {
    view = handle;
  }

  boolean isView() {
    return view != null;
  }

  /** The views of this table; read it inside {@link #beginWrite()} to see a stable set. */
  List<ViewHandle> views() {
    return views;
  }

  /** Adds a view once every write in flight has finished, so each later write maintains it. */
  void addView(ViewHandle handle) {
    exclusive.lock();
    try {
      List<ViewHandle> next = new ArrayList<>(views);
      next.add(handle);
      views = List.copyOf(next);
    } finally {
      exclusive.unlock();
    }
  }

  /** Removes a view once every write in flight has finished, so no later write touches its data. */
  void removeView(ViewHandle handle) {
    exclusive.lock();
    try {
      List<ViewHandle> next = new ArrayList<>(views);
      next.remove(handle);
      views = List.copyOf(next);
    } finally {
      exclusive.unlock();
    }
  }

  /** Fails with TableNotFound if the table was dropped after this handle was obtained. */
  void checkLive() {
    if (dropped) {
      throw ViewbaseException.of(
          ErrorCode.TableNotFound, "The table does not exist", "table", name);
    }
  }

  /** Enters a write; pair with {@link #endWrite()}, on any thread. */
  void beginWrite() {
    shared.lock();
    if (dropped) {
      shared.unlock();
      throw ViewbaseException.of(
          ErrorCode.TableNotFound, "The table does not exist", "table", name);
    }
  }

  void endWrite() {
    shared.unlock();
  }

  /** Waits for writes in flight, then refuses all later ones. */
  void markDropped() {
    exclusive.lock();
    try {
      dropped = true;
    } finally {
      exclusive.unlock();
    }
  }
}
