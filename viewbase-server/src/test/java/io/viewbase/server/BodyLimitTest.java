package io.viewbase.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.json.ErrorJson;
import io.viewbase.server.azure.AzureOptions;
import io.viewbase.server.azure.AzureTablesServer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Request bodies over the limit, on both ports (the limit is the listener's {@link BodyLimit}): the
 * answer is 413 and the connection is closed, before the body is read when its length is declared,
 * and before it is sent when the client waits for {@code 100 Continue}, which only a body within
 * the limit gets. The limit is 4 KiB here; the bodies declared are 200 MB, of which the test sends
 * at most 64 KiB.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BodyLimitTest {
  private static final int LIMIT = 4096;
  private static final long HUGE = 200_000_000L;

  private Database db;
  private ViewbaseServer nativeApi;
  private AzureTablesServer azure;

  /** The two ports, and how each writes an item and says its body is too large. */
  enum Port {
    NATIVE("PUT /v1/tables/Things/items/p/%s", "{\"v\":1}"),
    AZURE("POST /devstoreaccount1/Things", "{\"PartitionKey\":\"p\",\"RowKey\":\"%s\",\"v\":1}");

    final String write;
    final String body;

    Port(String write, String body) {
      this.write = write;
      this.body = body;
    }

    /**
     * The start of a write of item {@code id}, up to its headers' end, with these extra header
     * lines.
     */
    String head(String id, String headers) {
      return String.format(write, id(id))
          + " HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
          + "Accept: application/json;odata=nometadata\r\n"
          + headers
          + "\r\n";
    }

    /** The id an item of this port's test has: the ports share a table. */
    String id(String id) {
      return id + name();
    }

    void assertTooLarge(RawConnection.Response answer) {
      assertThat(answer.status()).as(answer.head() + answer.body()).isEqualTo(413);
      assertThat(answer.header("Connection")).hasValue("close");
      if (this == NATIVE) {
        assertThat(
                ErrorJson.read(answer.body().getBytes(StandardCharsets.UTF_8)).orElseThrow().code())
            .isEqualTo(ErrorCode.RequestTooLarge);
      } else {
        assertThat(answer.header("x-ms-error-code")).hasValue("RequestBodyTooLarge");
      }
    }
  }

  @BeforeAll
  void start() {
    db = Viewbase.open(OpenOptions.inMemory());
    db.createTable("Things");
    nativeApi =
        ViewbaseServer.start(
            db,
            ServerOptions.defaults()
                .withPort(0)
                .withMaxRequestBytes(LIMIT)
                .withIoThreads(1)
                .withWorkerThreads(2));
    azure =
        AzureTablesServer.start(
            db,
            AzureOptions.defaults()
                .withPort(0)
                .withMaxRequestBytes(LIMIT)
                .withAnonymousAccess(true)
                .withIoThreads(1)
                .withWorkerThreads(2));
  }

  @AfterAll
  void stop() {
    nativeApi.close();
    azure.close();
    db.close();
  }

  private int port(Port port) {
    return port == Port.NATIVE ? nativeApi.port() : azure.port();
  }

  @ParameterizedTest
  @EnumSource(Port.class)
  void aDeclaredBodyOverTheLimitIsAnswered413AndTheConnectionClosedWithoutReadingIt(Port port) {
    try (RawConnection connection = new RawConnection(port(port))) {
      connection.send(port.head("huge", "Content-Length: " + HUGE + "\r\n"));
      connection.send(new byte[64 * 1024]);

      port.assertTooLarge(connection.read());
      connection.awaitClose();
    }
    assertThat(db.table("Things").get("p", port.id("huge"))).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(Port.class)
  void aBodyOverTheLimitAfterExpectContinueIsAnswered413BeforeItIsSentAndTheConnectionClosed(
      Port port) {
    try (RawConnection connection = new RawConnection(port(port))) {
      connection.send(
          port.head("expected", "Content-Length: " + HUGE + "\r\nExpect: 100-continue\r\n"));

      port.assertTooLarge(connection.read()); // the first answer: no 100 Continue before it
      connection.awaitClose();
    }
    assertThat(db.table("Things").get("p", port.id("expected"))).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(Port.class)
  void aBodyWithinTheLimitAfterExpectContinueGetsContinueThenItsAnswer(Port port) {
    String body = String.format(port.body, port.id("continued"));
    try (RawConnection connection = new RawConnection(port(port))) {
      connection.send(
          port.head(
              "continued", "Content-Length: " + body.length() + "\r\nExpect: 100-continue\r\n"));
      assertThat(connection.read().status()).isEqualTo(100);

      assertThat(connection.send(body).read().status()).isIn(200, 201);
    }
    assertThat(db.table("Things").get("p", port.id("continued"))).isPresent();
  }

  @ParameterizedTest
  @EnumSource(Port.class)
  void aChunkedBodyGrowingOverTheLimitIsAnswered413AndTheConnectionClosed(Port port) {
    try (RawConnection connection = new RawConnection(port(port))) {
      connection.send(port.head("chunked", "Transfer-Encoding: chunked\r\n"));
      String chunk = "x".repeat(1000);
      connection.send(("3e8\r\n" + chunk + "\r\n").repeat(8));

      port.assertTooLarge(connection.read());
      connection.awaitClose();
    }
    assertThat(db.table("Things").get("p", port.id("chunked"))).isEmpty();
  }

  /**
   * An expectation other than 100-continue is ignored (RFC 9110 allows it) and the request is
   * served.
   */
  @ParameterizedTest
  @EnumSource(Port.class)
  void anUnknownExpectationIsIgnoredAndTheRequestServed(Port port) {
    String body = String.format(port.body, port.id("odd"));
    try (RawConnection connection = new RawConnection(port(port))) {
      connection.send(
          port.head("odd", "Content-Length: " + body.length() + "\r\nExpect: something-else\r\n")
              + body);

      assertThat(connection.read().status()).isIn(200, 201);
    }
  }
}
