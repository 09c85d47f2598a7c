package io.viewbase.benchmarks.http;

import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.benchmarks.Dataset;
import io.viewbase.benchmarks.DevAccountKey;
import io.viewbase.server.ApiKeys;
import io.viewbase.server.KeyScope;
import io.viewbase.server.ServerOptions;
import io.viewbase.server.TlsSettings;
import io.viewbase.server.ViewbaseServer;
import io.viewbase.server.azure.AzureOptions;
import io.viewbase.server.azure.AzureTablesServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The server side of {@code http-bench.sh}: starts one HTTP server on a free loopback port, writes
 * the port to a file and serves until it is terminated (or {@code --max-seconds} pass, so a
 * forgotten one never lingers).
 *
 * <pre>
 * kind        | serves
 * ------------+---------------------------------------------------------------------------------
 * viewbase    | ViewbaseServer over a durable RocksDB-backed database preloaded with BenchItems
 * azure       | the Azure Tables dialect over the same database (account devstoreaccount1); the
 *             | port file's second line is a table SAS query (read-only, table Bench) for wrk
 * viewbase-   | the same, with API keys: a read key for table Bench (a key with a table list, the
 *   keys      | check that does the most) is the port file's second line, for wrk to send
 * netty-noop  | a bare Netty 4.2 server answering every request with {"status":"ok"}
 * jdk-noop    | the JDK's com.sun.net.httpserver.HttpServer answering the same
 * viewbase-   | two ViewbaseServers over one such database: http, and https with --tls-cert and
 *   tls       | --tls-key; the port file's third line is the https one's port
 * </pre>
 *
 * Usage: {@code HttpBenchServer KIND [--items N] [--io-threads N] [--port-file PATH] [--max-seconds
 * N] [--tls-cert FILE --tls-key FILE]}
 */
public final class HttpBenchServer {
  private HttpBenchServer() {}

  public static void main(String[] args) throws Exception {
    Arguments a = Arguments.parse(args);
    Running running = start(a);
    Runtime.getRuntime().addShutdownHook(new Thread(running::close, "bench-server-shutdown"));
    System.out.println(a.kind() + " listening on 127.0.0.1:" + running.port());
    if (a.portFile() != null) {
      // Written last and atomically: the script starts the load once the file exists.
      Path tmp = a.portFile().resolveSibling(a.portFile().getFileName() + ".tmp");
      String content =
          running.port()
              + (a.kind().equals("azure") ? "\n" + DevAccountKey.readOnlySas("Bench") : "")
              + (running.apiKey() != null ? "\n" + running.apiKey() : "")
              + (running.tlsPort() > 0 ? "\n\n" + running.tlsPort() : "");
      Files.writeString(tmp, content, StandardCharsets.US_ASCII);
      Files.move(tmp, a.portFile(), StandardCopyOption.ATOMIC_MOVE);
    }
    Thread.sleep(a.maxSeconds() * 1000L);
    System.exit(0);
  }

  /** Starts the server that {@code a} asks for on a free loopback port. */
  static Running start(Arguments a) throws Exception {
    List<AutoCloseable> resources = new ArrayList<>();
    try {
      if (a.kind().equals("viewbase-keys")) {
        Database db = loaded(a, resources);
        String key = ApiKeys.of(db).create(KeyScope.READ, List.of("Bench"), "bench").secret();
        ServerOptions options = ServerOptions.defaults().withPort(0).withIoThreads(a.ioThreads());
        return new Running(
            keep(ViewbaseServer.start(db, options), resources).port(), 0, key, resources);
      }
      if (a.kind().equals("viewbase-tls")) {
        Database db = loaded(a, resources);
        ServerOptions options = ServerOptions.defaults().withPort(0).withIoThreads(a.ioThreads());
        int http = keep(ViewbaseServer.start(db, options), resources).port();
        TlsSettings tls = TlsSettings.fromPem(a.tlsCert(), a.tlsKey());
        int https = keep(ViewbaseServer.start(db, options.withTls(tls)), resources).port();
        return new Running(http, https, null, resources);
      }
      int port =
          switch (a.kind()) {
            case "viewbase" -> startViewbase(a, resources);
            case "azure" -> startAzure(a, resources);
            case "netty-noop" -> keep(new NettyNoopServer(0, a.ioThreads()), resources).port();
            case "jdk-noop" -> keep(new JdkNoopServer(0, a.ioThreads()), resources).port();
            default ->
                throw new IllegalArgumentException(
                    "unknown server kind '" + a.kind() + "': use viewbase, netty-noop or jdk-noop");
          };
      return new Running(port, 0, null, resources);
    } catch (Exception | Error e) {
      new Running(0, 0, null, resources).close();
      throw e;
    }
  }

