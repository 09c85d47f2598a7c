package io.viewbase.cassandra.it;

import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.storage.cassandra.CassandraNode;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one single Cassandra node that every test of this module's JVM shares (the engine's suites,
 * several servers on one keyspace), started on first use and killed with its data when the JVM
 * exits, and how to open Viewbase on it.
 *
 * <p>The node listens on 127.0.0.10, so that ring tests can start nodes 1, 2, 3 of their own on
 * 127.0.0.1-3 in the same JVM without meeting it. Tests keep apart by opening distinct tables
 * ({@link #freshName}) in one keyspace: a Cassandra table is cheaper to create than a keyspace.
 *
 * <p>This class is shared with other test classes of the module: add to it, do not change what
 * exists.
 */
public final class SharedCassandra {
  /** The node's index: its address is 127.0.0.{INDEX}. */
  public static final int INDEX = 10;

  /** The keyspace the tests of this module use on the shared node (RF 1). */
  public static final String KEYSPACE = "viewbase_it";

  private static final AtomicInteger NAMES = new AtomicInteger();

  private SharedCassandra() {}

  /** The shared node, started on first use (which prints how long it took). */
  public static CassandraNode node() {
    return Holder.NODE;
  }

  /** host:port of the shared node, for {@code cassandra.contactPoints}. */
  public static String contactPoint() {
    return node().contactPoint();
  }

  /** A name for a Cassandra table (or keyspace) that no other test of this JVM uses. */
  public static String freshName(String prefix) {
    return prefix + "_" + ProcessHandle.current().pid() + "_" + NAMES.incrementAndGet();
  }

  /**
   * The Viewbase open options of the Cassandra table {@code table} in {@link #KEYSPACE} on the
   * shared node.
   */
  public static Map<String, String> options(String table) {
    Map<String, String> options = new HashMap<>();
    options.put("cassandra.contactPoints", contactPoint());
    options.put("cassandra.keyspace", KEYSPACE);
    options.put("cassandra.table", table);
    return options;
  }

  /**
   * Opens a Viewbase database on the Cassandra table {@code table} of the shared node, with extra
   * options.
   */
  public static Database open(String table, Map<String, String> extra) {
    Map<String, String> options = options(table);
    options.putAll(extra);
    return Viewbase.open(OpenOptions.inMemory().withStorage("cassandra").withOptions(options));
  }

  /** Lazy holder: the JVM starts the node once, on first access, and never twice. */
  private static final class Holder {
    static final CassandraNode NODE = startNode();

    private static CassandraNode startNode() {
      CassandraNode node = CassandraNode.start(INDEX, null);
      Runtime.getRuntime().addShutdownHook(new Thread(node::close, "shared-cassandra-shutdown"));
      return node;
    }
  }
}
