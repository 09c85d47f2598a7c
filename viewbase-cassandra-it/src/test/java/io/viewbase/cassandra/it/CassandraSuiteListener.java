package io.viewbase.cassandra.it;

import java.util.List;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Runs the engine's own suites on Cassandra: when a test class of those suites (scanned from the
 * test-jars of viewbase-core and viewbase-server, see this module's pom) is about to start, makes
 * sure the shared node runs and points the suites' storage switches at it, so the same test code
 * that runs on RocksDB in its own module runs here on one real Cassandra node.
 *
 * <table>
 *   <caption>the switches, read by ViewModelTest and AzureSdkServer</caption>
 *   <tr><th>system property</th><th>value set here</th></tr>
 *   <tr><td>viewbase.test.storage</td><td>cassandra</td></tr>
 *   <tr><td>viewbase.test.storage.options</td><td>the shared node, keyspace {@value SharedCassandra#KEYSPACE}, a
 *       fresh Cassandra table per database opened ({unique})</td></tr>
 * </table>
 *
 * <p>Registered through {@code META-INF/services}; this module's own tests open their databases
 * themselves and never start the node through this listener.
 */
public final class CassandraSuiteListener implements TestExecutionListener {
  /** Test classes, by name or package prefix, that take their storage from the switches. */
  private static final List<String> SUITES =
      List.of("io.viewbase.core.ViewModelTest", "io.viewbase.server.azure.sdk.");

  private static volatile boolean configured;

  @Override
  public void executionStarted(TestIdentifier test) {
    TestSource source = test.getSource().orElse(null);
    if (source instanceof ClassSource c && isSuite(c.getClassName())) {
      configure();
    }
  }

  private static boolean isSuite(String className) {
    return SUITES.stream().anyMatch(className::startsWith);
  }

  private static synchronized void configure() {
    if (configured) {
      return;
    }
    String options =
        "cassandra.contactPoints="
            + SharedCassandra.contactPoint()
            + ";cassandra.keyspace="
            + SharedCassandra.KEYSPACE
            + ";cassandra.table={unique}";
    System.setProperty("viewbase.test.storage", "cassandra");
    System.setProperty("viewbase.test.storage.options", options);
    configured = true;
  }
}
