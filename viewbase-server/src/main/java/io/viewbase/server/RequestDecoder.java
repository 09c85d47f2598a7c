package io.viewbase.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.List;

/**
 * Netty's request decoder, telling the connection's {@link ConnectionGuard} where each request's
 * headers and body end, and whether bytes of a next request wait behind one, so that its timeouts
 * know what the connection is waiting for.
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
      if (message instanceof HttpRequest) {
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
}
