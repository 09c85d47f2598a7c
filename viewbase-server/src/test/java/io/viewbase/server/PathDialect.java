package io.viewbase.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpRequest;
import io.viewbase.api.ViewbaseException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The listener tests' dialect: a request is its path, routed as itself, errors are the native
 * API's, an unexpected failure a plain 500. Each test says how its paths are served.
 */
abstract class PathDialect implements Dialect<String, String> {
  @Override
  public String read(ChannelHandlerContext ctx, FullHttpRequest request) {
    return request.uri();
  }

  @Override
  public String route(String request) {
    return request;
  }

  @Override
  public Answer serve(String request, String route) {
    throw new AssertionError("served asynchronously only");
  }

  @Override
  public CompletableFuture<? extends Answer> serveAsync(
      String request, String route, Executor answerOn) {
    throw new AssertionError("served inline only");
  }

  @Override
  public Answer error(String route, ViewbaseException error) {
    return ApiResponse.error(error);
  }

  @Override
  public Answer failure(String request, String route, Throwable failure) {
    return ApiResponse.text(500, "text/plain", "failed");
  }
}
