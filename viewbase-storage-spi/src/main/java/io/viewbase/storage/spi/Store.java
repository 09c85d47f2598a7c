package io.viewbase.storage.spi;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A partition-aware ordered key-value store: (partition bytes, sort-key bytes) to (version, value
 * bytes). A Viewbase partition is the backend's unit of locality (a RocksDB key prefix, a Cassandra
 * partition); the sort key orders entries within it.
 *
 * <p>Writes happen only through {@link #commit}: a batch of mutations, each with a {@link
 * Condition}, applied all or nothing. What "all or nothing" means across partitions, and whether a
 * batch is isolated from concurrent ones, is declared by {@link #capabilities()}. Thread-safe.
 * After {@link #close()}, calls on the store and on its open cursors and snapshots throw {@link
 * StorageException} with {@code isUnavailable()}; closing anything twice does nothing.
 */
public interface Store extends ReadView, AutoCloseable {
  Capabilities capabilities();

  /** A consistent point-in-time view of the data; close it. */
  Snapshot snapshot();

  /**
   * Applies the batch atomically if every condition holds, else writes nothing and throws. A key
   * may appear at most once in a batch. Returns once the batch is durable, if the store was opened
   * with {@code sync=true}.
   *
   * @throws ConditionFailedException naming the first mutation whose condition did not hold
   * @throws IllegalArgumentException if the batch is empty or names a key twice
   */
  void commit(List<Mutation> batch) throws ConditionFailedException;

  /**
   * {@link #commit}, with the outcome as a future: it completes when {@code commit} would have
   * returned, or exceptionally with what it would have thrown ({@link ConditionFailedException},
   * {@link StorageException}, {@link IllegalArgumentException}). Where {@link
   * #commitsWithoutBlocking()} holds, the call returns at once and the future completes on a thread
   * of the store's (dependent actions run there: they must not block); otherwise this default
   * commits on the calling thread.
   */
  default CompletableFuture<Void> commitAsync(List<Mutation> batch) {
    try {
      commit(batch);
      return CompletableFuture.completedFuture(null);
    } catch (ConditionFailedException | RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * Whether {@link #commitAsync} returns without waiting for the write (or its sync): a caller on a
   * thread that must not block (an event loop) may then commit from it.
   */
  default boolean commitsWithoutBlocking() {
    return false;
  }

  /**
   * Takes an online, consistent backup of everything the store holds into {@code target}, while
   * commits go on: every batch whose commit returned before the call is in it, and every batch in
   * it is whole. Backups in one directory are numbered and may share files, so a later backup
   * copies only what changed since an earlier one. One backup at a time per store and per
   * directory.
   *
   * <table>
   *   <caption>what a backup call answers</caption>
   *   <tr><th>case</th><th>then</th></tr>
   *   <tr><td>the store cannot back up (this default)</td><td>{@link UnsupportedOperationException}
   *       naming what to do instead</td></tr>
   *   <tr><td>{@code target} is unusable (a file, inside the store's own data, not a backup
   *       directory)</td><td>{@link IllegalArgumentException} naming why</td></tr>
   *   <tr><td>another backup of this store, or into {@code target}, is running</td>
   *       <td>{@link IllegalStateException}</td></tr>
   *   <tr><td>the copy failed</td><td>{@link StorageException}; the directory's earlier backups
   *       stay usable</td></tr>
   * </table>
   */
  default BackupRun backup(Path target) {
    throw new UnsupportedOperationException(
        "This storage backend takes no backups of its own: back up its storage with the backend's"
            + " tools (a Cassandra cluster: 'nodetool snapshot' on every node, see"
            + " docs/operations.md); a memory store holds nothing that outlives the process");
  }

  /**
   * Reports the store's own measurements (its commits, its engine's statistics) to {@code meters};
   * called once per host registry. A store that measures nothing ignores it (the default).
   */
  default void bindMeters(StoreMeters meters) {}

  @Override
  void close();
}
