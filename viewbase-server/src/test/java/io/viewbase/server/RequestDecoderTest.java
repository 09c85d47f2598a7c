package io.viewbase.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequestDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The listener's request decoder hands on a request without a body whole, made as Netty's
 * aggregator would make it: the dialect reads the same method, target, version, headers (a {@code
 * Content-Length: 0} added where none was sent), body and trailers either way. Each request is read
 * through the listener's own handlers and, for reference, through Netty's decoder and aggregator
 * alone.
 */
class RequestDecoderTest {
  /** What a dialect can read of a request, as text. */
  private static String shape(FullHttpRequest r) {
    List<String> headers = new ArrayList<>();
    for (Map.Entry<String, String> h : r.headers()) {
      headers.add(h.getKey() + ": " + h.getValue());
    }
    return r.method()
        + " "
        + r.uri()
        + " "
        + r.protocolVersion()
        + " "
        + headers
        + " body["
        + ByteBufUtil.hexDump(r.content())
        + "] trailers"
        + r.trailingHeaders().names()
        + " "
        + r.decoderResult();
  }

  /** The shapes of the requests Netty's decoder and aggregator make of these bytes. */
  private static List<String> aggregated(String requests) {
    EmbeddedChannel channel =
        new EmbeddedChannel(new HttpRequestDecoder(), new HttpObjectAggregator(1 << 20));
    channel.writeInbound(Unpooled.copiedBuffer(requests, StandardCharsets.ISO_8859_1));
    List<String> shapes = new ArrayList<>();
    for (Object m; (m = channel.readInbound()) != null; ) {
      FullHttpRequest request = (FullHttpRequest) m;
      shapes.add(shape(request));
      request.release();
    }
    channel.finishAndReleaseAll();
    return shapes;
  }

  /** The shapes of the requests the listener's dialect reads of these bytes, and the statuses. */
  private static List<String> read(String requests, List<Integer> statuses) {
    List<String> shapes = new ArrayList<>();
    PathDialect recording =
        new PathDialect() {
          @Override
          public String read(ChannelHandlerContext ctx, FullHttpRequest request) {
            shapes.add(shape(request));
            return request.uri();
          }

          @Override
          public Mode mode(String request, String route) {
            return Mode.INLINE;
          }

          @Override
          public Answer serve(String request, String route) {
            return ApiResponse.json(200, "{}".getBytes(StandardCharsets.UTF_8));
          }
        };
    PipelineExchange exchange =
        new PipelineExchange(ViewbaseServer.listenerOptions(ServerOptions.defaults()), recording);
    statuses.addAll(exchange.statuses(requests.getBytes(StandardCharsets.ISO_8859_1)));
    return shapes;
  }

  private static void assertReadAsAggregated(String requests, int count) {
    List<Integer> statuses = new ArrayList<>();
    List<String> shapes = read(requests, statuses);
    assertThat(shapes).hasSize(count).isEqualTo(aggregated(requests));
    assertThat(statuses).containsOnly(200).hasSize(count);
  }

  @Test
  void aRequestWithoutABodyIsReadAsTheAggregatorMakesIt() {
    assertReadAsAggregated("GET /v1/tables/T/items/p/i HTTP/1.1\r\nHost: a\r\n\r\n", 1);
    assertReadAsAggregated("GET /x?y=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n", 1);
    assertReadAsAggregated("DELETE /x HTTP/1.1\r\nHost: a\r\nIf-Match: *\r\nX-A: 1\r\n\r\n", 1);
    assertReadAsAggregated("GET /x HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", 1);
    assertReadAsAggregated("HEAD /x HTTP/1.1\r\nHost: a\r\n\r\n", 1);
  }

  @Test
  void pipelinedRequestsWithAndWithoutBodiesAreReadAsTheAggregatorMakesThem() {
    String get = "GET /a HTTP/1.1\r\nHost: a\r\n\r\n";
    String put = "PUT /b HTTP/1.1\r\nHost: a\r\nContent-Length: 7\r\n\r\n{\"v\":1}";
    String chunked =
        "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n";
    assertReadAsAggregated(get + put + get + chunked + get, 5);
  }

  @Test
  void aRequestThatExpectsContinueIsLeftToTheAggregator() {
    String request = "GET /x HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\n\r\n";
    List<Integer> statuses = new ArrayList<>();
    assertThat(read(request, statuses)).isEqualTo(aggregated(request));
    assertThat(statuses).endsWith(200);
  }
}