  private static int startViewbase(Arguments a, List<AutoCloseable> resources) throws IOException {
    Database db = loaded(a, resources);
    ServerOptions options = ServerOptions.defaults().withPort(0).withIoThreads(a.ioThreads());
    return keep(ViewbaseServer.start(db, options), resources).port();
  }

  private static int startAzure(Arguments a, List<AutoCloseable> resources) throws IOException {
    Database db = loaded(a, resources);
    AzureOptions options = AzureOptions.defaults().withPort(0).withIoThreads(a.ioThreads());
    return keep(AzureTablesServer.start(db, options), resources).port();
  }

  /** A durable database in a temporary directory, preloaded with the items. */
  private static Database loaded(Arguments a, List<AutoCloseable> resources) throws IOException {
    Path dir = Files.createTempDirectory("viewbase-http-bench");
    resources.add(() -> Dataset.deleteTree(dir));
    // Load without syncing each write (faster), then serve the way a server runs: durable.
    try (Database loading = Viewbase.open(OpenOptions.at(dir).withSync(false))) {
      Dataset.load(loading, a.items());
    }
    return keep(Viewbase.open(OpenOptions.at(dir)), resources);
  }

  /** Remembers a resource to close at exit, most recent first. */
  private static <T extends AutoCloseable> T keep(T resource, List<AutoCloseable> resources) {
    resources.add(0, resource);
    return resource;
  }

  /**
   * A started server (and its https twin's port, or 0), the API key its clients send (or null), and
   * what to close when it stops, most recent first.
   */
  record Running(int port, int tlsPort, String apiKey, List<AutoCloseable> resources)
      implements AutoCloseable {
    @Override
    public void close() {
      for (AutoCloseable r : resources) {
        try {
          r.close();
        } catch (Exception e) {
          System.err.println("while stopping: " + e);
        }
      }
    }
  }

  /** The command line. */
  record Arguments(
      String kind,
      int items,
      int ioThreads,
      Path portFile,
      int maxSeconds,
      Path tlsCert,
      Path tlsKey) {
    static Arguments parse(String[] args) {
      if (args.length == 0) {
        throw new IllegalArgumentException(
            "usage: HttpBenchServer viewbase|azure|netty-noop|jdk-noop [--items N] [--io-threads N] [--port-file PATH] [--max-seconds N] [--tls-cert FILE --tls-key FILE]");
      }
      int items = 100_000;
      int ioThreads = Math.max(1, Runtime.getRuntime().availableProcessors());
      Path portFile = null;
      int maxSeconds = 900;
      Path tlsCert = null;
      Path tlsKey = null;
      for (int i = 1; i < args.length; i += 2) {
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException(args[i] + " needs a value");
        }
        String value = args[i + 1];
        switch (args[i]) {
          case "--items" -> items = Integer.parseInt(value);
          case "--io-threads" -> ioThreads = Integer.parseInt(value);
          case "--port-file" -> portFile = Path.of(value);
          case "--max-seconds" -> maxSeconds = Integer.parseInt(value);
          case "--tls-cert" -> tlsCert = Path.of(value);
          case "--tls-key" -> tlsKey = Path.of(value);
          default -> throw new IllegalArgumentException("unknown option " + args[i]);
        }
      }
      if (args[0].equals("viewbase-tls") && (tlsCert == null || tlsKey == null)) {
        throw new IllegalArgumentException("viewbase-tls needs --tls-cert FILE and --tls-key FILE");
      }
      return new Arguments(args[0], items, ioThreads, portFile, maxSeconds, tlsCert, tlsKey);
    }
  }
}
