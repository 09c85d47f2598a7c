package io.viewbase.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpMessage;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpUtil;

/**
 * Aggregates request bodies up to the limit. Netty's own answer to an oversized body is a bare 413;
 * this hands an {@link OversizedRequest} to the API handler instead, which answers with a JSON error
 * in order. When the body's length was declared, the aggregator discards the rest and the
 * connection lives on; a chunked body that grew too large ends the connection.
 */
final class BodyLimit extends HttpObjectAggregator {
  BodyLimit(int maxRequestBytes) {
    super(maxRequestBytes);
  }

  @Override
  protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
    boolean keepAlive = !(oversized instanceof FullHttpMessage) && HttpUtil.isKeepAlive(oversized)
        && !HttpUtil.is100ContinueExpected(oversized);
    ctx.fireChannelRead(new OversizedRequest(keepAlive));
  }
}
