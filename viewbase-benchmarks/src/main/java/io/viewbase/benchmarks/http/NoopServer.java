package io.viewbase.benchmarks.http;

import java.nio.charset.StandardCharsets;

/**
 * An HTTP server that answers every request with {@link #BODY}: a floor for the HTTP library
 * comparison.
 */
interface NoopServer extends AutoCloseable {
  /** Same body as the Viewbase server's health endpoint, so both write the same bytes. */
  byte[] BODY = "{\"status\":\"ok\"}".getBytes(StandardCharsets.UTF_8);

  String LOOPBACK = "127.0.0.1";

  int port();

  @Override
  void close();
}
