package io.viewbase.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelConfig;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Netty end of one connection, for any {@link Dialect}: turns each aggregated request into the
 * dialect's request, serves it where the dialect's {@link Dialect.Mode} says (inline on the event
 * loop, started there without waiting, or on the worker pool) and writes its {@link Answer} back as
 * one buffer ({@link ResponseBytes}), without the body for HEAD.
 *
 * <p>HTTP/1.1 answers must leave in request order even when a client pipelines, and a request on a
 * worker may finish after a later read: so a connection serves one request at a time, queues the
 * rest, and stops reading from the socket while it is busy (back-pressure). All state here is
 * touched on the channel's event loop only.
 *
 * <p>Every request gets exactly one answer, in the dialect's shape; an answer for a request that
 * already has one is dropped.
 *
 * <pre>
 * what arrives, or goes wrong                      | answer                  | then
 * -------------------------------------------------+-------------------------+-----------------------
 * a request                                        | the dialect's           | next request
 * a request the decoder could not read             | 400 InvalidInput        | closed: the next request's
 *                                                  |                         |   start cannot be found
 * OversizedRequest (BodyLimit)                     | 413 RequestTooLarge     | closed
 * ConnectionRefusal (ConnectionGuard)              | 408 RequestTimeout or   | closed
 *                                                  |   503 ServerBusy        |
 * a failure no code expects, an Error too, on the  | the dialect's 500       | next request
 *   loop, on a worker or in an async completion    |                         |
 * the worker pool is shut (the server is stopping) | 503 ShuttingDown        | next request
 * an answer whose headers cannot be sent           | 500 InternalError       | as the answer said
 * an answer made after the client closed the       | none (dropped)          | nothing: the queue is
 *   connection (its pipeline is gone)              |                         |   dropped with it
 * </pre>
 */
