package io.viewbase.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sits right after a TLS connection's SslHandler and ends the connections whose TLS failed: a
 * handshake that failed or timed out (an untrusted certificate, no common protocol), a plaintext
 * request to the https port, a record that does not decrypt. Each is one debug line and a close,
 * never a stack trace: a port open to a network sees scanners and misconfigured clients all day,
 * and none of it is the server's fault. Nothing of such a connection reaches the dialect (the
 * SslHandler passes on only what it decrypted); any other failure goes on down the pipeline.
 */
final class TlsFailures extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(TlsFailures.class);

  private final String listener;

  TlsFailures(String listener) {
    this.listener = listener;
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
    if (event instanceof SslHandshakeCompletionEvent done && !done.isSuccess()) {
      failed(ctx, done.cause());
      return;
    }
    super.userEventTriggered(ctx, event);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
    Throwable tls =
        cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
    if (tls instanceof SSLException) {
      failed(ctx, tls);
      return;
    }
    super.exceptionCaught(ctx, cause);
  }

  /** Logs once per connection (a failure may come as an event and as an exception) and closes. */
  private void failed(ChannelHandlerContext ctx, Throwable cause) {
    if (ctx.channel().isOpen()) {
      LOG.debug(
          "{}: TLS failed with {}: {}", listener, ctx.channel().remoteAddress(), cause.toString());
    }
    ctx.close();
  }
}
