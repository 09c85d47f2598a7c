package io.viewbase.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The request-path fuzz targets' reading of the server's answers. */
class RawExchangeTest {
  private static String answer(int status, String body) {
    return "HTTP/1.1 " + status + " X\r\ncontent-length: " + body.length() + "\r\n\r\n" + body;
  }

  @Test
  void aBodyQuotingAStatusLineIsBodyNotAnotherAnswer() {
    // found by NativeRequestFuzzTest and AzureRequestFuzzTest: a 400 whose reason quotes the
    // request's "HTTP/1.1 APP" was read as a second, malformed answer
    String quoted = "{\"reason\":\"invalid version format: ?X HTTP/1.1 APP\"}";
    assertThat(RawExchange.statusesOf(answer(400, quoted))).containsExactly(400);
  }

  @Test
  void pipelinedAnswersAreReadInOrder() {
    assertThat(
            RawExchange.statusesOf(
                answer(200, "{}") + answer(404, "{\"e\":\"HTTP/1.1 200 OK\"}") + answer(201, "")))
        .containsExactly(200, 404, 201);
  }

  @Test
  void anInterimAnswerAndAnAnswerWithoutItsBodyAreFollowedByTheNext() {
    String continueThenHead =
        "HTTP/1.1 100 Continue\r\n\r\n" + "HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n";
    assertThat(RawExchange.statusesOf(continueThenHead + answer(204, "")))
        .containsExactly(100, 200, 204);
  }

  @Test
  void anHttp10RequestsAnswerIsInHttp10() {
    // an HTTP/1.0 request is answered in HTTP/1.0: before, such answers were skipped unread
    assertThat(RawExchange.statusesOf("HTTP/1.0 400 Bad Request\r\ncontent-length: 2\r\n\r\n{}"))
        .containsExactly(400);
  }

  @Test
  void aMalformedStatusLineOrACutOffHeadFails() {
    assertThatThrownBy(() -> RawExchange.statusesOf("HTTP/2.0 200 OK\r\n\r\n"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("malformed status line");
    assertThatThrownBy(() -> RawExchange.statusesOf("HTTP/1.1 200 OK\r\ncontent-le"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("cut off");
    assertThat(RawExchange.statusesOf("")).isEmpty();
  }
}
