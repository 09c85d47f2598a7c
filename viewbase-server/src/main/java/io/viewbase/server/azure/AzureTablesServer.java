package io.viewbase.server.azure;

import io.viewbase.api.Database;
import io.viewbase.api.Stability;
import io.viewbase.server.HttpListener;
import io.viewbase.server.ListenerOptions;
import io.viewbase.server.ServerMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running Azure Table Storage endpoint over one {@link Database}, so the official Azure SDKs work
 * against Viewbase unchanged: {@code try (AzureTablesServer s = AzureTablesServer.start(db,
 * AzureOptions.defaults())) {...}}. Path-style URLs ({@code
 * http://127.0.0.1:10002/devstoreaccount1/…}) and production-style hosts ({@code
 * <account>.table.<host>}) both work. Closing the server does not close the database; its owner
 * does.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class AzureTablesServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AzureTablesServer.class);

  private final HttpListener listener;

  private AzureTablesServer(HttpListener listener) {
    this.listener = listener;
  }

  /**
   * Binds and starts serving; fails with an UncheckedIOException naming the address if it cannot
   * listen.
   */
  public static AzureTablesServer start(Database db, AzureOptions options) {
    return start(db, options, new ServerMetrics());
  }

  /**
   * Binds and starts serving, counting its requests in {@code metrics} (the process's registry,
   * which the native API's port renders; this port does not answer {@code /metrics}).
   */
  public static AzureTablesServer start(Database db, AzureOptions options, ServerMetrics metrics) {
    AzureApi api = new AzureApi(db, options);
    HttpListener listener =
        HttpListener.start(
            listenerOptions(options), new AzureDialect(api, metrics.requests("azure")));
    LOG.info(
        "Azure Tables dialect listening on {}://{}:{}",
        options.tls() == null ? "http" : "https",
        options.bindAddress(),
        listener.port());
    return new AzureTablesServer(listener);
  }

  /** What the listener takes from the options. */
  static ListenerOptions listenerOptions(AzureOptions options) {
    return ListenerOptions.of("viewbase-azure", options);
  }

  /** The port the server listens on (the one picked, when the options asked for port 0). */
  public int port() {
    return listener.port();
  }

  /**
   * Stops accepting, lets running requests answer (up to ten seconds), then closes every
   * connection.
   */
  @Override
  public void close() {
    listener.close();
  }
}
