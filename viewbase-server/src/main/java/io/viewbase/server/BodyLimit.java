package io.viewbase.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpUtil;

/**
 * Aggregates request bodies up to the limit. Netty's own answer to an oversized body is a bare 413;
 * this hands an {@link OversizedRequest} to the dialect's handler instead, which answers with its
 * error in order and closes the connection, whatever the framing:
 *
 * <pre>
 * body over the limit                      | answered                 | then
 * -----------------------------------------+--------------------------+-----------------------------------
 * declared (Content-Length)                | 413, at once             | closed: the rest is never read
 * declared, with Expect: 100-continue      | 413 instead of the 100   | closed: the client sends no body
 * chunked, grown too large                 | 413                      | closed
 * </pre>
 *
 * Discarding the rest of a declared body to keep the connection would make the server read all of
 * it (200 MB, if that is what was declared); and after a refused {@code 100-continue} a client may
 * or may not send the body, so the next request's start could not be told from it. Only a body
 * within the limit gets {@code 100 Continue}. An expectation other than {@code 100-continue} is
 * ignored (RFC 9110 allows it) rather than answered with Netty's bare 417, so that every request is
 * answered by the dialect.
 */
final class BodyLimit extends HttpObjectAggregator {
  BodyLimit(int maxRequestBytes) {
    super(maxRequestBytes);
  }

  @Override
  protected Object newContinueResponse(
      HttpMessage start, int maxContentLength, ChannelPipeline pipeline) {
    if (!HttpUtil.is100ContinueExpected(start) || isContentLengthInvalid(start, maxContentLength)) {
      return null; // no interim answer; a declared length over the limit is refused as oversized
    }
    return super.newContinueResponse(start, maxContentLength, pipeline);
  }

  @Override
  protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
    ctx.fireChannelRead(new OversizedRequest(false));
  }
}
