package io.viewbase.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ResponseBytesTest {
  private static final UnpooledByteBufAllocator ALLOC = new UnpooledByteBufAllocator(false);

  private static String text(ByteBuf buf) {
    try {
      return buf.toString(StandardCharsets.ISO_8859_1);
    } finally {
      buf.release();
    }
  }

  @Test
  void writesStatusLineHeadersAndBodyInOrder() {
    byte[] body = "{\"a\":1}".getBytes(StandardCharsets.UTF_8);
    ByteBuf out =
        ResponseBytes.start(ALLOC, HttpVersion.HTTP_1_1, 201, body.length)
            .header("Content-Type", "application/json")
            .header("Content-Length", body.length)
            .header("ETag", "W/\"datetime'2026-12-01T00%3A00%3A00.0000000Z'\"")
            .finish(body, false);
    assertThat(text(out))
        .isEqualTo(
            "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 7\r\n"
                + "ETag: W/\"datetime'2026-12-01T00%3A00%3A00.0000000Z'\"\r\n\r\n{\"a\":1}");
  }

  @Test
  void answersInTheRequestsVersionAndLeavesOutAHeadBody() {
    byte[] body = new byte[300];
    ByteBuf out =
        ResponseBytes.start(ALLOC, HttpVersion.HTTP_1_0, 404, body.length)
            .header("Content-Length", 300)
            .finish(body, true);
    assertThat(text(out)).isEqualTo("HTTP/1.0 404 Not Found\r\nContent-Length: 300\r\n\r\n");
    assertThat(text(ResponseBytes.start(ALLOC, HttpVersion.HTTP_1_1, 799, 0).finish(null, false)))
        .startsWith("HTTP/1.1 799 ");
  }

  @Test
  void aValueBeyondLatin1IsWrittenAsItsUtf8Bytes() {
    String echoed =
        "caf\u00e9 \u20ac"; // é is Latin-1 and travels as one byte; € is not, so the value goes as
    // UTF-8
    ByteBuf out =
        ResponseBytes.start(ALLOC, HttpVersion.HTTP_1_1, 200, 0)
            .header("X-Latin", "caf\u00e9")
            .header("X-Echo", echoed)
            .finish(new byte[0], false);
    assertThat(text(out))
        .contains(
            "X-Latin: caf\u00e9\r\n",
            "X-Echo: "
                + new String(echoed.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1)
                + "\r\n");
  }

  @Test
  void aControlCharacterInAValueIsRefusedNotWritten() {
    ResponseBytes out = ResponseBytes.start(ALLOC, HttpVersion.HTTP_1_1, 200, 0);
    assertThatThrownBy(() -> out.header("Location", "/a\r\nSet-Cookie: x=1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Location");
    assertThat(
            text(
                ResponseBytes.start(ALLOC, HttpVersion.HTTP_1_1, 200, 0)
                    .header("X-Tab", "a\tb")
                    .finish(new byte[0], false)))
        .contains("X-Tab: a\tb\r\n");
  }

  @Test
  void aQuestionMarkIsToldApartFromACharacterBeyondLatin1() {
    // ISO-8859-1 encodes a character it lacks as '?': a real '?' must stay one byte, and a value
    // with both goes as UTF-8
    ByteBuf out =
        ResponseBytes.start(ALLOC, HttpVersion.HTTP_1_1, 200, 0)
            .header("Location", "/t?a=\u00e9")
            .header("X-Both", "?\u20ac?")
            .finish(new byte[0], false);
    assertThat(text(out))
        .contains(
            "Location: /t?a=\u00e9\r\n",
            "X-Both: "
                + new String(
                    "?\u20ac?".getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1)
                + "\r\n");
  }

  @Test
  void asciiStringNamesAndValuesAreWrittenAsTheyAreAndCheckedAlike() {
    ByteBuf out =
        ResponseBytes.start(ALLOC, HttpVersion.HTTP_1_1, 200, 0)
            .header(AsciiString.cached("Content-Type"), AsciiString.cached("application/json"))
            .finish(new byte[0], false);
    assertThat(text(out)).contains("Content-Type: application/json\r\n");

    ResponseBytes refused = ResponseBytes.start(ALLOC, HttpVersion.HTTP_1_1, 200, 0);
    assertThatThrownBy(() -> refused.header("X-Bad", new AsciiString("a\nb")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("X-Bad")
        .hasMessageContaining("0xa at 1");
  }

  @Test
  void headerLinesEncodedOnceAreTheBytesHeaderWritesAndFailAlike() {
    java.util.Map<String, String> headers = new java.util.LinkedHashMap<>();
    headers.put("ETag", "W/\"datetime'2026-12-01T00%3A00%3A00.0000000Z'\"");
    headers.put("X-Echo", "caf\u00e9 \u20ac");
    ResponseBytes oneByOne = ResponseBytes.start(ALLOC, HttpVersion.HTTP_1_1, 200, 0);
    headers.forEach(oneByOne::header);
    ByteBuf encodedOnce =
        ResponseBytes.start(ALLOC, HttpVersion.HTTP_1_1, 200, 0)
            .lines(ResponseBytes.lines(headers))
            .finish(null, false);
    assertThat(text(encodedOnce)).isEqualTo(text(oneByOne.finish(null, false)));
    assertThatThrownBy(() -> ResponseBytes.lines(java.util.Map.of("X-Split", "a\r\nSet-Cookie: b")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("X-Split");
    assertThatThrownBy(() -> HeaderLines.of(java.util.Map.of("X-Split", "a\nb")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aNumberValueIsWrittenInDecimal() {
    for (int n : new int[] {0, 7, 10, 99, 100, 12345, Integer.MAX_VALUE, -1}) {
      ByteBuf out =
          ResponseBytes.start(ALLOC, HttpVersion.HTTP_1_1, 200, 0)
              .header("Content-Length", n)
              .finish(null, false);
      assertThat(text(out)).isEqualTo("HTTP/1.1 200 OK\r\nContent-Length: " + n + "\r\n\r\n");
    }
  }

  @Test
  void anApiResponseWithEncodedHeadersWritesThemAsGiven() {
    byte[] body = new byte[0];
    ApiResponse plain =
        new ApiResponse(200, ApiResponse.JSON, body, java.util.Map.of("ETag", "W/\"x\""));
    ApiResponse encoded =
        new ApiResponse(
            200, ApiResponse.JSON, body, HeaderLines.of(java.util.Map.of("ETag", "W/\"x\"")));
    assertThat(encoded).isEqualTo(plain);
    assertThat(encoded.headers()).containsExactly(java.util.Map.entry("ETag", "W/\"x\""));
    ResponseBytes a = ResponseBytes.start(ALLOC, HttpVersion.HTTP_1_1, 200, 0);
    plain.writeHeaders(a);
    ResponseBytes b = ResponseBytes.start(ALLOC, HttpVersion.HTTP_1_1, 200, 0);
    encoded.writeHeaders(b);
    assertThat(text(b.finish(null, false))).isEqualTo(text(a.finish(null, false)));
  }
}
