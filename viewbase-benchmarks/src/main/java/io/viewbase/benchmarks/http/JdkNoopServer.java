package io.viewbase.benchmarks.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The JDK's built-in {@code com.sun.net.httpserver.HttpServer} answering every request with the
 * same small JSON body as {@link NettyNoopServer}: the library comparison's alternative that needs
 * no dependency. Handlers run on a pool of {@code ioThreads} threads, its usual production set-up,
 * with TCP_NODELAY on as any keep-alive deployment of it needs.
 */
final class JdkNoopServer implements NoopServer {
  private final HttpServer server;
  private final ExecutorService executor;

  JdkNoopServer(int port, int ioThreads) throws IOException {
    // Without TCP_NODELAY the JDK server's separate header and body writes meet the client's
    // delayed ACK: ~40 ms per keep-alive request (measured: under 1000 req/s). Read once, when
    // the server classes first load, so set it before the first create.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    server = HttpServer.create(new InetSocketAddress(NoopServer.LOOPBACK, port), 1024);
    executor = Executors.newFixedThreadPool(ioThreads);
    server.setExecutor(executor);
    server.createContext("/", JdkNoopServer::handle);
    server.start();
  }

  private static void handle(HttpExchange exchange) throws IOException {
    try (InputStream in = exchange.getRequestBody();
        OutputStream out = exchange.getResponseBody()) {
      in.readAllBytes();
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, NoopServer.BODY.length);
      out.write(NoopServer.BODY);
    }
  }

  @Override
  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
