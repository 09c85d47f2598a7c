package io.viewbase.server.azure;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The listener on a real socket, spoken to in plain HTTP/1.1. */
class AzureServerSocketTest {
  private Database db;
  private AzureTablesServer server;

  @BeforeEach
  void start() {
    db = Viewbase.open(OpenOptions.inMemory());
    server =
        AzureTablesServer.start(
            db,
            AzureOptions.defaults()
                .withPort(0)
                .withMaxRequestBytes(1024)
                .withAccount("myacct", AzureOptions.DEV_KEY));
  }

  @AfterEach
  void stop() {
    server.close();
    db.close();
  }

  /**
   * Sends raw requests on one connection and reads until {@code answers} responses have arrived.
   */
  private String exchange(String requests, int answers) throws IOException {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      out.write(requests.getBytes(StandardCharsets.UTF_8));
      out.flush();
      InputStream in = s.getInputStream();
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      byte[] buf = new byte[8192];
      while (count(got.toString(StandardCharsets.UTF_8), answers)) {
        int n = in.read(buf);
        if (n < 0) {
          break;
        }
        got.write(buf, 0, n);
      }
      return got.toString(StandardCharsets.UTF_8);
    }
  }

  /**
   * Whether fewer than {@code answers} complete responses (status line and body) have been read.
   */
  private static boolean count(String text, int answers) {
    int complete = 0;
    int at = 0;
    while (true) {
      int head = text.indexOf("HTTP/1.1 ", at);
      int end = head < 0 ? -1 : text.indexOf("\r\n\r\n", head);
      if (end < 0) {
        return complete < answers;
      }
      String headers = text.substring(head, end).toLowerCase(java.util.Locale.ROOT);
      int cl = headers.indexOf("content-length: ");
      int length =
          cl < 0
              ? 0
              : Integer.parseInt(headers.substring(cl + 16, headers.indexOf('\r', cl)).trim());
      if (text.length() < end + 4 + length) {
        return complete < answers;
      }
      complete++;
      at = end + 4 + length;
    }
  }

  private static String signedGet(String host, String path, String signedResource) {
    String date = SignedRequests.now();
    String sig = SignedRequests.KEY.sign("GET\n\n\n" + date + "\n" + signedResource);
    String account = signedResource.substring(1, signedResource.indexOf('/', 1));
    return "GET "
        + path
        + " HTTP/1.1\r\nHost: "
        + host
        + "\r\nx-ms-date: "
        + date
        + "\r\nAccept: application/json\r\n"
        + "Authorization: SharedKey "
        + account
        + ":"
        + sig
        + "\r\n\r\n";
  }

  @Test
  void sharedKeyRequestsPipelinedOnOneConnectionAnswerInOrder() throws IOException {
    db.createTable("First");
    String host = "127.0.0.1:" + server.port();

    String answers =
        exchange(
            signedGet(host, "/devstoreaccount1/Tables", "/devstoreaccount1/devstoreaccount1/Tables")
                + signedGet(
                    host,
                    "/devstoreaccount1/First()",
                    "/devstoreaccount1/devstoreaccount1/First()"),
            2);

    assertThat(answers.indexOf("\"TableName\":\"First\""))
        .isPositive()
        .isLessThan(answers.indexOf("$metadata#First\",\"value\":[]"));
    assertThat(answers).contains("x-ms-request-id: ", "x-ms-version: 2019-02-02");
  }

  @Test
  void productionStyleHostNamesTheAccount() throws IOException {
    String answer = exchange(signedGet("myacct.table.localhost", "/Tables", "/myacct/Tables"), 1);

    assertThat(answer)
        .startsWith("HTTP/1.1 200 OK")
        .contains("http://myacct.table.localhost/$metadata#Tables");
  }

  /** The listener reads no more of a body over the limit: the request after it is never read. */
  @Test
  void aBodyOverTheLimitAnswers413RequestBodyTooLargeAndTheConnectionCloses() throws IOException {
    String big = "{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"s\":\"" + "x".repeat(2000) + "\"}";
    String host = "127.0.0.1:" + server.port();

    String answers =
        exchange(
            "POST /devstoreaccount1/T HTTP/1.1\r\nHost: "
                + host
                + "\r\nContent-Type: application/json"
                + "\r\nContent-Length: "
                + big.length()
                + "\r\n\r\n"
                + big
                + signedGet(
                    host, "/devstoreaccount1/Tables", "/devstoreaccount1/devstoreaccount1/Tables"),
            2);

    assertThat(answers)
        .startsWith("HTTP/1.1 413")
        .contains("x-ms-error-code: RequestBodyTooLarge", "connection: close")
        .doesNotContain("HTTP/1.1 200");
  }

  @Test
  void anUnsignedRequestIsRefusedWithAJsonAuthenticationFailed() throws IOException {
    String answer = exchange("GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: x\r\n\r\n", 1);

    assertThat(answer)
        .startsWith("HTTP/1.1 403")
        .contains(
            "x-ms-error-code: AuthenticationFailed",
            "{\"odata.error\":{\"code\":\"AuthenticationFailed\"");
  }
}
