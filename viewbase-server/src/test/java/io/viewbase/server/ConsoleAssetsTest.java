package io.viewbase.server;

import static io.viewbase.server.TestHttp.code;
import static io.viewbase.server.TestHttp.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.json.ErrorJson;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The console's static files as a real server on a real socket answers them: types, caching and
 * security headers, the redirect, 404s in the API's error shape, and no way out of the file list.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleAssetsTest {
  private Database db;
  private ViewbaseServer server;
  private TestHttp http;

  @BeforeAll
  void start(@TempDir Path dir) {
    db = Viewbase.open(OpenOptions.at(dir));
    server = ViewbaseServer.start(db, ServerOptions.defaults().withPort(0).withIoThreads(1));
    http = new TestHttp(server.port());
  }

  @AfterAll
  void stop() {
    server.close();
    db.close();
  }

  @Test
  void consoleWithoutSlashRedirectsToTheDirectory() {
    HttpResponse<byte[]> r = http.get("/console");
    assertThat(r.statusCode()).isEqualTo(301);
    assertThat(r.headers().firstValue("Location")).hasValue("/console/");
  }

  @Test
  void directoryServesIndexHtmlWithStrictSecurityHeaders() {
    HttpResponse<byte[]> r = http.get("/console/");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
    assertThat(r.headers().firstValue("Content-Security-Policy"))
        .hasValue(ConsoleAssets.CONTENT_SECURITY_POLICY);
    assertThat(ConsoleAssets.CONTENT_SECURITY_POLICY)
        .contains("script-src 'self';", "connect-src 'self';")
        .doesNotContain("unsafe-inline", "unsafe-eval");
    assertThat(r.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    assertThat(r.headers().firstValue("Referrer-Policy")).hasValue("no-referrer");
    assertThat(r.headers().firstValue("Cache-Control")).hasValue("no-cache");
    assertThat(r.headers().firstValue("ETag"))
        .hasValueSatisfying(e -> assertThat(e).matches("\"[0-9a-f]{32}\""));
    assertThat(text(r)).contains("<script type=\"module\" src=\"app.js\"></script>");
  }

  @Test
  void everyFileIsServedWithItsTypeAndTheBytesOfTheResource() throws IOException {
    for (String name : ConsoleAssets.FILES) {
      HttpResponse<byte[]> r = http.get("/console/" + name);
      assertThat(r.statusCode()).as(name).isEqualTo(200);
      String type = r.headers().firstValue("Content-Type").orElseThrow();
      assertThat(type)
          .as(name)
          .isEqualTo(
              name.endsWith(".js")
                  ? "text/javascript; charset=utf-8"
                  : name.endsWith(".css") ? "text/css; charset=utf-8" : "text/html; charset=utf-8");
      assertThat(r.body()).as(name).isEqualTo(Files.readAllBytes(sources().resolve(name)));
    }
  }

  @Test
  void theFileListNamesExactlyTheFilesOfTheResourceDirectory() throws IOException {
    try (Stream<Path> files = Files.list(sources())) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrderElementsOf(ConsoleAssets.FILES);
    }
  }

  @Test
  void ifNoneMatchWithTheEtagAnswers304WithoutABody() {
    String etag = http.get("/console/app.js").headers().firstValue("ETag").orElseThrow();
    HttpResponse<byte[]> r = http.send("GET", "/console/app.js", null, "If-None-Match", etag);
    assertThat(r.statusCode()).isEqualTo(304);
    assertThat(r.body()).isEmpty();
    assertThat(r.headers().firstValue("ETag")).hasValue(etag);
    HttpResponse<byte[]> other =
        http.send("GET", "/console/app.js", null, "If-None-Match", "\"other\"");
    assertThat(other.statusCode()).isEqualTo(200);
  }

  @Test
  void unknownFileIs404UnknownEndpointInTheApiErrorShape() {
    HttpResponse<byte[]> r = http.get("/console/missing.js");
    assertThat(r.statusCode()).isEqualTo(404);
    assertThat(code(r)).isEqualTo(ErrorCode.UnknownEndpoint);
    assertThat(ErrorJson.read(r.body()).orElseThrow().context())
        .containsEntry("path", "/console/missing.js");
  }

  /**
   * Sent as raw request lines, so that no client normalizes the dots away: every form of a way out
   * of the directory, or of a second name for a file, misses the list.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "/console/../v1/health",
        "/console/../../pom.xml",
        "/console/%2e%2e/v1/health",
        "/console/%2E%2E%2Fpom.xml",
        "/console/..%2fConsoleAssets.class",
        "/console/..%5cConsoleAssets.class",
        "/console/./index.html",
        "/console//index.html",
        "/console/index.html/",
        "/console/%69ndex.html",
        "/console/index.html%00",
        "/console/index.html;.js",
        "/console/io/viewbase/server/ConsoleAssets.class",
        "/console/console/index.html",
      })
  void pathsOutOfTheFileListAre404(String path) {
    try (RawConnection c = new RawConnection(server.port())) {
      RawConnection.Response r = c.get(path);
      assertThat(r.status()).as(path).isEqualTo(404);
      assertThat(ErrorJson.read(r.body().getBytes(StandardCharsets.UTF_8)).orElseThrow().code())
          .isEqualTo(ErrorCode.UnknownEndpoint);
    }
  }

  @Test
  void consolePrefixOfAnotherNameIsNotTheConsole() {
    assertThat(RouteMatch.of("/consoles").route()).isEqualTo(Route.UNKNOWN);
    assertThat(RouteMatch.of("/console").route()).isEqualTo(Route.CONSOLE);
    assertThat(RouteMatch.of("/console/app.js").route()).isEqualTo(Route.CONSOLE);
    assertThat(NativeApi.runsInline("GET", RouteMatch.of("/console/app.js"))).isTrue();
  }

  @Test
  void queryParametersAndOtherMethodsAreRefusedAsEverywhere() {
    HttpResponse<byte[]> query = http.get("/console/?key=x");
    assertThat(query.statusCode()).isEqualTo(400);
    assertThat(code(query)).isEqualTo(ErrorCode.InvalidQuery);
    HttpResponse<byte[]> post = http.send("POST", "/console/index.html", "{}");
    assertThat(post.statusCode()).isEqualTo(405);
    assertThat(code(post)).isEqualTo(ErrorCode.MethodNotAllowed);
    assertThat(post.headers().firstValue("Allow")).hasValue("GET");
  }

  @Test
  void answersAreCountedUnderTheConsoleLabel() {
    http.get("/console/");
    assertThat(text(http.get("/metrics")))
        .contains(
            "viewbase_http_requests_seconds_count{dialect=\"native\",route=\"console\",status=\"200\"}");
  }

  @Test
  void whereKeysAreRequiredTheFilesNeedNoneButTheApiDoes(@TempDir Path dir) {
    try (Database keyed = Viewbase.open(OpenOptions.at(dir))) {
      ApiKeys.of(keyed).create(KeyScope.READ, List.of(), "reader");
      try (ViewbaseServer closed =
          ViewbaseServer.start(keyed, ServerOptions.defaults().withPort(0).withIoThreads(1))) {
        TestHttp client = new TestHttp(closed.port());
        assertThat(client.get("/console/").statusCode()).isEqualTo(200);
        assertThat(client.get("/console/api.js").statusCode()).isEqualTo(200);
        assertThat(client.get("/console").statusCode()).isEqualTo(301);
        HttpResponse<byte[]> api = client.get("/v1/tables");
        assertThat(api.statusCode()).isEqualTo(401);
        assertThat(code(api)).isEqualTo(ErrorCode.ApiKeyRequired);
      }
    }
  }

  private static Path sources() {
    return Path.of("src/main/resources/io/viewbase/server/console");
  }
}
