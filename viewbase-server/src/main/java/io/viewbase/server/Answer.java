package io.viewbase.server;

import io.viewbase.api.Stability;

/**
 * What a {@link Dialect} answers a request with, as the listener writes it: a status, a body with
 * its content type, and the dialect's own headers. The listener adds {@code Content-Type}, {@code
 * Content-Length} and the connection's headers, and leaves out the body of an answer to HEAD.
 */
@Stability(Stability.Level.INTERNAL)
public interface Answer {
  int status();

  /** The body's content type, or null for none. */
  String contentType();

  /** The body; empty, never null. */
  byte[] body();

  /** Writes the answer's own headers (ETag, Location, x-ms-request-id, ...), in order. */
  void writeHeaders(ResponseBytes out);
}
