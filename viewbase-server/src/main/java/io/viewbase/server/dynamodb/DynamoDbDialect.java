package io.viewbase.server.dynamodb;

import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpRequest;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.Answer;
import io.viewbase.server.Dialect;
import io.viewbase.server.RequestMeters;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DynamoDB protocol as the listener's {@link Dialect}: a request becomes a {@link
 * DynamoDbRequest}, {@link DynamoDbApi} serves it, and the listener's own errors are DynamoDB's
 * JSON errors.
 *
 * <pre>
 * request                                  | mode
 * -----------------------------------------+--------
 * POST (every operation)                   | WORKERS
 * anything else (the health check, CORS    | INLINE
 *   preflights, refusals of other methods) |
 * </pre>
 *
 * Operations run on the worker pool: they read the catalog and may wait on a log sync; none runs on
 * an event loop.
 *
 * <p>Requests are counted by route, the operation's name ({@code PutItem}, {@code GetRecords}) when
 * Viewbase serves it, else {@code unknown}: a fixed set ({@link DynamoDbApi#operationLabel}).
 */
final class DynamoDbDialect implements Dialect<DynamoDbRequest, Void> {
  private static final Logger LOG = LoggerFactory.getLogger(DynamoDbDialect.class);
  private final DynamoDbApi api;
  private final RequestMeters metrics;

  DynamoDbDialect(DynamoDbApi api, RequestMeters metrics) {
    this.api = api;
    this.metrics = metrics;
  }

  @Override
  public DynamoDbRequest read(ChannelHandlerContext ctx, FullHttpRequest req) {
    return new DynamoDbRequest(
        req.method().name(), req.uri(), req.headers(), ByteBufUtil.getBytes(req.content()));
  }

  @Override
  public Void route(DynamoDbRequest request) {
    return null;
  }

  @Override
  public Mode mode(DynamoDbRequest request, Void route) {
    return request.method().equals("POST") ? Mode.WORKERS : Mode.INLINE;
  }

  @Override
  public Answer serve(DynamoDbRequest request, Void route) {
    return api.handle(request);
  }

  @Override
  public CompletableFuture<? extends Answer> serveAsync(
      DynamoDbRequest request, Void route, Executor answerOn) {
    throw new UnsupportedOperationException("The DynamoDB dialect serves nothing asynchronously");
  }

  @Override
  public Answer error(Void route, ViewbaseException error) {
    return api.finish(api.error(error), DynamoDbApi.requestId(), false);
  }

  /**
   * {@link DynamoDbApi} answers every failure itself, so this is a last resort: never leave a
   * request unanswered.
   */
  @Override
  public Answer failure(DynamoDbRequest request, Void route, Throwable failure) {
    if (request != null) {
      LOG.error(
          "DynamoDB request {} {} failed outside the dialect",
          request.method(),
          request.rawPath(),
          failure);
    } else {
      LOG.error("A DynamoDB request could not be read", failure);
    }
    return error(route, DynamoDbApi.INTERNAL_ERROR);
  }

  @Override
  public void started() {
    metrics.started();
  }

  @Override
  public void finished(DynamoDbRequest request, Void route, Answer answer, long nanos) {
    metrics.finished(api.operationLabel(request), answer.status(), nanos);
  }
}
