package io.viewbase.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A request stops counting as in flight before its answer's bytes reach the socket: a client that
 * has read its answer and sends the next request (perhaps on another connection, served by another
 * event loop) must never find the first still counted, or a test or operator that waits for "n in
 * flight" acts on a request that has not arrived.
 */
class DialectHandlerCountTest {
  /** Answers every request 200 inline and counts what is in flight. */
  private static final class Counting extends PathDialect {
    final AtomicInteger inFlight = new AtomicInteger();

    @Override
    public Mode mode(String request, String route) {
      return Mode.INLINE;
    }

    @Override
    public Answer serve(String request, String route) {
      return ApiResponse.text(200, "text/plain", "ok");
    }

    @Override
    public void started() {
      inFlight.incrementAndGet();
    }

    final List<String> finished = new ArrayList<>();

    @Override
    public void finished(String request, String route, Answer answer, long nanos) {
      inFlight.decrementAndGet();
      finished.add(route + " " + answer.status() + " " + (nanos >= 0));
    }
  }

  @Test
  void anAnswerLeavesWithItsRequestNoLongerInFlight() {
    Counting dialect = new Counting();
    List<Integer> inFlightAsBytesLeave = new ArrayList<>();
    EmbeddedChannel channel =
        new EmbeddedChannel(
            new ChannelOutboundHandlerAdapter() {
              @Override
              public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                inFlightAsBytesLeave.add(dialect.inFlight.get());
                ctx.write(msg, promise);
              }
            });
    channel.pipeline().addLast(HttpListener.ENCODER, new HttpResponseEncoder());
    channel.pipeline().addLast("api", new DialectHandler<>(dialect, Runnable::run));

    for (int i = 0; i < 3; i++) {
      channel.writeInbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/x"));
    }

    assertThat(inFlightAsBytesLeave).containsExactly(0, 0, 0);
    assertThat(dialect.inFlight).hasValue(0);
    // each request finished once, with its route, its answer and a time
    assertThat(dialect.finished).containsExactly("/x 200 true", "/x 200 true", "/x 200 true");
    ByteBuf first = channel.readOutbound();
    assertThat(first.toString(StandardCharsets.US_ASCII)).startsWith("HTTP/1.1 200 OK\r\n");
    channel.finishAndReleaseAll();
  }
}
