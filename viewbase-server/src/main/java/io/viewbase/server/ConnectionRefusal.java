package io.viewbase.server;

import io.viewbase.api.Stability;

/**
 * Passed down the pipeline to the protocol handler when the listener ends a connection that is
 * waiting on its client (a timeout) or that it will not serve (over the cap). The handler may
 * answer it at once, in its own error shape and with {@code Connection: close}, and then close; a
 * handler that does not answer it leaves the listener to close the connection without an answer.
 * Nothing more is read from the connection either way.
 *
 * @param kind    why, and so which status an answer has
 * @param message what to tell the client, for example "The request headers did not arrive within 30s"
 */
@Stability(Stability.Level.INTERNAL)
public record ConnectionRefusal(Kind kind, String message) {
  /** Why a connection is refused. */
  public enum Kind {
    /** A request line, headers or body that did not arrive in time: 408. */
    REQUEST_TIMEOUT(408),
    /** The listener has as many connections open as it may: 503. */
    TOO_MANY_CONNECTIONS(503);

    private final int status;

    Kind(int status) {
      this.status = status;
    }

    public int status() {
      return status;
    }
  }
}
