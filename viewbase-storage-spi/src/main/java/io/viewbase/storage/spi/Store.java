package io.viewbase.storage.spi;

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
   * Reports the store's own measurements (its commits, its engine's statistics) to {@code meters};
   * called once per host registry. A store that measures nothing ignores it (the default).
   */
  default void bindMeters(StoreMeters meters) {}

  @Override
  void close();
}
