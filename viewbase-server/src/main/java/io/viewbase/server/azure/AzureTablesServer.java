package io.viewbase.server.azure;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.viewbase.api.Database;
import io.viewbase.server.BodyLimit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running Azure Table Storage endpoint over one {@link Database}, so the official Azure SDKs work
 * against Viewbase unchanged: {@code try (AzureTablesServer s = AzureTablesServer.start(db,
 * AzureOptions.defaults())) {...}}. Path-style URLs ({@code http://127.0.0.1:10002/devstoreaccount1/…})
 * and production-style hosts ({@code <account>.table.<host>}) both work. Closing the server does not
 * close the database; its owner does.
 */
public final class AzureTablesServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AzureTablesServer.class);
  /** Entity addresses carry two keys of up to 1 KiB, percent-encoded up to three times longer. */
  private static final int MAX_REQUEST_LINE = 16 * 1024;
  private static final int MAX_HEADERS = 16 * 1024;
  private static final long DRAIN_SECONDS = 10;

  private final EventLoopGroup acceptor;
  private final EventLoopGroup io;
  private final ExecutorService workers;
  private final Channel serverChannel;
  private final int port;

  private AzureTablesServer(EventLoopGroup acceptor, EventLoopGroup io, ExecutorService workers, Channel channel) {
    this.acceptor = acceptor;
    this.io = io;
    this.workers = workers;
    this.serverChannel = channel;
    this.port = ((InetSocketAddress) channel.localAddress()).getPort();
  }

  /** Binds and starts serving; fails with an UncheckedIOException naming the address if it cannot listen. */
  public static AzureTablesServer start(Database db, AzureOptions options) {
    EventLoopGroup acceptor = new MultiThreadIoEventLoopGroup(1,
        new DefaultThreadFactory("viewbase-azure-accept", true), NioIoHandler.newFactory());
    EventLoopGroup io = new MultiThreadIoEventLoopGroup(options.ioThreads(),
        new DefaultThreadFactory("viewbase-azure-io", true), NioIoHandler.newFactory());
    ExecutorService workers = new ThreadPoolExecutor(options.workerThreads(), options.workerThreads(),
        60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), new DefaultThreadFactory("viewbase-azure-worker", true));
    AzureApi api = new AzureApi(db, options);
    HttpDecoderConfig decoder = new HttpDecoderConfig()
        .setMaxInitialLineLength(MAX_REQUEST_LINE)
        .setMaxHeaderSize(MAX_HEADERS);
    ServerBootstrap bootstrap = new ServerBootstrap()
        .group(acceptor, io)
        .channel(NioServerSocketChannel.class)
        .option(ChannelOption.SO_BACKLOG, 1024)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            ch.pipeline()
                .addLast("http", new HttpServerCodec(decoder))
                .addLast("aggregate", new BodyLimit(options.maxRequestBytes()))
                .addLast("azure", new AzureChannelHandler(api, workers));
          }
        });
    try {
      Channel channel = bootstrap.bind(options.bindAddress(), options.port()).sync().channel();
      AzureTablesServer server = new AzureTablesServer(acceptor, io, workers, channel);
      LOG.info("Azure Tables dialect listening on http://{}:{}", options.bindAddress(), server.port());
      return server;
    } catch (Exception e) {
      acceptor.shutdownGracefully(0, 0, TimeUnit.SECONDS);
      io.shutdownGracefully(0, 0, TimeUnit.SECONDS);
      workers.shutdownNow();
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      String where = options.bindAddress() + ":" + options.port();
      throw new UncheckedIOException("Cannot listen on " + where + ": " + e.getMessage(),
          e instanceof IOException io1 ? io1 : new IOException(e));
    }
  }

  /** The port the server listens on (the one picked, when the options asked for port 0). */
  public int port() {
    return port;
  }

  /** Stops accepting, lets running requests answer (up to ten seconds), then closes every connection. */
  @Override
  public void close() {
    serverChannel.close().syncUninterruptibly();
    workers.shutdown();
    try {
      if (!workers.awaitTermination(DRAIN_SECONDS, TimeUnit.SECONDS)) {
        LOG.warn("Azure requests still running after {} s; stopping anyway", DRAIN_SECONDS);
        workers.shutdownNow();
      }
    } catch (InterruptedException e) {
      workers.shutdownNow();
      Thread.currentThread().interrupt();
    }
    io.shutdownGracefully(100, 2_000, TimeUnit.MILLISECONDS).syncUninterruptibly();
    acceptor.shutdownGracefully(0, 1_000, TimeUnit.MILLISECONDS).syncUninterruptibly();
  }
}
