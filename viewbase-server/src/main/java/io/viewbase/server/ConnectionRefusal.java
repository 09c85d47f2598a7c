package io.viewbase.server;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Stability;

/**
 * Passed down the pipeline to the {@link DialectHandler} when the listener ends a connection that
 * is waiting on its client (a timeout) or that it will not serve (over the cap). The handler
 * answers it in its turn, in the dialect's error shape and with {@code Connection: close}, and then
 * closes. Nothing more is read from the connection either way.
 *
 * @param kind why, and so which error an answer is
 * @param message what to tell the client, for example "The request headers did not arrive within
 *     30s"
 */
@Stability(Stability.Level.INTERNAL)
public record ConnectionRefusal(Kind kind, String message) {
  /**
   * Why a connection is refused, and the error its answer is (whose status the error table names).
   */
  public enum Kind {
    /** A request line, headers or body that did not arrive in time (408). */
    REQUEST_TIMEOUT(ErrorCode.RequestTimeout),
    /** The listener has as many connections open as it may (503). */
    TOO_MANY_CONNECTIONS(ErrorCode.ServerBusy);

    private final ErrorCode code;

    Kind(ErrorCode code) {
      this.code = code;
    }

    public ErrorCode code() {
      return code;
    }
  }
}
