package io.viewbase.client;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import io.viewbase.json.ErrorJson;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLHandshakeException;

/**
 * Sends one request to the server and turns every failure into a {@link ViewbaseException}: a JSON
 * error becomes the same code and context the server reported; a server that cannot be reached
 * (nothing was sent) is {@link ErrorCode#StorageUnreachable}; an answer that did not come (a
 * timeout, a connection that ended first, an interrupt) is {@link ErrorCode#Timeout}, since the
 * request may or may not have been applied; anything else that is not ours is described by its
 * status.
 */
final class HttpTransport {
  static final String JSON = "application/json";

  private final HttpClient client;
  private final String base;
  private final Duration timeout;
  private final String authorization;
  private volatile boolean closed;

  /** With an API key, every request carries it as {@code Authorization: Bearer}; null: none. */
  HttpTransport(HttpClient client, URI base, Duration timeout, String apiKey) {
    this.client = client;
    this.authorization = apiKey == null ? null : "Bearer " + apiKey;
    String b = base.toString();
    this.base = b.endsWith("/") ? b.substring(0, b.length() - 1) : b;
    this.timeout = timeout;
  }

  /** A successful answer: its status, body and ETag header (null if none). */
  record Answer(int status, byte[] body, String etag) {}

  /** Sends and returns a 2xx answer, or throws the error the server (or the network) gave. */
  Answer send(String method, String pathAndQuery, byte[] body, String... headers) {
    return send(method, pathAndQuery, body, timeout, headers);
  }

  /**
   * As {@link #send(String, String, byte[], String...)}, waiting at most {@code timeout} for the
   * answer.
   */
  Answer send(
      String method, String pathAndQuery, byte[] body, Duration timeout, String... headers) {
    if (closed) {
      throw new ViewbaseException(ErrorCode.DatabaseClosed, "The database is closed");
    }
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base + pathAndQuery))
            .timeout(timeout)
            .header("Accept", JSON);
    if (headers.length > 0) {
      b.headers(headers);
    }
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    if (body != null) {
      b.header("Content-Type", JSON);
    }
    b.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body));
    HttpResponse<byte[]> response;
    try {
      response = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (ConnectException | HttpConnectTimeoutException e) {
      throw new ViewbaseException(
          ErrorCode.StorageUnreachable,
          "Cannot reach the Viewbase server: " + e,
          Map.of("url", base),
          e);
    } catch (SSLHandshakeException e) {
      // Nothing was sent: the server's certificate is not trusted, or it does not speak TLS.
      throw new ViewbaseException(
          ErrorCode.StorageUnreachable,
          "TLS handshake with the Viewbase server failed (is its certificate trusted, and does it "
              + "speak https?): "
              + e.getMessage(),
          Map.of("url", base),
          e);
    } catch (HttpTimeoutException e) {
      throw new ViewbaseException(
          ErrorCode.Timeout,
          "The Viewbase server did not answer within "
              + timeout
              + "; the request may or may not have been applied",
          Map.of("url", base),
          e);
    } catch (IOException e) {
      throw new ViewbaseException(
          ErrorCode.Timeout,
          "The connection to the Viewbase server ended without an answer ("
              + e
              + "); the request may or may not have been applied",
          Map.of("url", base),
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ViewbaseException(
          ErrorCode.Timeout,
          "Interrupted while waiting for the Viewbase server",
          Map.of("url", base),
          e);
    }
    int status = response.statusCode();
    if (status >= 200 && status < 300) {
      return new Answer(
          status, response.body(), response.headers().firstValue("ETag").orElse(null));
    }
    throw error(status, response.body());
  }

  private ViewbaseException error(int status, byte[] body) {
    Optional<ViewbaseException> remote = ErrorJson.read(body);
    if (remote.isPresent()) {
      return remote.get();
    }
    ErrorCode code =
        switch (status) {
          case 404 -> ErrorCode.UnknownEndpoint;
          case 405 -> ErrorCode.MethodNotAllowed;
          case 413 -> ErrorCode.RequestTooLarge;
          case 415 -> ErrorCode.UnsupportedMediaType;
          case 502, 503 ->
              ErrorCode.StorageUnreachable; // a proxy in front of no (answering) server
          case 504 -> ErrorCode.Timeout;
          default -> status >= 500 ? ErrorCode.InternalError : ErrorCode.InvalidInput;
        };
    return ViewbaseException.of(
        code,
        "The server answered HTTP " + status + " without a Viewbase error",
        "status",
        status,
        "url",
        base);
  }

  /** The timeout of an ordinary request. */
  Duration timeout() {
    return timeout;
  }

  void close() {
    closed = true;
  }
}
