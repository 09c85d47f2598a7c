package io.viewbase.storage.cassandra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A real Cassandra node for tests, run as a separate JVM from the jars of {@code cassandra-all}
 * that Maven resolved into {@code viewbase-cassandra-node/target/cassandra.classpath} (never onto
 * the test classpath: the server's netty, guava and jackson differ from ours).
 *
 * <p>Node N listens on its own loopback address 127.0.0.N (Linux routes all of 127/8), on free
 * ports, with its data under its own directory, so several nodes form a ring on one machine. The
 * settings favour a fast start on a small machine: a small heap, few tokens, no bootstrap
 * streaming, no wait for gossip to settle, and generous timeouts, since the machine is shared.
 *
 * <p>The node runs under a small bash watchdog that kills it with SIGKILL as soon as the watchdog's
 * standard input closes, which happens in {@link #kill()} and also when the test JVM dies in any
 * way, so no node outlives the tests that started it.
 *
 * <p>Each node also serves JMX on 127.0.0.1 only (a free port, no authentication), as Cassandra's
 * own scripts set it up, for what only JMX can do: {@link #flush}.
 */
public final class CassandraNode implements AutoCloseable {
  /**
   * Where the node module writes the classpath; surefire passes it, else it is found from the
   * working directory.
   */
  static final String CLASSPATH_PROPERTY = "viewbase.cassandra.classpath";

  /**
   * Set to true for a node that compiles with C2 as in production (benchmarks); tests run C1 only.
   */
  public static final String FULL_JIT_PROPERTY = "viewbase.cassandra.fullJit";

  private static final long START_TIMEOUT_MS = 180_000;

  private final int index;
  private final String host;
  private final Path dir;
  private final String seeds;
  private final int storagePort;
  private final int nativePort;
  private final int jmxPort;
  private Process watchdog;

  private CassandraNode(
      int index, Path dir, String seeds, int storagePort, int nativePort, int jmxPort) {
    this.index = index;
    this.host = "127.0.0." + index;
    this.dir = dir;
    this.seeds = seeds;
    this.storagePort = storagePort;
    this.nativePort = nativePort;
    this.jmxPort = jmxPort;
  }

  /**
   * Starts node {@code index} (1 to 254) on 127.0.0.{index} and waits until it accepts CQL
   * connections. The first node of a ring is its own seed; pass it as {@code seed} for the others.
   */
  public static CassandraNode start(int index, CassandraNode seed) {
    String host = "127.0.0." + index;
    try {
      Path dir = Files.createTempDirectory("viewbase-cassandra-" + index + "-");
      int storagePort = freePort(host);
      int nativePort = freePort(host);
      // Cassandra binds local-only JMX to the loopback address 127.0.0.1, whatever the node's own.
      int jmxPort = freePort("127.0.0.1");
      String seeds = seed == null ? host + ":" + storagePort : seed.host + ":" + seed.storagePort;
      CassandraNode node = new CassandraNode(index, dir, seeds, storagePort, nativePort, jmxPort);
      node.writeConfig();
      node.launch();
      return node;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public String host() {
    return host;
  }

  public int nativePort() {
    return nativePort;
  }

  /** host:port, as {@code cassandra.contactPoints} takes it. */
  public String contactPoint() {
    return host + ":" + nativePort;
  }

  /** Where the node keeps its tables: one directory per keyspace, one per table under it. */
  Path dataDirectory() {
    return dir.resolve("data");
  }

  public Path logFile() {
    return dir.resolve("node.log");
  }

  /**
   * Writes the memtables of these keyspaces' tables to SSTables and waits until they are written
   * (nodetool flush), so that reads that follow find every table of them in the same state: on
   * disk, rather than some in memory and some on disk depending on which memtable filled up first.
   */
  public void flush(String... keyspaces) {
    JMXServiceURL url;
    try {
      url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + jmxPort + "/jmxrmi");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try (JMXConnector jmx = JMXConnectorFactory.connect(url)) {
      MBeanServerConnection server = jmx.getMBeanServerConnection();
      ObjectName storage = new ObjectName("org.apache.cassandra.db:type=StorageService");
      for (String keyspace : keyspaces) {
        server.invoke(
            storage,
            "forceKeyspaceFlush",
            new Object[] {keyspace, new String[0]},
            new String[] {String.class.getName(), String[].class.getName()});
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot flush " + List.of(keyspaces) + " on " + this + " over JMX", e);
    } catch (JMException e) {
      throw new IllegalStateException(
          "cannot flush " + List.of(keyspaces) + " on " + this + ": " + e, e);
    }
  }

  /** Kills the node's JVM at once (SIGKILL), keeping its data for {@link #restart()}. */
  public void kill() {
    if (watchdog == null) {
      return;
    }
    Process process = watchdog;
    watchdog = null;
    try {
      process.getOutputStream().close(); // the watchdog kills the node with SIGKILL
    } catch (IOException e) {
      // already gone
    }
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    try {
      process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Starts the node again on its data, after {@link #kill()}. */
  public void restart() {
    kill();
    try {
      launch();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Kills the node and deletes its data. */
  @Override
  public void close() {
    kill();
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a temporary directory left behind is harmless
    }
  }

  private void launch() throws IOException {
    long started = System.nanoTime();
    List<String> command =
        new ArrayList<>(
            List.of(
                "bash",
                "-c",
                // Run the node in the background; when our stdin closes (kill(), or this JVM died),
                // SIGKILL it.
                "\"$@\" & node=$!; read -r _; kill -9 $node 2>/dev/null; wait $node",
                "cassandra-watchdog"));
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions());
    command.add("-cp");
    command.add(nodeClasspath());
    command.add("org.apache.cassandra.service.CassandraDaemon");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile().toFile()));
    watchdog = builder.start();
    awaitNativePort(started);
    System.out.printf(
        "Cassandra node %s started in %d ms (native port %d, data %s)%n",
        host, (System.nanoTime() - started) / 1_000_000, nativePort, dir);
  }

  private void awaitNativePort(long started) {
    long deadline = started + START_TIMEOUT_MS * 1_000_000;
    while (System.nanoTime() < deadline) {
      // The watchdog waits on its stdin even after the node's JVM is gone: look at its child too.
      boolean nodeGone =
          watchdog.children().findAny().isEmpty() && System.nanoTime() - started > 2_000_000_000L;
      if (!watchdog.isAlive() || nodeGone) {
        String tail = tail();
        kill();
        throw new IllegalStateException(
            "Cassandra node " + host + " exited while starting; its log ends with:\n" + tail);
      }
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress(host, nativePort), 500);
        return;
      } catch (IOException notYet) {
        sleep(250);
      }
    }
    String tail = tail();
    kill();
    throw new IllegalStateException(
        "Cassandra node "
            + host
            + " did not open its native port "
            + nativePort
            + " within "
            + START_TIMEOUT_MS / 1000
            + " s; its log ends with:\n"
            + tail);
  }

  /**
   * The options of Cassandra's conf/jvm17-server.options that matter here, and test-sized memory.
   */
  private List<String> jvmOptions() {
    List<String> options =
        new ArrayList<>(
            List.of(
                "-Xms256m",
                "-Xmx768m",
                "-XX:+UseG1GC",
                "-XX:+ParallelRefProcEnabled",
                "-XX:MaxTenuringThreshold=1",
                "-XX:+ExitOnOutOfMemoryError"));
    if (!Boolean.getBoolean(FULL_JIT_PROPERTY)) {
      // C1 only: the node lives for one test run, and C2's compile threads compete for two cores.
      options.add("-XX:TieredStopAtLevel=1");
    }
    options.addAll(
        List.of(
            "-Djdk.attach.allowAttachSelf=true",
            "-Dio.netty.tryReflectionSetAccessible=true",
            "-Dio.netty.allocator.useCacheForAllThreads=true",
            "-Dio.netty.allocator.maxOrder=11",
            "-Dcassandra-foreground=yes",
            "-Dcassandra.config=" + dir.resolve("cassandra.yaml").toUri(),
            "-Dcassandra.storagedir=" + dir,
            "-Dcassandra.logdir=" + dir.resolve("logs"),
            "-Dlogback.configurationFile=" + dir.resolve("logback.xml"),
            // A test ring starts empty: nothing to wait for before serving.
            "-Dcassandra.skip_wait_for_gossip_to_settle=0",
            "-Dcassandra.ring_delay_ms=1000",
            "-Dcassandra.load_ring_state=false",
            "-Dcassandra.superuser_setup_delay_ms=0",
            "-Dcassandra.jmx.local.port=" + jmxPort));
    for (String export :
        List.of(
            "java.base/jdk.internal.misc",
            "java.management.rmi/com.sun.jmx.remote.internal.rmi",
            "java.rmi/sun.rmi.registry",
            "java.rmi/sun.rmi.server",
            "java.sql/java.sql",
            "java.base/java.lang.ref",
            "jdk.unsupported/sun.misc",
            "jdk.compiler/com.sun.tools.javac.file",
            "jdk.attach/sun.tools.attach")) {
      options.add("--add-exports");
      options.add(export + "=ALL-UNNAMED");
    }
    for (String open :
        List.of(
            "java.base/java.lang.module",
            "java.base/jdk.internal.loader",
            "java.base/jdk.internal.ref",
            "java.base/jdk.internal.reflect",
            "java.base/jdk.internal.math",
            "java.base/jdk.internal.module",
            "java.base/jdk.internal.util.jar",
            "jdk.management/com.sun.management.internal",
            "java.base/sun.nio.ch",
            "java.base/java.io",
            "java.base/java.lang.reflect",
            "jdk.compiler/com.sun.tools.javac",
            "java.base/java.lang",
            "java.base/java.util")) {
      options.add("--add-opens");
      options.add(open + "=ALL-UNNAMED");
    }
    // jamm measures memtable sizes; as an agent it measures exactly, as Cassandra's scripts run it.
    for (String jar : nodeClasspath().split(":")) {
      if (jar.contains("/jamm-")) {
        options.add("-javaagent:" + jar);
      }
    }
    return options;
  }

  private void writeConfig() throws IOException {
    for (String sub : List.of("data", "commitlog", "saved_caches", "hints", "cdc_raw", "logs")) {
      Files.createDirectories(dir.resolve(sub));
    }
    String yaml =
        String.join(
            "\n",
            "cluster_name: viewbase-test",
            "num_tokens: 4",
            "allocate_tokens_for_local_replication_factor: 1",
            "partitioner: org.apache.cassandra.dht.Murmur3Partitioner",
            "endpoint_snitch: SimpleSnitch",
            "data_file_directories: [" + dir.resolve("data") + "]",
            "commitlog_directory: " + dir.resolve("commitlog"),
            "saved_caches_directory: " + dir.resolve("saved_caches"),
            "hints_directory: " + dir.resolve("hints"),
            "cdc_raw_directory: " + dir.resolve("cdc_raw"),
            "commitlog_sync: periodic",
            "commitlog_sync_period: 10000ms",
            "seed_provider:",
            "  - class_name: org.apache.cassandra.locator.SimpleSeedProvider",
            "    parameters:",
            "      - seeds: \"" + seeds + "\"",
            "listen_address: " + host,
            "rpc_address: " + host,
            "storage_port: " + storagePort,
            "native_transport_port: " + nativePort,
            "start_native_transport: true",
            "auto_bootstrap: false",
            "auto_snapshot: false",
            "concurrent_reads: 8",
            "concurrent_writes: 8",
            "concurrent_counter_writes: 2",
            "concurrent_compactors: 1",
            "memtable_heap_space: 64MiB",
            "memtable_offheap_space: 64MiB",
            "key_cache_size: 8MiB",
            // Viewbase items reach 1 MiB and a batch writes an item with its view entries.
            "batch_size_warn_threshold: 4MiB",
            "batch_size_fail_threshold: 32MiB",
            // The machine is shared with builds and other tests: slow is not failed.
            "read_request_timeout: 10000ms",
            "range_request_timeout: 20000ms",
            "write_request_timeout: 10000ms",
            "cas_contention_timeout: 5000ms",
            // Paxos v2 (Cassandra 4.1+) needs fewer rounds per lightweight transaction than v1.
            "paxos_variant: v2",
            "truncate_request_timeout: 60000ms",
            "request_timeout: 20000ms",
            "");
    Files.writeString(dir.resolve("cassandra.yaml"), yaml, StandardCharsets.UTF_8);
    String logback =
        String.join(
            "\n",
            "<configuration>",
            "  <appender name=\"FILE\" class=\"ch.qos.logback.core.FileAppender\">",
            "    <file>" + dir.resolve("logs").resolve("system.log") + "</file>",
            "    <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{24} %msg%n</pattern></encoder>",
            "  </appender>",
            "  <root level=\"INFO\"><appender-ref ref=\"FILE\"/></root>",
            "</configuration>",
            "");
    Files.writeString(dir.resolve("logback.xml"), logback, StandardCharsets.UTF_8);
  }

  private static String nodeClasspath() {
    Path file = classpathFile();
    try {
      return Files.readString(file, StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the Cassandra node classpath " + file, e);
    }
  }

  private static Path classpathFile() {
    String configured = System.getProperty(CLASSPATH_PROPERTY);
    if (configured != null && Files.isRegularFile(Path.of(configured))) {
      return Path.of(configured);
    }
    for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
      Path candidate =
          d.resolve("viewbase-cassandra-node").resolve("target").resolve("cassandra.classpath");
      if (Files.isRegularFile(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException(
        "no Cassandra node classpath (viewbase-cassandra-node/target/cassandra.classpath): "
            + "build it first with mvn -pl viewbase-cassandra-node generate-resources, or test with -am");
  }

  private static int freePort(String host) throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(host))) {
      return socket.getLocalPort();
    }
  }

  private String tail() {
    List<String> out = new ArrayList<>();
    for (Path log : List.of(logFile(), dir.resolve("logs").resolve("system.log"))) {
      try {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        out.addAll(lines.subList(Math.max(0, lines.size() - 30), lines.size()));
      } catch (IOException e) {
        // no such log yet
      }
    }
    return String.join("\n", out);
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for Cassandra", e);
    }
  }

  @Override
  public String toString() {
    return "Cassandra node " + index + " at " + contactPoint();
  }
}
