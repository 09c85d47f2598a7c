package io.viewbase.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** What the Netty adapter owns: body limits, pipelining order, malformed HTTP, keep-alive. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConnectionHandlingTest {
  private static final Pattern STATUS = Pattern.compile("HTTP/1\\.1 (\\d{3}) ");
  private static final Pattern LENGTH = Pattern.compile("(?i)content-length: (\\d+)");

  Database db;
  ViewbaseServer server;
  TestHttp http;

  @BeforeAll
  void start() {
    db = Viewbase.open(OpenOptions.inMemory());
    db.createTable("Things");
    server =
        ViewbaseServer.start(
            db,
            ServerOptions.defaults()
                .withPort(0)
                .withMaxRequestBytes(4096)
                .withWorkerThreads(4)
                .withIoThreads(1));
    http = new TestHttp(server.port());
  }

  @AfterAll
  void stop() {
    server.close();
    db.close();
  }

  @Test
  void bodyOverTheLimitAnswers413AsJsonAndStoresNothing() {
    String body = "{\"v\":\"" + "x".repeat(5000) + "\"}";
    HttpResponse<byte[]> r = http.send("PUT", "/v1/tables/Things/items/p/big", body);
    NativeApiContract.assertError(r, 413, ErrorCode.RequestTooLarge);
    assertThat(db.table("Things").get("p", "big")).isEmpty();
    assertThat(http.get("/v1/health").statusCode()).isEqualTo(200);
  }

  @Test
  void pipelinedRequestsAreAnsweredInOrder() throws IOException {
    String put =
        "PUT /v1/tables/Things/items/p/pipe HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + "Content-Length: 7\r\n\r\n{\"v\":1}";
    String get = "GET /v1/tables/Things/items/p/pipe HTTP/1.1\r\nHost: x\r\n\r\n";
    String missing = "GET /v1/tables/Things/items/p/none HTTP/1.1\r\nHost: x\r\n\r\n";
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write((put + get + missing + get).getBytes(StandardCharsets.US_ASCII));
      out.flush();
      List<Integer> statuses = readResponses(socket.getInputStream(), 4);
      // The GET right after the PUT must see it: answers leave in request order.
      assertThat(statuses).containsExactly(200, 200, 404, 200);
    }
  }

  @Test
  void malformedRequestLineAnswers400AndCloses() throws IOException {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write("GARBAGE\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      assertThat(readResponses(socket.getInputStream(), 1)).containsExactly(400);
      assertThat(socket.getInputStream().read()).isEqualTo(-1);
    }
  }

  /** Every answer is one well-formed response whose Content-Length frames its body exactly. */
  @Test
  void aResponseCarriesItsHeadersAndExactlyItsBody() throws IOException {
    http.send("PUT", "/v1/tables/Things/items/p/framed", "{\"v\":\"" + "y".repeat(700) + "\"}");
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(10_000);
      String get = "GET /v1/tables/Things/items/p/framed HTTP/1.1\r\nHost: x\r\n\r\n";
      socket.getOutputStream().write((get + get).getBytes(StandardCharsets.US_ASCII));
      InputStream in = socket.getInputStream();
      for (int i = 0; i < 2; i++) {
        String head = readHead(in);
        assertThat(head)
            .startsWith("HTTP/1.1 200 OK\r\n")
            .containsIgnoringCase("content-type: application/json")
            .containsIgnoringCase("etag: ");
        String body = new String(in.readNBytes(contentLength(head)), StandardCharsets.UTF_8);
        assertThat(body).startsWith("{").endsWith("}").contains("y".repeat(700));
      }
    }
  }

  /**
   * A HEAD answer has the headers a GET would get, no body: the next answer starts right after
   * them.
   */
  @Test
  void headAnswersWithoutABody() throws IOException {
    http.send("PUT", "/v1/tables/Things/items/p/headed", "{\"v\":1}");
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(10_000);
      String head = "HEAD /v1/health HTTP/1.1\r\nHost: x\r\n\r\n";
      String get = "GET /v1/tables/Things/items/p/headed HTTP/1.1\r\nHost: x\r\n\r\n";
      socket.getOutputStream().write((head + get).getBytes(StandardCharsets.US_ASCII));
      InputStream in = socket.getInputStream();
      String headAnswer = readHead(in);
      assertThat(headAnswer).startsWith("HTTP/1.1 ");
      assertThat(contentLength(headAnswer)).isPositive(); // describes a body it does not send
      assertThat(readHead(in)).startsWith("HTTP/1.1 200 OK\r\n");
    }
  }

  @Test
  void expectContinueGetsAnInterimAnswerBeforeTheBody() throws IOException {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("PUT /v1/tables/Things/items/p/continued HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  + "Content-Length: 7\r\nExpect: 100-continue\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      assertThat(readHead(in)).startsWith("HTTP/1.1 100 Continue\r\n");
      out.write("{\"v\":2}".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      assertThat(readResponses(in, 1)).containsExactly(200);
    }
    assertThat(db.table("Things").get("p", "continued")).isPresent();
  }

  @Test
  void anHttp10ClientAskingForKeepAliveKeepsItsConnection() throws IOException {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(10_000);
      String get = "GET /v1/health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n";
      socket.getOutputStream().write((get + get).getBytes(StandardCharsets.US_ASCII));
      InputStream in = socket.getInputStream();
      for (int i = 0; i < 2; i++) {
        String head = readHead(in);
        assertThat(head)
            .startsWith("HTTP/1.0 200 OK\r\n")
            .containsIgnoringCase("connection: keep-alive");
        in.readNBytes(contentLength(head));
      }
    }
  }

  /** The Content-Length a response head declares; it must declare one. */
  private static int contentLength(String head) {
    Matcher length = LENGTH.matcher(head);
    assertThat(length.find()).as(head).isTrue();
    return Integer.parseInt(length.group(1));
  }

  /** Reads n responses, each framed by its Content-Length, and returns their statuses. */
  private static List<Integer> readResponses(InputStream in, int n) throws IOException {
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String head = readHead(in);
      Matcher status = STATUS.matcher(head);
      assertThat(status.find()).as(head).isTrue();
      statuses.add(Integer.parseInt(status.group(1)));
      Matcher length = LENGTH.matcher(head);
      int bodyLength = length.find() ? Integer.parseInt(length.group(1)) : 0;
      assertThat(in.readNBytes(bodyLength)).hasSize(bodyLength);
    }
    return statuses;
  }

  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("connection closed inside a response head: " + head);
      }
      head.write(b);
      matched =
          (b == '\r' || b == '\n') && "\r\n\r\n".charAt(matched) == b
              ? matched + 1
              : (b == '\r' ? 1 : 0);
    }
    return head.toString(StandardCharsets.US_ASCII);
  }
}
