package io.viewbase.server;

import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.viewbase.api.ViewbaseException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The native API v1 as the listener's {@link Dialect}: a request becomes an {@link ApiRequest}
 * routed by its path ({@link RouteMatch}), {@link NativeApi} serves it, and errors are the API's
 * JSON. Every answer is counted and timed in the process's {@link RequestMeters} by route and
 * status.
 *
 * <pre>
 * request                                                   | mode
 * ----------------------------------------------------------+--------
 * GET of an item, a table or a view; table list, health,    | INLINE
 *   metrics, the console's files (from memory)              |
 * PUT, PATCH, DELETE of an item                             | ASYNC
 * GET of a table's changes (a long-poll, no thread waits)   | ASYNC
 * queries, batches, verify, table and view changes          | WORKERS
 * </pre>
 */
final class NativeDialect implements Dialect<ApiRequest, RouteMatch> {
  private final NativeApi api;
  private final RequestMeters metrics;

  NativeDialect(NativeApi api, RequestMeters metrics) {
    this.api = api;
    this.metrics = metrics;
  }

  @Override
  public ApiRequest read(ChannelHandlerContext ctx, FullHttpRequest req) {
    HttpHeaders h = req.headers();
    return new ApiRequest(
        req.method().name(),
        req.uri(),
        h.get(HttpHeaderNames.IF_MATCH),
        h.get(HttpHeaderNames.IF_NONE_MATCH),
        h.get(HttpHeaderNames.CONTENT_TYPE),
        ByteBufUtil.getBytes(req.content()),
        h.get(HttpHeaderNames.AUTHORIZATION));
  }

  @Override
  public RouteMatch route(ApiRequest request) {
    return RouteMatch.of(request.rawPath());
  }

  @Override
  public Mode mode(ApiRequest request, RouteMatch match) {
    if (NativeApi.runsInline(request.method(), match)) {
      return Mode.INLINE;
    }
    return NativeApi.isItemWrite(request.method(), match) || NativeApi.isChangeRead(match)
        ? Mode.ASYNC
        : Mode.WORKERS;
  }

  @Override
  public Answer serve(ApiRequest request, RouteMatch match) {
    return api.handle(request, match);
  }

  @Override
  public CompletableFuture<ApiResponse> serveAsync(
      ApiRequest request, RouteMatch match, Executor answerOn) {
    return NativeApi.isChangeRead(match)
        ? api.handleChanges(request, match, answerOn)
        : api.handleItemWrite(request, match, answerOn);
  }

  @Override
  public Answer error(RouteMatch match, ViewbaseException error) {
    return ApiResponse.error(error);
  }

  @Override
  public Answer failure(ApiRequest request, RouteMatch match, Throwable failure) {
    return NativeApi.unexpected(request != null ? request : ApiRequest.of("?", "?"), failure);
  }

  @Override
  public void started() {
    metrics.started();
  }

  /** Counted by the route's metrics label; a request whose path matched nothing as unknown. */
  @Override
  public void finished(ApiRequest request, RouteMatch match, Answer answer, long nanos) {
    metrics.finished(
        match != null ? match.route().label() : Route.UNKNOWN.label(), answer.status(), nanos);
  }
}
