package io.viewbase.benchmarks.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** The servers http-bench.sh drives answer the paths its Lua script requests, on a real socket. */
class HttpBenchServerTest {
  private final HttpClient client = HttpClient.newHttpClient();

  @Test
  void viewbaseServesPreloadedItemsAtTheScriptsPaths() throws Exception {
    try (HttpBenchServer.Running server =
        HttpBenchServer.start(args("viewbase", "--items", "50"))) {
      HttpResponse<String> read = get(server.port(), "/v1/tables/Bench/items/p049/i0000049");
      HttpResponse<String> health = get(server.port(), "/v1/health");

      assertThat(read.statusCode()).isEqualTo(200);
      assertThat(read.body()).contains("\"id\":\"i0000049\"");
      assertThat(health.statusCode()).isEqualTo(200);
    }
  }

  @Test
  void nettyNoopAnswersAnyPathWithTheHealthBody() throws Exception {
    try (HttpBenchServer.Running server = HttpBenchServer.start(args("netty-noop"))) {
      HttpResponse<String> response = get(server.port(), "/v1/health");

      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.body()).isEqualTo("{\"status\":\"ok\"}");
    }
  }

  @Test
  void jdkNoopAnswersAnyPathWithTheHealthBody() throws Exception {
    try (HttpBenchServer.Running server = HttpBenchServer.start(args("jdk-noop"))) {
      HttpResponse<String> response = get(server.port(), "/v1/health");

      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.body()).isEqualTo("{\"status\":\"ok\"}");
    }
  }

  @Test
  void startWhenKindIsUnknownFailsNamingTheKinds() {
    assertThatThrownBy(() -> HttpBenchServer.start(args("tomcat")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("viewbase, netty-noop or jdk-noop");
  }

  private static HttpBenchServer.Arguments args(String... args) {
    return HttpBenchServer.Arguments.parse(args);
  }

  private HttpResponse<String> get(int port, String path) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET().build();
    return client.send(request, HttpResponse.BodyHandlers.ofString());
  }
}
