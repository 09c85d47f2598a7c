package io.viewbase.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * First on an https listener's connections, for their first bytes only: a plain HTTP request (it
 * starts with a method's capital letter, where a TLS record starts with 22, a handshake) is
 * answered {@code 400} in plain text saying that the port speaks https only, and the connection is
 * closed; the request is never read. Anything else goes on to the SslHandler, and this handler
 * leaves the pipeline. Without it such a client would see its connection close with no answer,
 * which its library reports as a dropped connection ("the request may or may not have been
 * applied") rather than as the wrong scheme.
 */
final class PlaintextRefusal extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(PlaintextRefusal.class);

  private static final byte[] BODY =
      "This port speaks https only: send the request to https://, not http://\n"
          .getBytes(StandardCharsets.US_ASCII);

  private static final byte[] ANSWER =
      ("HTTP/1.1 400 Bad Request\r\n"
              + "Content-Type: text/plain; charset=utf-8\r\n"
              + "Content-Length: "
              + BODY.length
              + "\r\n"
              + "Connection: close\r\n\r\n"
              + new String(BODY, StandardCharsets.US_ASCII))
          .getBytes(StandardCharsets.US_ASCII);

  private final String listener;

  PlaintextRefusal(String listener) {
    this.listener = listener;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof ByteBuf bytes && bytes.isReadable()) {
      int first = bytes.getUnsignedByte(bytes.readerIndex());
      if (first >= 'A' && first <= 'Z') {
        ReferenceCountUtil.release(msg);
        LOG.debug(
            "{}: plain HTTP from {} on the https port, answered 400",
            listener,
            ctx.channel().remoteAddress());
        ctx.channel().config().setAutoRead(false);
        ctx.writeAndFlush(Unpooled.wrappedBuffer(ANSWER)).addListener(ChannelFutureListener.CLOSE);
        return;
      }
    }
    ctx.pipeline().remove(this);
    ctx.fireChannelRead(msg);
  }
}
