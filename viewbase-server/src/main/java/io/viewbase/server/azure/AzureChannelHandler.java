package io.viewbase.server.azure;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.viewbase.server.ConnectionRefusal;
import io.viewbase.server.HttpListener;
import io.viewbase.server.ResponseBytes;
import io.viewbase.server.OversizedRequest;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Netty end of one Azure-dialect connection: turns each aggregated request into an {@link
 * AzureRequest}, serves point reads inline and everything else on the worker pool, and writes the
 * {@link AzureResponse} back. Answers leave in request order: the connection serves one request at
 * a time, queues the rest and stops reading while busy. All state is touched on the event loop only.
 */
final class AzureChannelHandler extends SimpleChannelInboundHandler<Object> {
  private static final Logger LOG = LoggerFactory.getLogger(AzureChannelHandler.class);

  private final AzureApi api;
  private final Executor workers;
  private final ArrayDeque<Pending> queue = new ArrayDeque<>();
  private boolean busy;

  AzureChannelHandler(AzureApi api, Executor workers) {
    this.api = api;
    this.workers = workers;
  }

  /** One request waiting its turn, or an answer already decided (oversized or malformed). */
  private record Pending(AzureRequest request, AzureResponse answer, boolean keepAlive, HttpVersion version) {
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof FullHttpRequest req) {
      queue.add(toPending(ctx, req));
    } else if (msg instanceof OversizedRequest o) {
      queue.add(new Pending(null, failure(413, "RequestBodyTooLarge",
          "The request body is too large and exceeds the maximum permissible limit."), o.keepAlive(),
          HttpVersion.HTTP_1_1));
    } else if (msg instanceof ConnectionRefusal refusal) {
      // The listener ends the connection (a request that did not arrive in time, or one over the
      // cap): answered in Azure's shape, then closed.
      boolean timeout = refusal.kind() == ConnectionRefusal.Kind.REQUEST_TIMEOUT;
      queue.add(new Pending(null, failure(refusal.kind().status(), timeout ? "OperationTimedOut" : "ServerBusy",
          refusal.message()), false, HttpVersion.HTTP_1_1));
    } else {
      return;
    }
    if (busy) {
      ctx.channel().config().setAutoRead(false);
    } else {
      serveNext(ctx);
    }
  }

  private static AzureResponse failure(int status, String code, String message) {
    String id = RequestIds.next();
    return AzureResponse.of(status, AzureErrors.JSON_ERROR_TYPE,
            AzureErrors.json(code, message, id, AzureTimes.format(java.time.Instant.now())))
        .with("x-ms-error-code", code).with("x-ms-request-id", id).with("x-ms-version", AzureApi.VERSION)
        .with("Date", AzureTimes.httpDateNow());
  }

  private Pending toPending(ChannelHandlerContext ctx, FullHttpRequest req) {
    if (req.decoderResult().isFailure()) {
      Throwable cause = req.decoderResult().cause();
      // After a framing error the next request's start cannot be found: close.
      return new Pending(null, failure(400, "InvalidInput",
          "Malformed HTTP request: " + (cause == null ? "unreadable" : cause.getMessage())), false, HttpVersion.HTTP_1_1);
    }
    String ip = ctx.channel().remoteAddress() instanceof InetSocketAddress a && a.getAddress() != null
        ? a.getAddress().getHostAddress() : null;
    AzureRequest request = new AzureRequest(req.method().name(), req.uri(), new HeaderView(req.headers()),
        ByteBufUtil.getBytes(req.content()), ip);
    return new Pending(request, null, HttpUtil.isKeepAlive(req), req.protocolVersion());
  }

  private void serveNext(ChannelHandlerContext ctx) {
    Pending p = queue.poll();
    if (p == null) {
      ctx.channel().config().setAutoRead(true);
      return;
    }
    busy = true;
    if (p.answer() != null) {
      write(ctx, p, p.answer());
      return;
    }
    if (AzureApi.runsInline(p.request())) {
      write(ctx, p, api.handle(p.request())); // handle answers every failure, Errors included
      return;
    }
    ResourcePath writePath = AzureApi.entityWritePath(p.request());
    if (writePath != null) {
      CompletableFuture<AzureResponse> answer = api.handleAsync(p.request(), writePath, ctx.executor());
      answer.whenComplete((response, failure) -> { // completes on this event loop
        if (failure != null) { // handleAsync answers every failure itself; this is a last resort
          LOG.error("Azure request {} {} failed outside the dialect", p.request().method(), p.request().target(),
              failure);
        }
        write(ctx, p, failure == null ? response
            : failure(500, "InternalError", "The server encountered an internal error; its log has the details."));
      });
      return;
    }
    try {
      workers.execute(() -> {
        AzureResponse response;
        try {
          response = api.handle(p.request()); // answers every failure itself
        } catch (RuntimeException | Error e) { // ...so this is a last resort: never leave a request unanswered
          LOG.error("Azure request {} {} failed outside the dialect", p.request().method(), p.request().target(), e);
          response = failure(500, "InternalError", "The server encountered an internal error; its log has the details.");
        }
        AzureResponse answer = response;
        ctx.executor().execute(() -> write(ctx, p, answer));
      });
    } catch (RejectedExecutionException shuttingDown) {
      write(ctx, p, failure(503, "ServerBusy", "The server is shutting down."));
    }
  }

  private void write(ChannelHandlerContext ctx, Pending p, AzureResponse response) {
    boolean keepAlive = p.keepAlive() && ctx.channel().isActive();
    ByteBuf out;
    try {
      out = encode(ctx, p, response, keepAlive);
    } catch (RuntimeException badHeader) { // a header value it cannot send
      LOG.warn("Answering 500: cannot encode the answer: {}", badHeader.toString());
      out = encode(ctx, p, failure(500, "InternalError", "The server could not encode its answer."), keepAlive);
    }
    HttpListener.responses(ctx).writeAndFlush(out).addListener((ChannelFutureListener) f -> {
      busy = false;
      if (!keepAlive || !f.isSuccess()) {
        queue.clear();
        ctx.close();
      } else {
        serveNext(ctx);
      }
    });
  }

  /**
   * The response as one buffer (see {@link ResponseBytes}); the answer to a HEAD request (Get Table
   * ACL's) without its body.
   */
  private static ByteBuf encode(ChannelHandlerContext ctx, Pending p, AzureResponse response, boolean keepAlive) {
    byte[] body = response.body();
    ResponseBytes out = ResponseBytes.start(ctx.alloc(), p.version(), response.status(), body.length);
    if (response.contentType() != null) {
      out.header(HttpHeaderNames.CONTENT_TYPE, response.contentType());
    }
    out.header(HttpHeaderNames.CONTENT_LENGTH, body.length);
    List<String> pairs = response.headers();
    for (int i = 0; i < pairs.size(); i += 2) {
      out.header(pairs.get(i), headerValue(pairs.get(i + 1)));
    }
    return out.keepAlive(keepAlive, HttpListener.keepAliveValue(ctx))
        .finish(body, p.request() != null && p.request().method().equals("HEAD"));
  }

  /**
   * Header values travel as ISO-8859-1: a client request id holding other characters is echoed as
   * its UTF-8 bytes, which is what the client sent.
   */
  private static String headerValue(String value) {
    for (int i = 0; i < value.length(); i++) {
      if (value.charAt(i) > 0xFF) {
        return new String(value.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
      }
    }
    return value;
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.debug("Closing Azure connection {} after {}", ctx.channel().remoteAddress(), cause.toString());
    ctx.close();
  }
}
