package io.viewbase.server.dynamodb;

import io.viewbase.api.Database;
import io.viewbase.api.Stability;
import io.viewbase.server.HttpListener;
import io.viewbase.server.ListenerOptions;
import io.viewbase.server.ServerMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running DynamoDB endpoint over one {@link Database}, so the AWS SDKs, the AWS CLI and libraries
 * built on them work against Viewbase unchanged: {@code try (DynamoDbServer s =
 * DynamoDbServer.start(db, DynamoDbOptions.defaults())) {...}}, then point a client at {@code
 * http://127.0.0.1:8000} with any region and the configured keys. Closing the server does not close
 * the database; its owner does.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class DynamoDbServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DynamoDbServer.class);

  private final HttpListener listener;
  private final DynamoDbApi api;

  private DynamoDbServer(HttpListener listener, DynamoDbApi api) {
    this.listener = listener;
    this.api = api;
  }

  /**
   * Binds and starts serving; fails with an UncheckedIOException naming the address if it cannot
   * listen.
   */
  public static DynamoDbServer start(Database db, DynamoDbOptions options) {
    return start(db, options, new ServerMetrics());
  }

  /**
   * Binds and starts serving, counting its requests in {@code metrics} (the process's registry,
   * which the native API's port renders; this port does not answer {@code /metrics}).
   */
  public static DynamoDbServer start(Database db, DynamoDbOptions options, ServerMetrics metrics) {
    DynamoDbApi api = new DynamoDbApi(db, options);
    HttpListener listener =
        HttpListener.start(
            listenerOptions(options), new DynamoDbDialect(api, metrics.requests("dynamodb")));
    LOG.info(
        "DynamoDB dialect listening on {}://{}:{}",
        options.tls() == null ? "http" : "https",
        options.bindAddress(),
        listener.port());
    return new DynamoDbServer(listener, api);
  }

  /** What the listener takes from the options. */
  static ListenerOptions listenerOptions(DynamoDbOptions options) {
    return ListenerOptions.of("viewbase-dynamodb", options);
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
    api.close();
  }
}
