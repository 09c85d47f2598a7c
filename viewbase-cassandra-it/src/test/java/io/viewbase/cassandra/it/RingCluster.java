package io.viewbase.cassandra.it;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import io.viewbase.storage.cassandra.CassandraNode;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * Three real Cassandra nodes on 127.0.0.1, .2 and .3 forming one ring, and a plain driver session
 * on all of them for looking at the ring itself (who is up, who knows whom).
 *
 * <p>Node 1 is the seed and starts first; nodes 2 and 3 then start together: on a fresh ring
 * nothing streams (the fixture turns bootstrap off), so concurrent joins are safe and the two JVMs'
 * start-up overlaps. Closing kills every node and deletes its data.
 */
final class RingCluster implements AutoCloseable {
  private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(90);

  private final List<CassandraNode> nodes;
  private final CqlSession admin;

  private RingCluster(List<CassandraNode> nodes, CqlSession admin) {
    this.nodes = nodes;
    this.admin = admin;
  }

  /**
   * Starts the three nodes and waits until each knows the other two and the driver sees all three
   * up.
   */
  static RingCluster start() {
    long started = System.nanoTime();
    List<CassandraNode> nodes = new ArrayList<>();
    try {
      nodes.add(CassandraNode.start(1, null));
      CassandraNode seed = nodes.get(0);
      CompletableFuture<CassandraNode> second =
          CompletableFuture.supplyAsync(() -> CassandraNode.start(2, seed));
      CompletableFuture<CassandraNode> third =
          CompletableFuture.supplyAsync(() -> CassandraNode.start(3, seed));
      try {
        nodes.add(second.join());
      } finally {
        nodes.add(third.join());
      }
      System.out.printf("ring nodes started in %d ms%n", (System.nanoTime() - started) / 1_000_000);
      CqlSession admin = session(nodes);
      RingCluster ring = new RingCluster(List.copyOf(nodes), admin);
      ring.awaitAllUp();
      ring.awaitGossipComplete();
      System.out.printf(
          "ring of %d nodes ready in %d ms%n",
          nodes.size(), (System.nanoTime() - started) / 1_000_000);
      return ring;
    } catch (RuntimeException e) {
      nodes.forEach(CassandraNode::close);
      throw e;
    }
  }

  CassandraNode node(int index) {
    return nodes.get(index - 1);
  }

  /** Every node's host:port, as {@code cassandra.contactPoints} takes them. */
  String contactPoints() {
    return nodes.stream().map(CassandraNode::contactPoint).collect(Collectors.joining(","));
  }

  /** Waits until the driver sees every node up (after a start or a restart). */
  void awaitAllUp() {
    await(
        "the driver to see " + nodes.size() + " nodes up",
        () ->
            admin.getMetadata().getNodes().values().stream()
                    .filter(n -> n.getState() == NodeState.UP)
                    .count()
                == nodes.size());
  }

  /**
   * Waits until every node lists the other nodes among its peers, so replicas are placed on all of
   * them.
   */
  void awaitGossipComplete() {
    for (Node node : admin.getMetadata().getNodes().values()) {
      await(
          node.getEndPoint() + " to know its " + (nodes.size() - 1) + " peers",
          () -> {
            try {
              return admin
                      .execute(
                          SimpleStatement.newInstance("SELECT peer FROM system.peers_v2")
                              .setNode(node))
                      .all()
                      .size()
                  == nodes.size() - 1;
            } catch (DriverException notYet) {
              // the driver may see a node up before its connection pool has a channel to it: ask
              // again
              return false;
            }
          });
    }
  }

  /** Whether the driver currently sees this node up. */
  boolean isUpForDriver(CassandraNode node) {
    return admin.getMetadata().getNodes().values().stream()
        .anyMatch(
            n ->
                n.getEndPoint().resolve() instanceof InetSocketAddress address
                    && address.getAddress().getHostAddress().equals(node.host())
                    && n.getState() == NodeState.UP);
  }

  @Override
  public void close() {
    try {
      admin.close();
    } finally {
      nodes.forEach(CassandraNode::close);
    }
  }

  private static CqlSession session(List<CassandraNode> nodes) {
    CqlSessionBuilder builder =
        CqlSession.builder()
            .withLocalDatacenter("datacenter1")
            .withConfigLoader(
                DriverConfigLoader.programmaticBuilder()
                    .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20))
                    // As the Viewbase session of RingFailoverTest, for the reason given there.
                    .withString(DefaultDriverOption.PROTOCOL_VERSION, "V4")
                    // Find a node that comes back quickly, instead of after the default backoff.
                    .withDuration(
                        DefaultDriverOption.RECONNECTION_BASE_DELAY, Duration.ofMillis(500))
                    .withDuration(DefaultDriverOption.RECONNECTION_MAX_DELAY, Duration.ofSeconds(2))
                    .build());
    for (CassandraNode node : nodes) {
      builder.addContactPoint(new InetSocketAddress(node.host(), node.nativePort()));
    }
    return builder.build();
  }

  private static void await(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + SETTLE_TIMEOUT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "timed out after " + SETTLE_TIMEOUT.toSeconds() + " s waiting for " + what);
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted waiting for " + what, e);
      }
    }
  }
}
