package io.viewbase.storage.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import java.net.InetSocketAddress;
import java.time.Duration;

/** Plain driver sessions for tests that look at the table behind the store. */
final class CassandraTesting {
  private CassandraTesting() {}

  /** The session tests share for looking at tables directly, on the shared node. */
  static CqlSession admin() {
    return Admin.SESSION;
  }

  /** A session on the node, closed when the JVM exits. */
  static CqlSession session(CassandraNode node) {
    CqlSession session =
        CqlSession.builder()
            .addContactPoint(new InetSocketAddress(node.host(), node.nativePort()))
            .withLocalDatacenter("datacenter1")
            .withConfigLoader(
                DriverConfigLoader.programmaticBuilder()
                    .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(60))
                    .build())
            .build();
    Runtime.getRuntime()
        .addShutdownHook(new Thread(session::close, "cassandra-test-session-close"));
    return session;
  }

  /** Lazy holder: one admin session per test JVM. */
  private static final class Admin {
    static final CqlSession SESSION = session(CassandraTestCluster.node());
  }
}
