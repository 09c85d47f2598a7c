package io.viewbase.server;

import io.viewbase.api.Stability;

/**
 * How a {@link ViewbaseServer} listens and how many threads it uses.
 *
 * @param bindAddress the address to listen on (default {@code 127.0.0.1}: local only)
 * @param port the TCP port (default 8080); 0 picks a free one, see {@link ViewbaseServer#port()}
 * @param maxRequestBytes the largest request body accepted (default 8 MiB); larger ones get 413
 * @param ioThreads event-loop threads that parse HTTP and serve point reads (default: cores)
 * @param workerThreads threads that run writes and queries (default 64). Durable writes block for
 *     an fsync and group commit shares one sync among many concurrent writers, so this is sized for
 *     concurrency, not for cores.
 * @param connections how many connections may be open and how long they may keep the server waiting
 *     (default {@link ConnectionLimits#defaults()}: 10,000; idle 120 s, headers 30 s, body 120 s)
 * @param tls the certificate and key to serve https with, and only https (default null: plain
 *     http); see {@link TlsSettings}
 * @param insecure whether a server bound beyond loopback may start, and serve everyone, while the
 *     catalog holds no API key (default false: {@link ViewbaseServer#start} refuses); with keys it
 *     changes nothing
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record ServerOptions(
    String bindAddress,
    int port,
    int maxRequestBytes,
    int ioThreads,
    int workerThreads,
    ConnectionLimits connections,
    TlsSettings tls,
    boolean insecure)
    implements ListenerOptions.Source {
  public static final int DEFAULT_PORT = 8080;
  public static final int DEFAULT_MAX_REQUEST_BYTES = 8 << 20;
  public static final int DEFAULT_WORKER_THREADS = 64;

  public ServerOptions {
    if (bindAddress == null || bindAddress.isBlank()) {
      throw new IllegalArgumentException("bindAddress must name an address, for example 127.0.0.1");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be 0..65535, was " + port);
    }
    if (maxRequestBytes < 1) {
      throw new IllegalArgumentException(
          "maxRequestBytes must be positive, was " + maxRequestBytes);
    }
    if (ioThreads < 1 || workerThreads < 1) {
      throw new IllegalArgumentException("ioThreads and workerThreads must be at least 1");
    }
    if (connections == null) {
      throw new IllegalArgumentException(
          "connections must be given, for example ConnectionLimits.defaults()");
    }
  }

  public static ServerOptions defaults() {
    return new ServerOptions(
        "127.0.0.1",
        DEFAULT_PORT,
        DEFAULT_MAX_REQUEST_BYTES,
        Math.max(1, Runtime.getRuntime().availableProcessors()),
        DEFAULT_WORKER_THREADS,
        ConnectionLimits.defaults(),
        null,
        false);
  }

  public ServerOptions withBindAddress(String address) {
    return new ServerOptions(
        address, port, maxRequestBytes, ioThreads, workerThreads, connections, tls, insecure);
  }

  public ServerOptions withPort(int newPort) {
    return new ServerOptions(
        bindAddress,
        newPort,
        maxRequestBytes,
        ioThreads,
        workerThreads,
        connections,
        tls,
        insecure);
  }

  public ServerOptions withMaxRequestBytes(int bytes) {
    return new ServerOptions(
        bindAddress, port, bytes, ioThreads, workerThreads, connections, tls, insecure);
  }

  public ServerOptions withIoThreads(int threads) {
    return new ServerOptions(
        bindAddress, port, maxRequestBytes, threads, workerThreads, connections, tls, insecure);
  }

  public ServerOptions withWorkerThreads(int threads) {
    return new ServerOptions(
        bindAddress, port, maxRequestBytes, ioThreads, threads, connections, tls, insecure);
  }

  public ServerOptions withConnections(ConnectionLimits limits) {
    return new ServerOptions(
        bindAddress, port, maxRequestBytes, ioThreads, workerThreads, limits, tls, insecure);
  }

  /** The same options serving https only, with these certificate and key (null: plain http). */
  public ServerOptions withTls(TlsSettings settings) {
    return new ServerOptions(
        bindAddress,
        port,
        maxRequestBytes,
        ioThreads,
        workerThreads,
        connections,
        settings,
        insecure);
  }

  public ServerOptions withInsecure(boolean open) {
    return new ServerOptions(
        bindAddress, port, maxRequestBytes, ioThreads, workerThreads, connections, tls, open);
  }
}
