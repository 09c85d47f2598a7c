package io.viewbase.storage.cassandra;

import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.StoreConfig;
import io.viewbase.storage.tck.StoreConformanceTest;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The conformance suite on one real Cassandra node. Every test gets an empty table: creating a
 * table per test costs seconds of schema agreement, so the tests share one and empty it when a test
 * opens its store for the first time (a reopen, on the same directory, keeps the data). A store
 * that stays open for the whole class keeps the shared driver session alive between tests, as a
 * long-running server would.
 */
class CassandraStoreTest extends StoreConformanceTest {
  private static Store keeper;
  private Path emptiedFor;

  @BeforeAll
  static void keepSessionOpen() {
    keeper = new CassandraStorageProvider().open(config(false));
  }

  @AfterAll
  static void releaseSession() {
    keeper.close();
  }

  @Override
  protected Store open(Path dir, boolean sync) {
    Store store = new CassandraStorageProvider().open(config(sync));
    if (!dir.equals(emptiedFor)) {
      emptiedFor = dir;
      CassandraTesting.admin().execute("TRUNCATE tck.kv");
    }
    return store;
  }

  private static StoreConfig config(boolean sync) {
    return new StoreConfig(
        null,
        sync,
        Map.of(
            CassandraSettings.CONTACT_POINTS, CassandraTestCluster.node().contactPoint(),
            CassandraSettings.KEYSPACE, "tck",
            CassandraSettings.CLAIM_TTL, "20s"));
  }
}
