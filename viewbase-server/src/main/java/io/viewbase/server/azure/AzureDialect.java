package io.viewbase.server.azure;

import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpRequest;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.Answer;
import io.viewbase.server.Dialect;
import io.viewbase.server.HttpDate;
import io.viewbase.server.RequestMeters;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Azure Tables protocol as the listener's {@link Dialect}: a request becomes an {@link
 * AzureRequest} (its headers seen through {@link HeaderView}, no copy), {@link AzureApi} serves it,
 * and the listener's own errors are Azure's JSON errors with {@code x-ms-error-code}.
 *
 * <pre>
 * request                                                  | route             | mode
 * ---------------------------------------------------------+-------------------+--------
 * Get Entity (GET of an entity's address)                  | null              | INLINE
 * Insert, Update, Merge, Delete Entity, their upsert forms | its parsed path   | ASYNC
 * everything else                                          | null              | WORKERS
 * </pre>
 *
 * <p>Requests are counted by route, the kind of resource addressed ({@link ResourcePath.Kind} in
 * lower case: service, tables, table, batch, entities, entity), or {@code unknown} for a path that
 * names none: a fixed set, never a table name.
 */
final class AzureDialect implements Dialect<AzureRequest, ResourcePath> {
  private static final Logger LOG = LoggerFactory.getLogger(AzureDialect.class);
  private static final String UNKNOWN = "unknown";
  private static final String[] LABELS = labels();

  private final AzureApi api;
  private final RequestMeters metrics;

  AzureDialect(AzureApi api, RequestMeters metrics) {
    this.api = api;
    this.metrics = metrics;
  }

  private static String[] labels() {
    ResourcePath.Kind[] kinds = ResourcePath.Kind.values();
    String[] labels = new String[kinds.length];
    for (int i = 0; i < kinds.length; i++) {
      labels[i] = kinds[i].name().toLowerCase(java.util.Locale.ROOT);
    }
    return labels;
  }

  @Override
  public AzureRequest read(ChannelHandlerContext ctx, FullHttpRequest req) {
    String ip =
        ctx.channel().remoteAddress() instanceof InetSocketAddress a && a.getAddress() != null
            ? a.getAddress().getHostAddress()
            : null;
    return new AzureRequest(
        req.method().name(),
        req.uri(),
        new HeaderView(req.headers()),
        ByteBufUtil.getBytes(req.content()),
        ip);
  }

  /**
   * The parsed path of a single-entity write, which {@link AzureApi} then need not parse again;
   * else null.
   */
  @Override
  public ResourcePath route(AzureRequest request) {
    return AzureApi.entityWritePath(request);
  }

  @Override
  public Mode mode(AzureRequest request, ResourcePath entityWrite) {
    if (entityWrite != null) {
      return Mode.ASYNC;
    }
    return AzureApi.runsInline(request) ? Mode.INLINE : Mode.WORKERS;
  }

  @Override
  public Answer serve(AzureRequest request, ResourcePath entityWrite) {
    return api.handle(request);
  }

  @Override
  public CompletableFuture<AzureResponse> serveAsync(
      AzureRequest request, ResourcePath entityWrite, Executor answerOn) {
    return api.handleAsync(request, entityWrite, answerOn);
  }

  @Override
  public Answer error(ResourcePath route, ViewbaseException error) {
    String id = RequestIds.next();
    return AzureErrors.answer(error, false, id)
        .with("x-ms-request-id", id)
        .with("x-ms-version", AzureApi.VERSION)
        .with("Date", HttpDate.now());
  }

  /**
   * {@link AzureApi} answers every failure itself, so this is a last resort: never leave a request
   * unanswered.
   */
  @Override
  public Answer failure(AzureRequest request, ResourcePath route, Throwable failure) {
    if (request != null) {
      LOG.error(
          "Azure request {} {} failed outside the dialect",
          request.method(),
          request.rawPath(),
          failure);
    } else {
      LOG.error("An Azure request could not be read", failure);
    }
    return error(route, AzureApi.INTERNAL_ERROR);
  }

  @Override
  public void started() {
    metrics.started();
  }

  @Override
  public void finished(AzureRequest request, ResourcePath route, Answer answer, long nanos) {
    metrics.finished(label(request, route), answer.status(), nanos);
  }

  /** The request's route label; the path is parsed again unless it was for an entity write. */
  private static String label(AzureRequest request, ResourcePath route) {
    if (route != null) {
      return LABELS[route.kind().ordinal()];
    }
    if (request == null) {
      return UNKNOWN;
    }
    try {
      return LABELS[ResourcePath.parse(request.rawPath(), request.header("host")).kind().ordinal()];
    } catch (RuntimeException unreadable) {
      return UNKNOWN;
    }
  }
}