final class DialectHandler<R, T> extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(DialectHandler.class);

  /** {@code content-type: application/json}, the line most answers carry, encoded once. */
  private static final byte[] JSON_LINE =
      ResponseBytes.lines(Map.of(HttpHeaderNames.CONTENT_TYPE.toString(), ApiResponse.JSON));

  private final Dialect<R, T> dialect;
  private final Executor workers;
  private final ArrayDeque<Pending<R, T>> queue = new ArrayDeque<>();
  private boolean busy;

  /** The request being served and not yet answered, or null. */
  private Pending<R, T> serving;

  /** When {@link #serving} started being served ({@link System#nanoTime}). */
  private long servingSince;

  /** Where answers go, found at the first answer (the pipeline is complete by then). */
  private HttpListener.AnswerRoute answers;

  /** This handler's context on its connection, known from the first answer on. */
  private ChannelHandlerContext connection;

  /** Whether the connection stays open after the answer being written. */
  private boolean writingKeepAlive;

  /** What follows an answer's write: the next request, or the connection's end. */
  private final ChannelFutureListener written = this::written;

  DialectHandler(Dialect<R, T> dialect, Executor workers) {
    this.dialect = dialect;
    this.workers = workers;
  }

  /**
   * One request waiting its turn: to be served, or already answered (a refusal, a request that
   * could not be read).
   */
  private record Pending<R, T>(
      R request, T route, Answer answer, boolean keepAlive, HttpVersion version, boolean head) {}

  /**
   * Queues what arrives and serves it in turn. A request is released here once read (its body is
   * the dialect's copy by then) through the request itself: {@code ReferenceCountUtil.release}
   * would check it against a second interface, which on JDK 17 costs each of the two checks the
   * class's one-entry cache of them.
   */
  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof FullHttpRequest req) {
      try {
        queue.add(toPending(ctx, req));
      } finally {
        req.release();
      }
    } else if (msg instanceof OversizedRequest o) {
      queue.add(
          refused(
              ViewbaseException.of(
                  ErrorCode.RequestTooLarge, "The request body is larger than the server accepts"),
              o.keepAlive()));
    } else if (msg instanceof ConnectionRefusal refusal) {
      // The listener ends the connection (a request that did not arrive in time, or one over the
      // cap): answered in the dialect's shape, then closed.
      queue.add(refused(ViewbaseException.of(refusal.kind().code(), refusal.message()), false));
    } else {
      ReferenceCountUtil.release(msg);
      return;
    }
    if (busy) {
      pauseReads(ctx, true);
    } else {
      serveNext(ctx);
    }
  }

  private Pending<R, T> refused(ViewbaseException why, boolean keepAlive) {
    return new Pending<>(
        null, null, dialect.error(null, why), keepAlive, HttpVersion.HTTP_1_1, false);
  }

  private Pending<R, T> toPending(ChannelHandlerContext ctx, FullHttpRequest req) {
    if (req.decoderResult().isFailure()) {
      Throwable cause = req.decoderResult().cause();
      // After a framing error the next request's start cannot be found: close.
      if (cause instanceof TooLongFrameException) {
        // A request line or headers over the listener's limits: the request is too large, as a
        // body over its limit is, not malformed.
        return refused(
            ViewbaseException.of(
                ErrorCode.RequestTooLarge,
                "The request line or headers are larger than the server accepts",
                "reason",
                cause.getMessage()),
            false);
      }
      return refused(
          ViewbaseException.of(
              ErrorCode.InvalidInput,
              "Malformed HTTP request",
              "reason",
              cause == null ? "unreadable" : cause.getMessage()),
          false);
    }
    R request = null;
    try {
      request = dialect.read(ctx, req);
      T route = dialect.route(request);
      return new Pending<>(
          request,
          route,
          null,
          HttpUtil.isKeepAlive(req),
          req.protocolVersion(),
          HttpMethod.HEAD.equals(req.method()));
    } catch (RuntimeException | Error e) {
      return new Pending<>(
          request, null, dialect.failure(request, null, e), false, HttpVersion.HTTP_1_1, false);
    }
  }

  /** Stops or resumes reading the connection; only a change is written (an atomic swap). */
  private static void pauseReads(ChannelHandlerContext ctx, boolean pause) {
    ChannelConfig config = ctx.channel().config();
    if (config.isAutoRead() == pause) {
      config.setAutoRead(!pause);
    }
  }

  private void serveNext(ChannelHandlerContext ctx) {
    Pending<R, T> p = queue.poll();
    if (p == null) {
      pauseReads(ctx, false);
      return;
    }
    busy = true;
    serving = p;
    servingSince = System.nanoTime();
    dialect.started();
    try {
      serve(ctx, p);
    } catch (RuntimeException | Error e) {
      write(
          ctx,
          p,
          dialect.failure(p.request(), p.route(), e)); // dropped if answered before the failure
    }
  }

  /** Serves the request where it belongs; {@link #write} gets its answer now or later, once. */
  private void serve(ChannelHandlerContext ctx, Pending<R, T> p) {
    if (p.answer() != null) {
      write(ctx, p, p.answer());
      return;
    }
    switch (dialect.mode(p.request(), p.route())) {
      case INLINE -> write(ctx, p, dialect.serve(p.request(), p.route()));
      case ASYNC ->
          dialect
              .serveAsync(p.request(), p.route(), ctx.executor())
              .whenComplete((answer, failure) -> completed(ctx, p, answer, failure));
      case WORKERS -> {
        try {
          workers.execute(
              () -> {
                Answer answer;
                try {
                  answer = dialect.serve(p.request(), p.route());
                } catch (RuntimeException | Error e) {
                  answer = dialect.failure(p.request(), p.route(), e);
                }
                Answer done = answer;
                ctx.executor().execute(() -> write(ctx, p, done));
              });
        } catch (RejectedExecutionException shuttingDown) {
          write(
              ctx,
              p,
              dialect.error(
                  p.route(),
                  ViewbaseException.of(ErrorCode.ShuttingDown, "The server is shutting down")));
        }
      }
    }
  }

  /** An asynchronous request's completion: on this event loop, unless it could not get there. */
  private void completed(
      ChannelHandlerContext ctx, Pending<R, T> p, Answer answer, Throwable failure) {
    if (!ctx.executor().inEventLoop()) {
      ctx.executor().execute(() -> completed(ctx, p, answer, failure));
      return;
    }
    write(
        ctx,
        p,
        failure == null
            ? answer
            : dialect.failure(p.request(), p.route(), Futures.unwrap(failure)));
  }

  private void write(ChannelHandlerContext ctx, Pending<R, T> p, Answer answer) {
    if (serving != p) {
      LOG.warn("Dropping a second answer ({}) to one request", answer.status());
      return;
    }
    serving = null;
    // Counted as answered before the bytes leave: a client that has read its answer (and sends its
    // next request, perhaps on another connection) never sees it still in flight.
    dialect.finished(p.request(), p.route(), answer, System.nanoTime() - servingSince);
    boolean keepAlive = p.keepAlive() && ctx.channel().isActive();
    if (answers == null) {
      answers = HttpListener.answerRoute(ctx);
      connection = ctx;
    }
    ByteBuf out;
    try {
      out = encode(ctx, p, answer, keepAlive, answers.keepAliveLine());
    } catch (RuntimeException | Error badHeader) { // a header value it cannot send
      LOG.warn("Answering 500: cannot encode the answer: {}", badHeader.toString());
      out =
          encode(
              ctx,
              p,
              dialect.error(
                  p.route(),
                  ViewbaseException.of(
                      ErrorCode.InternalError, "The server could not encode its answer")),
              keepAlive,
              answers.keepAliveLine());
    }
    if (answers.gone()) {
      // The client closed the connection while its answer was being made, and the connection's
      // pipeline is gone: nobody to answer, nothing more to serve.
      out.release();
      busy = false;
      queue.clear();
      return;
    }
    writingKeepAlive = keepAlive;
    answers.write(out).addListener(written);
  }

  private void written(ChannelFuture f) {
    answers.written();
    busy = false;
    if (!writingKeepAlive || !f.isSuccess()) {
      queue.clear();
      connection.close();
    } else {
      serveNext(connection);
    }
  }

  /** The answer as one buffer; a HEAD request's without its body. */
  private static ByteBuf encode(
      ChannelHandlerContext ctx,
      Pending<?, ?> p,
      Answer answer,
      boolean keepAlive,
      byte[] keepAliveLine) {
    byte[] body = answer.body();
    ResponseBytes out = ResponseBytes.start(ctx.alloc(), p.version(), answer.status(), body.length);
    String type = answer.contentType();
    if (ApiResponse.JSON.equals(type)) {
      out.lines(JSON_LINE);
    } else if (type != null) {
      out.header(HttpHeaderNames.CONTENT_TYPE, type);
    }
    out.header(HttpHeaderNames.CONTENT_LENGTH, body.length);
    answer.writeHeaders(out);
    return out.keepAlive(keepAlive, keepAliveLine).finish(body, p.head());
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    // Mostly peers resetting connections; nothing to answer on a broken channel.
    LOG.debug("Closing connection {} after {}", ctx.channel().remoteAddress(), cause.toString());
    ctx.close();
  }
}
