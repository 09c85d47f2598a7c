package io.viewbase.server;

import io.viewbase.api.Stability;
import java.time.Duration;

/**
 * How long a listener's connections may wait on their clients and how many may be open at once; the
 * same for the native API and the Azure dialect, enforced by {@link HttpListener}.
 *
 * <p>The timeouts only ever run while the server waits on the client with nothing of its own in
 * progress: from the moment a request has been read until its answer has been written, the
 * connection is the server's, however long serving or writing takes.
 *
 * <pre>
 * connection is                                  | bounded by     | then
 * -----------------------------------------------+----------------+------------------------------
 * open, no request yet                           | headerTimeout  | closed without an answer
 *   (from the accept)                            |                |
 * kept alive between requests                    | idleTimeout    | closed without an answer
 * reading a request line and headers             | headerTimeout  | 408 (native API), then closed
 *   (from their first byte)                      |                |
 * reading a body (from the end of the headers)   | bodyTimeout    | 408 (native API), then closed
 * serving a request or writing its answer        | nothing        | —
 * one over maxConnections, on accept             | —              | 503 (native API), then closed
 * </pre>
 *
 * The Azure dialect closes without an answer where the native API answers 408 or 503.
 *
 * @param idleTimeout how long a kept-alive connection may wait for its next request (default 120 s)
 * @param headerTimeout how long a request line and headers may take to arrive, from their first
 *     byte or from the accept (default 30 s)
 * @param bodyTimeout how long a body may take to arrive, from the end of its headers (default 120
 *     s: 8 MiB at 70 KB/s)
 * @param maxConnections how many connections the listener keeps open at once (default 10,000)
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record ConnectionLimits(
    Duration idleTimeout, Duration headerTimeout, Duration bodyTimeout, int maxConnections) {
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(120);
  public static final Duration DEFAULT_HEADER_TIMEOUT = Duration.ofSeconds(30);
  public static final Duration DEFAULT_BODY_TIMEOUT = Duration.ofSeconds(120);
  public static final int DEFAULT_MAX_CONNECTIONS = 10_000;

  public ConnectionLimits {
    positive(idleTimeout, "idleTimeout");
    positive(headerTimeout, "headerTimeout");
    positive(bodyTimeout, "bodyTimeout");
    if (maxConnections < 1) {
      throw new IllegalArgumentException(
          "maxConnections must be at least 1, was " + maxConnections);
    }
  }

  public static ConnectionLimits defaults() {
    return new ConnectionLimits(
        DEFAULT_IDLE_TIMEOUT,
        DEFAULT_HEADER_TIMEOUT,
        DEFAULT_BODY_TIMEOUT,
        DEFAULT_MAX_CONNECTIONS);
  }

  public ConnectionLimits withIdleTimeout(Duration timeout) {
    return new ConnectionLimits(timeout, headerTimeout, bodyTimeout, maxConnections);
  }

  public ConnectionLimits withHeaderTimeout(Duration timeout) {
    return new ConnectionLimits(idleTimeout, timeout, bodyTimeout, maxConnections);
  }

  public ConnectionLimits withBodyTimeout(Duration timeout) {
    return new ConnectionLimits(idleTimeout, headerTimeout, timeout, maxConnections);
  }

  public ConnectionLimits withMaxConnections(int max) {
    return new ConnectionLimits(idleTimeout, headerTimeout, bodyTimeout, max);
  }

  /** A timeout as people write it: {@code 200ms}, {@code 30s}, {@code 2m}. */
  static String text(Duration d) {
    long millis = d.toMillis();
    if (millis % 60_000 == 0) {
      return millis / 60_000 + "m";
    }
    return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
  }

  private static void positive(Duration d, String name) {
    if (d == null || d.isNegative() || d.isZero() || d.toMillis() < 1) {
      throw new IllegalArgumentException(name + " must be at least 1 ms, was " + d);
    }
  }
}
