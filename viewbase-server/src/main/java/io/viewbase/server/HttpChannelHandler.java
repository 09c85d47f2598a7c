package io.viewbase.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Netty end of one connection: turns each aggregated request into an {@link ApiRequest},
 * serves it inline (reads of an item or the catalog), from the event loop without waiting (a
 * single-item write: its answer comes back to the loop when the write is durable) or on the worker
 * pool (queries, batches, table and view changes), and writes the {@link ApiResponse} back.
 *
 * <p>HTTP/1.1 answers must leave in request order even when a client pipelines, and a write on a
 * worker may finish after a later read: so a connection serves one request at a time, queues the
 * rest, and stops reading from the socket while it is busy (backpressure). All state here is
 * touched on the channel's event loop only.
 *
 * <p>Every request gets exactly one answer: whatever fails on its way (an {@link Error} too, on the
 * event loop, on a worker or in an asynchronous completion) is logged and answered 500, and an
 * answer for a request that already has one is dropped.
 */
final class HttpChannelHandler extends SimpleChannelInboundHandler<Object> {
  private static final Logger LOG = LoggerFactory.getLogger(HttpChannelHandler.class);
  private static final AsciiString JSON = AsciiString.cached(ApiResponse.JSON);

  private final NativeApi api;
  private final ServerMetrics metrics;
  private final Executor workers;
  private final ArrayDeque<Pending> queue = new ArrayDeque<>();
  private boolean busy;
  /** The request being served and not yet answered, or null. */
  private Pending serving;

  HttpChannelHandler(NativeApi api, ServerMetrics metrics, Executor workers) {
    this.api = api;
    this.metrics = metrics;
    this.workers = workers;
  }

