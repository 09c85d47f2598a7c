package io.viewbase.server;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The data explorer's static files (HTML, CSS, JavaScript modules), served by the native API at
 * {@code /console/}: read once from the classpath when the API starts and answered from memory, on
 * the event loop.
 *
 * <p>The files are a fixed list, {@link #FILES}: a request names one of them exactly or is a 404,
 * so no path a client sends ever reaches the classpath or a file system ({@code /console/../x},
 * {@code %2e%2e}, {@code %2f} all miss the list).
 *
 * <pre>
 * request                          | answer
 * ---------------------------------+---------------------------------------------------------
 * GET /console                     | 301 to /console/ (relative module URLs need the slash)
 * GET /console/                    | 200 index.html
 * GET /console/{file in FILES}     | 200 the file; 304 if If-None-Match names its ETag
 * GET /console/{anything else}     | 404 UnknownEndpoint, in the API's error shape
 * </pre>
 *
 * Every file answer carries its {@code Content-Type}, a strong {@code ETag} (a hash of the bytes),
 * {@code Cache-Control: no-cache} (the browser keeps the file but asks each time, so a new server
 * version is seen at once), {@code X-Content-Type-Options: nosniff} and a strict {@code
 * Content-Security-Policy}: scripts and styles only from this origin, no inline script, requests
 * only to this origin.
 */
final class ConsoleAssets {
  static final String PREFIX = "/console";

  /** Every file of the console; adding one to the resources means adding it here. */
  static final List<String> FILES =
      List.of(
          "index.html",
          "console.css",
          "api.js",
          "app.js",
          "dom.js",
          "tables.js",
          "items.js",
          "views.js",
          "query.js",
          "changes.js",
          "templates.js");

  static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
          + "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

  private static final String RESOURCES = "console/";

  private final Map<String, Asset> assets = new LinkedHashMap<>();

  ConsoleAssets() {
    for (String name : FILES) {
      byte[] bytes = read(name);
      assets.put(name, new Asset(contentType(name), bytes, etag(bytes)));
    }
  }

  /** The answer to a GET of {@code rawPath}, a path starting with {@link #PREFIX}. */
  ApiResponse serve(String rawPath, String ifNoneMatch) {
    if (rawPath.equals(PREFIX)) {
      return new ApiResponse(301, null, null, Map.of("Location", PREFIX + "/"));
    }
    String name = rawPath.substring(PREFIX.length() + 1);
    Asset asset = assets.get(name.isEmpty() ? "index.html" : name);
    if (asset == null) {
      throw ViewbaseException.of(
          ErrorCode.UnknownEndpoint, "No console file by this name", "path", rawPath);
    }
    Map<String, String> headers =
        Map.of(
            "ETag", asset.etag(),
            "Cache-Control", "no-cache",
            "X-Content-Type-Options", "nosniff",
            "Content-Security-Policy", CONTENT_SECURITY_POLICY,
            "Referrer-Policy", "no-referrer");
    if (asset.etag().equals(ifNoneMatch)) {
      return new ApiResponse(304, null, null, headers);
    }
    return new ApiResponse(200, asset.contentType(), asset.bytes(), headers);
  }

  private static byte[] read(String name) {
    try (InputStream in = ConsoleAssets.class.getResourceAsStream(RESOURCES + name)) {
      if (in == null) {
        throw new IllegalStateException("The console file " + name + " is not on the classpath");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String contentType(String name) {
    if (name.endsWith(".html")) {
      return "text/html; charset=utf-8";
    }
    if (name.endsWith(".css")) {
      return "text/css; charset=utf-8";
    }
    if (name.endsWith(".js")) {
      return "text/javascript; charset=utf-8";
    }
    throw new IllegalStateException("No content type for the console file " + name);
  }

  private static String etag(byte[] bytes) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(bytes);
      return "\"" + HexFormat.of().formatHex(hash, 0, 16) + "\"";
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** One file, as answered. */
  private record Asset(String contentType, byte[] bytes, String etag) {}
}
