package io.viewbase.storage.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.connection.HeartbeatException;
import io.viewbase.storage.spi.StorageException;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/**
 * What a caller is told when the connection a request was sent on dies: the request reached a
 * coordinator that may have applied it, so it is a timeout (the write may still apply), not an
 * internal error. A node killed under load did this (clients saw 500 InternalError "Unexpected
 * error on channel").
 */
class CassandraErrorsTest {
  @Test
  void aRequestWhoseConnectionClosedMayHaveAppliedAndIsATimeout() {
    StorageException e =
        CassandraErrors.translate(
            "write", new ClosedConnectionException("Unexpected error on channel"));
    assertThat(e.kind()).isEqualTo(StorageException.Kind.TIMED_OUT);
    assertThat(e.getMessage()).contains("Cassandra failed to write").contains("channel");
  }

  @Test
  void aConnectionThatStoppedAnsweringHeartbeatsIsATimeout() {
    StorageException e =
        CassandraErrors.translate(
            "read",
            new HeartbeatException(
                InetSocketAddress.createUnresolved("node2", 9042), "no heartbeat answer", null));
    assertThat(e.kind()).isEqualTo(StorageException.Kind.TIMED_OUT);
  }
}
