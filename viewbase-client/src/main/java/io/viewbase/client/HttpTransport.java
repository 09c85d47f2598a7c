package io.viewbase.client;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import io.viewbase.json.ErrorJson;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Sends one request to the server and turns every failure into a {@link ViewbaseException}: a JSON
 * error becomes the same code and context the server reported; a server that cannot be reached is
 * {@link ErrorCode#StorageUnavailable}; anything else that is not ours is described by its status.
 */
final class HttpTransport {
  static final String JSON = "application/json";

  private final HttpClient client;
  private final String base;
  private final Duration timeout;
  private volatile boolean closed;

  HttpTransport(HttpClient client, URI base, Duration timeout) {
    this.client = client;
    String b = base.toString();
    this.base = b.endsWith("/") ? b.substring(0, b.length() - 1) : b;
    this.timeout = timeout;
  }

  /** A successful answer: its status, body and ETag header (null if none). */
  record Answer(int status, byte[] body, String etag) {
  }

  /** Sends and returns a 2xx answer, or throws the error the server (or the network) gave. */
  Answer send(String method, String pathAndQuery, byte[] body, String... headers) {
    return send(method, pathAndQuery, body, timeout, headers);
  }

  /** As {@link #send(String, String, byte[], String...)}, waiting at most {@code timeout} for the answer. */
  Answer send(String method, String pathAndQuery, byte[] body, Duration timeout, String... headers) {
    if (closed) {
      throw new ViewbaseException(ErrorCode.StorageUnavailable, "The database is closed");
    }
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + pathAndQuery)).timeout(timeout)
        .header("Accept", JSON);
    if (headers.length > 0) {
      b.headers(headers);
    }
    if (body != null) {
      b.header("Content-Type", JSON);
    }
    b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
    HttpResponse<byte[]> response;
    try {
      response = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new ViewbaseException(ErrorCode.StorageUnavailable, "Cannot reach the Viewbase server: " + e,
          Map.of("url", base), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ViewbaseException(ErrorCode.StorageUnavailable, "Interrupted while waiting for the Viewbase server",
          Map.of("url", base), e);
    }
    int status = response.statusCode();
    if (status >= 200 && status < 300) {
      return new Answer(status, response.body(), response.headers().firstValue("ETag").orElse(null));
    }
    throw error(status, response.body());
  }

  private ViewbaseException error(int status, byte[] body) {
    Optional<ViewbaseException> remote = ErrorJson.read(body);
    if (remote.isPresent()) {
      return remote.get();
    }
    ErrorCode code = switch (status) {
      case 404 -> ErrorCode.UnknownEndpoint;
      case 405 -> ErrorCode.MethodNotAllowed;
      case 413 -> ErrorCode.RequestTooLarge;
      case 415 -> ErrorCode.UnsupportedMediaType;
      case 502, 503, 504 -> ErrorCode.StorageUnavailable;
      default -> status >= 500 ? ErrorCode.InternalError : ErrorCode.InvalidInput;
    };
    return ViewbaseException.of(code, "The server answered HTTP " + status + " without a Viewbase error",
        "status", status, "url", base);
  }

  /** The timeout of an ordinary request. */
  Duration timeout() {
    return timeout;
  }

  void close() {
    closed = true;
  }
}
