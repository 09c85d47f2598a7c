package io.viewbase.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.List;

/**
 * Netty's request decoder, telling the connection's {@link ConnectionGuard} where each request's
 * headers and body end, and whether bytes of a next request wait behind one, so that its timeouts
 * know what the connection is waiting for.
 *
 * <p>A request without a body (most reads), which Netty's decoder hands on as its headers and then
 * the empty last content, goes on as one {@link FullHttpRequest} made here, as the aggregator
 * ({@link BodyLimit}) would have made it: with {@code Content-Length: 0} if it had none. The
 * aggregator passes a request already whole, so such a request costs it two type checks instead of
 * a composite buffer, a wrapper and the header checks of an aggregation. One that expects {@code
 * 100 Continue} is left to the aggregator, which decides that answer.
 */
final class RequestDecoder extends HttpRequestDecoder {
  private final ConnectionGuard guard;

  RequestDecoder(HttpDecoderConfig config, ConnectionGuard guard) {
    super(config);
    this.guard = guard;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf buffer, List<Object> out)
      throws Exception {
    int before = out.size();
    super.decode(ctx, buffer, out);
    boolean ended = false;
    for (int i = before; i < out.size(); i++) {
      Object message = out.get(i);
      // Found by comparing the class and the instance: an interface check (instanceof HttpRequest)
      // costs more than the rest of this on JDK 17, whose one-entry cache of the interfaces a class
      // was checked against every handler here rewrites.
      if (message.getClass() == DefaultHttpRequest.class
          && i + 1 < out.size()
          && out.get(i + 1) == LastHttpContent.EMPTY_LAST_CONTENT
          && whole((DefaultHttpRequest) message, out, i)) {
        ended = true;
        guard.headersRead(true);
      } else if (message instanceof HttpRequest) {
        // a malformed request comes as one full message: headers and end at once
        ended = message instanceof LastHttpContent;
        guard.headersRead(ended);
      } else if (message instanceof LastHttpContent) {
        ended = true;
        guard.bodyRead();
      }
    }
    if (ended && buffer.isReadable()) {
      guard.bytesAfterRequest(buffer);
    }
  }

  /**
   * Puts the request without a body at {@code i} in {@code out}, whole, in place of its headers and
   * the empty last content after them; false (nothing changed) for one that failed to decode or
   * expects an interim answer.
   */
  private static boolean whole(DefaultHttpRequest request, List<Object> out, int i) {
    HttpHeaders headers = request.headers();
    if (!request.decoderResult().isSuccess() || headers.contains(HttpHeaderNames.EXPECT)) {
      return false;
    }
    if (!headers.contains(HttpHeaderNames.CONTENT_LENGTH)) {
      headers.set(HttpHeaderNames.CONTENT_LENGTH, HttpHeaderValues.ZERO);
    }
    out.set(
        i,
        new DefaultFullHttpRequest(
            request.protocolVersion(),
            request.method(),
            request.uri(),
            Unpooled.EMPTY_BUFFER,
            headers,
            LastHttpContent.EMPTY_LAST_CONTENT.trailingHeaders()));
    out.remove(i + 1);
    return true;
  }
}