  /** One request waiting its turn: either to be served, or already answered (a malformed one). */
  private record Pending(ApiRequest request, RouteMatch match, ApiResponse answer, boolean keepAlive,
      HttpVersion version) {
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof FullHttpRequest req) {
      Pending p;
      try {
        p = toPending(req);
      } catch (RuntimeException | Error e) {
        ApiResponse failed = NativeApi.unexpected(ApiRequest.of(req.method().name(), req.uri()), e);
        metrics.answered(Route.UNKNOWN, failed.status());
        p = new Pending(null, null, failed, false, HttpVersion.HTTP_1_1);
      }
      queue.add(p);
    } else if (msg instanceof OversizedRequest o) {
      ApiResponse tooLarge = ApiResponse.error(ViewbaseException.of(ErrorCode.RequestTooLarge,
          "The request body is larger than the server accepts"));
      metrics.answered(Route.UNKNOWN, tooLarge.status());
      queue.add(new Pending(null, null, tooLarge, o.keepAlive(), HttpVersion.HTTP_1_1));
    } else if (msg instanceof ConnectionRefusal refusal) {
      ApiResponse refused = ApiResponse.error(ViewbaseException.of(
          refusal.kind() == ConnectionRefusal.Kind.REQUEST_TIMEOUT ? ErrorCode.RequestTimeout : ErrorCode.ServerBusy,
          refusal.message()));
      metrics.answered(Route.UNKNOWN, refused.status());
      queue.add(new Pending(null, null, refused, false, HttpVersion.HTTP_1_1));
    } else {
      return;
    }
    if (busy) {
      ctx.channel().config().setAutoRead(false);
    } else {
      serveNext(ctx);
    }
  }

  private Pending toPending(FullHttpRequest req) {
    boolean keepAlive = HttpUtil.isKeepAlive(req);
    if (req.decoderResult().isFailure()) {
      Throwable cause = req.decoderResult().cause();
      ApiResponse bad = ApiResponse.error(ViewbaseException.of(ErrorCode.InvalidInput,
          "Malformed HTTP request: " + (cause == null ? "unreadable" : cause.getMessage())));
      metrics.answered(Route.UNKNOWN, bad.status());
      // After a framing error the next request's start cannot be found: close.
      return new Pending(null, null, bad, false, HttpVersion.HTTP_1_1);
    }
    HttpHeaders h = req.headers();
    ApiRequest request = new ApiRequest(req.method().name(), req.uri(), h.get(HttpHeaderNames.IF_MATCH),
        h.get(HttpHeaderNames.IF_NONE_MATCH), h.get(HttpHeaderNames.CONTENT_TYPE), ByteBufUtil.getBytes(req.content()));
    return new Pending(request, RouteMatch.of(request.rawPath()), null, keepAlive, req.protocolVersion());
  }

  private void serveNext(ChannelHandlerContext ctx) {
    Pending p = queue.poll();
    if (p == null) {
      ctx.channel().config().setAutoRead(true);
      return;
    }
    busy = true;
    serving = p;
    metrics.started();
    try {
      serve(ctx, p);
    } catch (RuntimeException | Error e) {
      write(ctx, p, failed(p, e)); // dropped if the request was answered before the failure
    }
  }

  /** Serves the request where it belongs; {@link #write} gets its answer now or later, once. */
  private void serve(ChannelHandlerContext ctx, Pending p) {
    if (p.answer() != null) {
      write(ctx, p, p.answer());
    } else if (NativeApi.runsInline(p.request().method(), p.match())) {
      write(ctx, p, api.handle(p.request(), p.match()));
    } else if (NativeApi.isItemWrite(p.request().method(), p.match())) {
      CompletableFuture<ApiResponse> answer = api.handleItemWrite(p.request(), p.match(), ctx.executor());
      // completes on this event loop, unless it could not get there
      answer.whenComplete((response, failure) -> onLoop(ctx, () -> write(ctx, p,
          failure == null ? response : failed(p, Futures.unwrap(failure)))));
    } else {
      try {
        workers.execute(() -> {
          ApiResponse response;
          try {
            response = api.handle(p.request(), p.match());
          } catch (RuntimeException | Error e) {
            response = failed(p, e);
          }
          ApiResponse answer = response;
          ctx.executor().execute(() -> write(ctx, p, answer));
        });
      } catch (RejectedExecutionException shuttingDown) {
        write(ctx, p, ApiResponse.error(ViewbaseException.of(ErrorCode.ShuttingDown, "The server is shutting down")));
      }
    }
  }

  /** The answer to a failure that escaped the API (which answers its own): logged, 500, counted. */
  private ApiResponse failed(Pending p, Throwable e) {
    ApiResponse answer = NativeApi.unexpected(p.request() != null ? p.request() : ApiRequest.of("?", "?"), e);
    metrics.answered(p.match() != null ? p.match().route() : Route.UNKNOWN, answer.status());
    return answer;
  }

  private static void onLoop(ChannelHandlerContext ctx, Runnable task) {
    if (ctx.executor().inEventLoop()) {
      task.run();
    } else {
      ctx.executor().execute(task);
    }
  }

  private void write(ChannelHandlerContext ctx, Pending p, ApiResponse response) {
    if (serving != p) {
      LOG.warn("Dropping a second answer ({}) to one request", response.status());
      return;
    }
    serving = null;
    boolean keepAlive = p.keepAlive() && ctx.channel().isActive();
    ByteBuf out;
    try {
      out = encode(ctx, p, response, keepAlive);
    } catch (RuntimeException | Error badHeader) { // a header value it cannot send
      LOG.warn("Answering 500: cannot encode the answer: {}", badHeader.toString());
      out = encode(ctx, p, ApiResponse.error(ViewbaseException.of(ErrorCode.InternalError,
          "The server could not encode its answer")), keepAlive);
    }
    HttpListener.responses(ctx).writeAndFlush(out).addListener((ChannelFutureListener) f -> {
      metrics.finished();
      busy = false;
      if (!keepAlive || !f.isSuccess()) {
        queue.clear();
        ctx.close();
      } else {
        serveNext(ctx);
      }
    });
  }

  /** The response as one buffer (see {@link ResponseBytes}); a HEAD request's without its body. */
  private static ByteBuf encode(ChannelHandlerContext ctx, Pending p, ApiResponse response, boolean keepAlive) {
    byte[] body = response.body();
    ResponseBytes out = ResponseBytes.start(ctx.alloc(), p.version(), response.status(), body.length);
    if (response.contentType() != null) {
      out.header(HttpHeaderNames.CONTENT_TYPE, ApiResponse.JSON.equals(response.contentType()) ? JSON
          : response.contentType());
    }
    out.header(HttpHeaderNames.CONTENT_LENGTH, body.length);
    for (Map.Entry<String, String> e : response.headers().entrySet()) {
      out.header(e.getKey(), e.getValue());
    }
    return out.keepAlive(keepAlive, HttpListener.keepAliveValue(ctx))
        .finish(body, p.request() != null && "HEAD".equals(p.request().method()));
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    // Mostly peers resetting connections; nothing to answer on a broken channel.
    LOG.debug("Closing connection {} after {}", ctx.channel().remoteAddress(), cause.toString());
    ctx.close();
  }
}
