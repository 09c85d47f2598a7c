package io.viewbase.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpRequest;
import io.viewbase.api.Stability;
import io.viewbase.api.ViewbaseException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * A protocol an {@link HttpListener} serves: how HTTP requests become calls on a {@link
 * io.viewbase.api.Database} and their results become answers. A dialect is translation only; the
 * connection's work (the request queue, answers in request order, back-pressure, where each request
 * runs, the last-resort answers, the listener's refusals, shutdown) is the listener's, the same for
 * every dialect.
 *
 * <p>Where a request runs is the dialect's call, made on the event loop before it is served:
 *
 * <pre>
 * mode     | served by                         | for (native API; Azure dialect)
 * ---------+-----------------------------------+--------------------------------------------------
 * INLINE   | serve(), on the event loop        | point and catalog reads; Get Entity
 * ASYNC    | serveAsync(), started on the loop | single-item writes; Insert, Update, Merge, Delete
 *          |   and answered there when durable |   Entity and their upsert forms
 * WORKERS  | serve(), on the worker pool       | everything else: queries, batches, table and view changes
 * </pre>
 *
 * {@link #read}, {@link #route}, {@link #mode}, {@link #serveAsync} and {@link #error} run on the
 * event loop, and so does {@link #serve} for an inline request: none of them may block. {@code
 * serve} and {@code serveAsync} answer their own failures (a Viewbase error as its error answer,
 * anything else as {@link #failure} would); the listener still catches what escapes them, on the
 * loop or a worker, and asks {@link #failure}, so that every request is answered exactly once.
 *
 * @param <R> a request as the dialect reads it from the wire
 * @param <T> what the dialect finds the request addresses, worked out once on the event loop to
 *     choose its {@link Mode} and handed to the call that serves it (null where it needs none)
 */
@Stability(Stability.Level.INTERNAL)
public interface Dialect<R, T> {
  /** Where a request is served. */
  enum Mode {
    /** On the event loop, now: cheap work that never waits on a disk. */
    INLINE,
    /** Started on the event loop without waiting; its answer comes back to the loop. */
    ASYNC,
    /** On the worker pool: work that may wait (on a log sync, a scan, a catalog change). */
    WORKERS
  }

  /**
   * The request as this dialect sees it, read from one well-formed HTTP request on the connection.
   * The HTTP request is released once this returns: what the dialect keeps of its body is a copy.
   */
  R read(ChannelHandlerContext ctx, FullHttpRequest request);

  /** What the request addresses, as far as choosing its mode and serving it needs; may be null. */
  T route(R request);

  /** Where the request is served. */
  Mode mode(R request, T route);

  /** Serves an {@link Mode#INLINE} or {@link Mode#WORKERS} request on the calling thread. */
  Answer serve(R request, T route);

  /**
   * Starts an {@link Mode#ASYNC} request; the future completes on {@code answerOn} (the
   * connection's event loop) with the answer, and does not fail.
   */
  CompletableFuture<? extends Answer> serveAsync(R request, T route, Executor answerOn);

  /**
   * The answer, in this dialect's error shape, to an error the listener raises for the request: its
   * refusals ({@link io.viewbase.api.ErrorCode#RequestTooLarge}, {@code RequestTimeout}, {@code
   * ServerBusy}), a request it cannot read ({@code InvalidInput}), one it cannot serve since it is
   * shutting down ({@code ShuttingDown}), or an answer it cannot send ({@code InternalError}).
   *
   * @param route what the request addresses, or null if it was not read
   */
  Answer error(T route, ViewbaseException error);

  /**
   * The answer to a failure no code expected (an {@link Error} too) while the request was read or
   * served: logged by the dialect, answered as its generic 500, which leaks nothing of it.
   *
   * @param request the request, or null if it could not be read
   * @param route what it addresses, or null
   */
  Answer failure(R request, T route, Throwable failure);

  /** Called as a request starts being served, for the dialect's counters. */
  default void started() {}

  /**
   * Called as a request's answer is handed to its connection (before it is flushed, so a client
   * that has read the answer never finds the request still counted), for the dialect's counters:
   * every {@link #started} request ends here exactly once, a refused or unreadable one too.
   *
   * @param request the request, or null if it was not read
   * @param route what it addresses, or null
   * @param answer the answer sent
   * @param nanos how long since it started being served
   */
  default void finished(R request, T route, Answer answer, long nanos) {}
}
