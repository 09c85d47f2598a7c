package io.viewbase.storage.cassandra;

/**
 * The one Cassandra node that every test class of a test run shares: started by the first test that
 * asks for it (which logs how long it took), killed with its data when the JVM exits.
 */
final class CassandraTestCluster {
  private CassandraTestCluster() {}

  /** The shared node, started on first use. */
  static CassandraNode node() {
    return Holder.NODE;
  }

  /** Lazy holder: the JVM starts the node once, on first access, and never twice. */
  private static final class Holder {
    static final CassandraNode NODE = startNode();

    private static CassandraNode startNode() {
      CassandraNode node = CassandraNode.start(1, null);
      Runtime.getRuntime().addShutdownHook(new Thread(node::close, "cassandra-node-shutdown"));
      return node;
    }
  }
}
