package io.viewbase.storage.tck;

import io.viewbase.storage.spi.Store;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance suite every storage backend must pass. A backend's test is one subclass that says
 * how to open its store:
 *
 * <pre>{@code
 * class MyStoreTest extends StoreConformanceTest {
 *   protected Store open(Path dir, boolean sync) {
 *     return new MyStore(dir, sync);
 *   }
 * }
 * }</pre>
 *
 * <p>The tests themselves live in the {@code *Contract} interfaces, one per area of the {@link
 * Store} contract; tests that need an optional capability (snapshots, durability) skip themselves
 * when the backend does not declare it.
 */
public abstract class StoreConformanceTest
    implements PointReadContract,
        DerivedReadContract,
        ConditionContract,
        BatchContract,
        AsyncCommitContract,
        ScanContract,
        PartitionContract,
        SnapshotContract,
        ConcurrencyContract,
        DurabilityContract,
        LifecycleContract,
        RandomizedModelContract,
        SequenceContract {

  @TempDir protected Path dir;

  private Store store;

  /** Opens the backend's store on {@code dir} (a fresh, empty directory for each test). */
  protected abstract Store open(Path dir, boolean sync);

  /**
   * Whether the store keeps its data across close and reopen; by default its declared durability.
   */
  @Override
  public boolean survivesReopen() {
    return store.capabilities().durableCommits();
  }

  @BeforeEach
  void openStore() {
    store = open(dir, false);
  }

  @AfterEach
  void closeStore() {
    if (store != null) {
      store.close();
    }
  }

  @Override
  public Store store() {
    return store;
  }

  @Override
  public Store reopen(boolean sync) {
    store.close();
    store = null;
    store = open(dir, sync);
    return store;
  }
}
