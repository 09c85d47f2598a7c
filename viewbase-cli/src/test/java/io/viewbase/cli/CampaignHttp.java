package io.viewbase.cli;

import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.Page;
import io.viewbase.api.Value;
import io.viewbase.json.PageJson;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The crash campaign's native-API client: one JDK HTTP client for every writer and the checker,
 * JSON requests with optional headers, and whole-table scans.
 */
final class CampaignHttp {
  private static final HttpClient HTTP =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private CampaignHttp() {}

  /**
   * Sends a request ({@code json} empty: no body) with {@code headers} as name, value pairs. An
   * IOException means the answer never came: the server died under it, or was already dead.
   */
  static HttpResponse<String> send(
      URI server, String method, String path, String json, String... headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(server.resolve(path))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .method(
                method,
                json.isEmpty()
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(json));
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Every item of a table or a ready view, following continuations. */
  static List<Item> scan(URI server, String table) throws IOException, InterruptedException {
    List<Item> items = new ArrayList<>();
    String continuation = null;
    do {
      String path =
          "/v1/tables/"
              + table
              + "/items?limit=1000"
              + (continuation == null
                  ? ""
                  : "&continuation=" + URLEncoder.encode(continuation, StandardCharsets.UTF_8));
      HttpResponse<String> r = send(server, "GET", path, "");
      if (r.statusCode() != 200) {
        throw new AssertionError("scan of " + table + ": " + r.statusCode() + " " + r.body());
      }
      Page page = PageJson.read(utf8(r.body()), Limits.DEFAULT);
      items.addAll(page.items());
      continuation = page.continuation();
    } while (continuation != null);
    return items;
  }

  /** A string property, or null when absent or not a string. */
  static String text(Item item, String property) {
    Optional<Value> v = item.get(property);
    return v.isPresent() && v.get() instanceof Value.Str s ? s.value() : null;
  }

  /** An integer property (Int32 or Int64). */
  static long number(Item item, String property) {
    Value v = item.get(property).orElseThrow();
    return v instanceof Value.Int64 l ? l.value() : ((Value.Int32) v).value();
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
