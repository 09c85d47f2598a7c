package io.viewbase.storage.spi;

/**
 * The backend failed: an I/O error or corruption, or it cannot serve the call right now (closed,
 * locked by another process, unreachable, too slow, too contended). {@link #kind()} says which, so
 * that core can tell its callers whether to retry.
 */
public class StorageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why the store failed a call. */
  public enum Kind {
    /** An internal failure: an I/O error, corruption, a statement the backend refused. */
    FAILED,
    /** The store is closed (or was closed while the call was queued). */
    CLOSED,
    /**
     * Another process, or another open store in this one, holds the store's data (a directory's
     * lock).
     */
    LOCKED,
    /**
     * The backend cannot be reached or opened: no live node, too few replicas, a directory it
     * cannot create or open.
     */
    UNREACHABLE,
    /**
     * The backend did not answer in time, or the waiting thread was interrupted: the call's outcome
     * may be unknown (a write may still apply).
     */
    TIMED_OUT,
    /**
     * The store gave up a commit because other commits held its keys too long; nothing was written.
     */
    CONTENDED,
    /**
     * The store's file system is full (ENOSPC): the write was refused, nothing of it is visible,
     * reads go on; writes are taken again once space is freed, without reopening the store.
     */
    NO_SPACE
  }

  private final Kind kind;

  /** An internal failure ({@link Kind#FAILED}). */
  public StorageException(String message, Throwable cause) {
    this(message, cause, Kind.FAILED);
  }

  public StorageException(String message, Throwable cause, Kind kind) {
    super(message, cause);
    this.kind = java.util.Objects.requireNonNull(kind, "kind");
  }

  public Kind kind() {
    return kind;
  }

  /** Whether the store cannot serve the call right now, as opposed to an internal failure. */
  public boolean isUnavailable() {
    return kind != Kind.FAILED;
  }
}
