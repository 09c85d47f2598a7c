package io.viewbase.server;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Stability;
import io.viewbase.api.ViewbaseException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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
  private final ScheduledExecutorService keyRefresh;

  private ViewbaseServer(
      HttpListener listener, NativeApi api, ScheduledExecutorService keyRefresh) {
    this.listener = listener;
    this.api = api;
    this.keyRefresh = keyRefresh;
  }

  /**
   * Binds and starts serving; fails with an UncheckedIOException naming the address if it cannot
   * listen.
   *
   * <p>Whether requests need an API key ({@link ApiKeys}):
   *
   * <pre>
   * catalog holds | bind address        | insecure | then
   * --------------+---------------------+----------+----------------------------------------------
   * a key or more | any                 | any      | every request but health needs a key
   * no key        | loopback            | any      | serves openly, as before keys existed
   * no key        | beyond loopback     | false    | refuses to start: ApiKeyRequired, saying how
   *               |   (0.0.0.0, a LAN)  |          |   to make the first key
   * no key        | beyond loopback     | true     | serves openly, and logs a warning
   * </pre>
   *
   * A server that may not serve openly stays closed when its last key is revoked: it then refuses
   * every request but health until a key is made (with {@code viewbase key create --data DIR}).
   *
   * @throws ViewbaseException ApiKeyRequired as the table says
   */
  public static ViewbaseServer start(Database db, ServerOptions options) {
    return start(db, options, new ServerMetrics());
  }

  /**
   * As {@link #start(Database, ServerOptions)}, reporting into {@code metrics} (the process's
   * registry, shared with its other listeners), which {@code GET /metrics} renders; {@code db}'s
   * own measurements are bound to it too.
   */
  public static ViewbaseServer start(Database db, ServerOptions options, ServerMetrics metrics) {
    metrics.bind(db);
    ApiKeys keys = ApiKeys.of(db);
    Boolean loopback = isLoopback(options.bindAddress());
    // an address that does not resolve: the listener below fails naming it, as it always has
    if (!keys.any() && loopback == Boolean.FALSE) {
      if (!options.insecure()) {
        throw new ViewbaseException(
            ErrorCode.ApiKeyRequired,
            "Refusing to serve on "
                + options.bindAddress()
                + " without API keys: anyone who reaches it could read and write everything."
                + " Create a key first with 'viewbase key create --data DIR --scope admin' (the"
                + " server stopped), or start on 127.0.0.1 and create one with 'viewbase key"
                + " create --scope admin', or give --insecure to serve without keys");
      }
      LOG.warn(
          "Serving the native API on {} WITHOUT API keys (insecure): anyone who reaches it can"
              + " read and write everything",
          options.bindAddress());
    }
    NativeApi api =
        new NativeApi(db, metrics, keys, loopback == Boolean.TRUE || options.insecure());
    HttpListener listener =
        HttpListener.start(
            listenerOptions(options), new NativeDialect(api, metrics.requests("native")));
    LOG.info(
        "Viewbase native API listening on {}://{}:{}",
        options.tls() == null ? "http" : "https",
        options.bindAddress(),
        listener.port());
    // Keys another process changes (a server on the same Cassandra keyspace) apply here so soon.
    ScheduledExecutorService keyRefresh =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "viewbase-key-refresh");
              t.setDaemon(true);
              return t;
            });
    long every = ApiKeys.REFRESH.toMillis();
    keyRefresh.scheduleWithFixedDelay(keys::refresh, every, every, TimeUnit.MILLISECONDS);
    return new ViewbaseServer(listener, api, keyRefresh);
  }

  /** Whether the address is a loopback one; null for a name that does not resolve. */
  private static Boolean isLoopback(String address) {
    try {
      return InetAddress.getByName(address).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return null;
    }
  }

  /** What the listener takes from the options. */
  static ListenerOptions listenerOptions(ServerOptions options) {
    return ListenerOptions.of("viewbase", options);
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
    keyRefresh.shutdownNow();
    api.close();
    listener.close();
  }
}
