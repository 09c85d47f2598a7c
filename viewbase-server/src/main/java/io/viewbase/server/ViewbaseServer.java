package io.viewbase.server;

import io.viewbase.api.Database;
import io.viewbase.api.Stability;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running Viewbase HTTP server: the native API v1 over one {@link Database}, on Netty (an {@link
 * HttpListener} serving the {@link NativeDialect}). {@code try (ViewbaseServer s =
 * ViewbaseServer.start(db, ServerOptions.defaults())) {...}}. Closing the server does not close the
 * database; its owner does.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class ViewbaseServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ViewbaseServer.class);

  private final HttpListener listener;
  private final NativeApi api;

  private ViewbaseServer(HttpListener listener, NativeApi api) {
    this.listener = listener;
    this.api = api;
  }

  /**
   * Binds and starts serving; fails with an UncheckedIOException naming the address if it cannot
   * listen.
   */
  public static ViewbaseServer start(Database db, ServerOptions options) {
    return start(db, options, new ServerMetrics());
  }

  /**
   * Binds and starts serving, reporting into {@code metrics} (the process's registry, shared with
   * its other listeners), which {@code GET /metrics} renders; {@code db}'s own measurements are
   * bound to it too.
   */
  public static ViewbaseServer start(Database db, ServerOptions options, ServerMetrics metrics) {
    metrics.bind(db);
    NativeApi api = new NativeApi(db, metrics);
    HttpListener listener =
        HttpListener.start(
            "viewbase",
            options.bindAddress(),
            options.port(),
            options.ioThreads(),
            options.workerThreads(),
            options.maxRequestBytes(),
            options.connections(),
            new NativeDialect(api, metrics.requests("native")));
    LOG.info(
        "Viewbase native API listening on http://{}:{}", options.bindAddress(), listener.port());
    return new ViewbaseServer(listener, api);
  }

  /** The port the server listens on (the one picked, when the options asked for port 0). */
  public int port() {
    return listener.port();
  }

  /**
   * Stops accepting connections, lets requests already running finish and answer (up to ten
   * seconds), then closes every connection. Change-feed polls that wait are answered first, with
   * what their feed holds (usually nothing): their clients poll again.
   */
  @Override
  public void close() {
    api.close();
    listener.close();
  }
}
