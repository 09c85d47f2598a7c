package io.viewbase.storage.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.viewbase.storage.spi.StorageException;
import io.viewbase.storage.spi.StorageProvider;
import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.StoreConfig;
import io.viewbase.storage.spi.StoreOptionException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** Opening the backend: found by name, options checked by name, an unreachable cluster named. */
class CassandraStorageProviderTest {

  @Test
  void serviceLoaderFindsTheBackendByTheNameCassandra() {
    assertThat(ServiceLoader.load(StorageProvider.class).stream().map(p -> p.get().name()))
        .contains("cassandra");
  }

  @Test
  void openWhenNoNodeListensFailsUnreachableNamingTheContactPoints() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      closedPort = socket.getLocalPort();
    }
    String contactPoints = "127.0.0.1:" + closedPort;

    StorageException failure =
        catchThrowableOfType(
            StorageException.class,
            () -> open(Map.of(CassandraSettings.CONTACT_POINTS, contactPoints)));

    assertThat(failure).isNotNull();
    assertThat(failure.isUnavailable()).isTrue();
    assertThat(failure.kind()).isEqualTo(StorageException.Kind.UNREACHABLE);
    assertThat(failure.getMessage())
        .contains("cannot reach the Cassandra cluster at " + contactPoints);
  }

  @Test
  void openWithAnUnknownOptionFailsNamingIt() {
    assertThatExceptionOfType(StoreOptionException.class)
        .isThrownBy(() -> open(Map.of("cassandra.keySpace", "x")))
        .withMessageContaining("unknown option cassandra.keySpace")
        .satisfies(e -> assertThat(e.option()).isEqualTo("cassandra.keySpace"));
  }

  @Test
  void openWithBadValuesFailsNamingTheOption() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> open(Map.of(CassandraSettings.CONSISTENCY, "SERIAL")))
        .withMessageContaining(CassandraSettings.CONSISTENCY);
    assertThatIllegalArgumentException()
        .isThrownBy(() -> open(Map.of(CassandraSettings.KEYSPACE, "no-dashes")))
        .withMessageContaining(CassandraSettings.KEYSPACE);
    assertThatIllegalArgumentException()
        .isThrownBy(() -> open(Map.of(CassandraSettings.CONTACT_POINTS, "host:port")))
        .withMessageContaining(CassandraSettings.CONTACT_POINTS);
    assertThatExceptionOfType(StoreOptionException.class)
        .isThrownBy(() -> open(Map.of(CassandraSettings.REPLICATION, "three")))
        .withMessageContaining(CassandraSettings.REPLICATION)
        .satisfies(e -> assertThat(e.option()).isEqualTo(CassandraSettings.REPLICATION));
  }

  @Test
  void openCreatesKeyspaceAndTableAndDeclaresWhatItGuarantees() {
    try (Store store =
        open(
            Map.of(
                CassandraSettings.CONTACT_POINTS,
                CassandraTestCluster.node().contactPoint(),
                CassandraSettings.KEYSPACE,
                "created",
                CassandraSettings.TABLE,
                "fresh"))) {
      assertThat(store.capabilities().atomicMultiPartitionBatch()).isTrue();
      assertThat(store.capabilities().isolatedBatches()).isFalse();
      assertThat(store.capabilities().orderedPartitions()).isTrue();
      assertThat(store.capabilities().snapshots()).isFalse();
      assertThat(store.capabilities().sequences()).isTrue();
      assertThat(
              CassandraTesting.admin()
                  .execute(
                      "SELECT table_name FROM system_schema.tables WHERE keyspace_name = 'created'")
                  .one()
                  .getString(0))
          .isEqualTo("fresh");
    }
  }

  private static Store open(Map<String, String> options) {
    return new CassandraStorageProvider().open(new StoreConfig(null, true, options));
  }
}
