package io.viewbase.server;

import io.viewbase.api.ErrorCode;
import io.viewbase.json.ErrorJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** A small java.net.http client for the tests: one call per request, bodies as strings. */
final class TestHttp {
  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private final String base;

  TestHttp(int port) {
    this.base = "http://127.0.0.1:" + port;
  }

  HttpResponse<byte[]> send(String method, String path, String body, String... headers) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    if (headers.length > 0) {
      b.headers(headers);
    }
    b.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    return send(b.build());
  }

  HttpResponse<byte[]> sendBytes(String method, String path, byte[] body, String contentType) {
    return send(
        HttpRequest.newBuilder(URI.create(base + path))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", contentType)
            .method(method, HttpRequest.BodyPublishers.ofByteArray(body))
            .build());
  }

  private HttpResponse<byte[]> send(HttpRequest request) {
    try {
      return client.send(request, HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  HttpResponse<byte[]> get(String path) {
    return send("GET", path, null);
  }

  static String text(HttpResponse<byte[]> r) {
    return new String(r.body(), StandardCharsets.UTF_8);
  }

  /** The error code in a JSON error body (fails the test if the body is not one). */
  static ErrorCode code(HttpResponse<byte[]> r) {
    return ErrorJson.read(r.body())
        .orElseThrow(() -> new AssertionError("not a JSON error: " + text(r)))
        .code();
  }
}
