package io.viewbase.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.viewbase.api.Stability;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.channels.UnresolvedAddressException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One listening HTTP/1.1 socket on Netty serving one {@link Dialect} (the native API or the Azure
 * dialect): an acceptor thread, event loops that parse requests, a worker pool for blocking work,
 * request bodies bounded by {@link BodyLimit}, connections bounded in number and in how long they
 * may keep the server waiting by {@link ConnectionGuard}, each connection served in order by a
 * {@link DialectHandler}, and a close that lets running requests answer first. What a request means
 * is the dialect's business; this class and the handler own threads, sockets and connections.
 *
 * <p>A connection's pipeline: with TLS, {@code plaintext-refusal} ({@link PlaintextRefusal}, for
 * the first bytes only), {@code tls} (Netty's SslHandler, from {@link TlsSettings}) and {@code
 * tls-failures} ({@link TlsFailures}) first; then {@code guard} (limits, timeouts, graceful close),
 * {@code decoder}, {@code encoder}, {@value #AGGREGATOR} (bodies), {@code api} (the {@link
 * DialectHandler}). A listener with TLS speaks https only: a plain HTTP request to it is answered
 * 400 by {@code plaintext-refusal}, and neither it nor a failed handshake reaches the dialect.
 */
@Stability(Stability.Level.INTERNAL)
public final class HttpListener implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HttpListener.class);

  /**
   * Request lines carry two keys of up to 1 KiB each, or a filter of up to 32 K characters ({@code
   * Filters.MAX_LENGTH}, up to 1,000 conditions), percent-encoded up to three times longer: Netty's
   * 4 KiB default would reject legal addresses, and 16 KiB a filter of a few hundred conditions.
   */
  private static final int MAX_REQUEST_LINE = 128 * 1024;

  private static final int MAX_HEADERS = 16 * 1024;
  private static final long DRAIN_SECONDS = 10;
  private static final String LEAK_DETECTION = "io.netty.leakDetection.level";

  /**
   * The pipeline's HTTP response encoder. The dialect handler writes each answer as one buffer made
   * by {@link ResponseBytes}, starting at this handler's context so that it goes straight to the
   * socket ({@link #responses}); the encoder only encodes the interim {@code 100 Continue} that the
   * body aggregator sends. A request decoder and a response encoder rather than Netty's
   * HttpServerCodec: the codec pairs each request with a response it encodes (to leave out the body
   * of a HEAD answer), and would keep a method per request that the API's answers, which bypass it,
   * never take back; the dialect handler leaves out HEAD bodies itself.
   */
  static final String ENCODER = "encoder";

  /**
   * The body aggregator; what it passes on (and the listener's refusals) goes to the dialect's
   * handler.
   */
  static final String AGGREGATOR = "aggregate";

  private static final String GUARD = "guard";
  private static final String PLAINTEXT = "plaintext-refusal";
  private static final String TLS = "tls";
  private static final String TLS_FAILURES = "tls-failures";

  static {
    // Netty samples one buffer in 128 for leak tracking by default, recording a stack trace at
    // each touch: about 2% of a point read's CPU. The build's tests run with it on (the root pom
    // sets the property); a server runs without it unless the property asks for it.
    if (System.getProperty(LEAK_DETECTION) == null) {
      ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
    }
  }

  private final String name;
  private final EventLoopGroup acceptor;
  private final EventLoopGroup io;
  private final ExecutorService workers;
  private final Channel serverChannel;
  private final int port;

  private HttpListener(
      String name,
      EventLoopGroup acceptor,
      EventLoopGroup io,
      ExecutorService workers,
      Channel serverChannel) {
    this.name = name;
    this.acceptor = acceptor;
    this.io = io;
    this.workers = workers;
    this.serverChannel = serverChannel;
    this.port = ((InetSocketAddress) serverChannel.localAddress()).getPort();
  }

  /**
   * Binds and starts serving; fails with an UncheckedIOException naming the address if it cannot
   * listen (and leaves no thread behind).
   *
   * @param options where to listen, how many threads, the limits, and TLS (null: plain http)
   * @param dialect the protocol every connection speaks
   */
  public static HttpListener start(ListenerOptions options, Dialect<?, ?> dialect) {
    String name = options.name();
    String bindAddress = options.bindAddress();
    int port = options.port();
    TlsSettings tls = options.tls();
    EventLoopGroup acceptor =
        new MultiThreadIoEventLoopGroup(
            1, new DefaultThreadFactory(name + "-accept", true), NioIoHandler.newFactory());
    EventLoopGroup io =
        new MultiThreadIoEventLoopGroup(
            options.ioThreads(),
            new DefaultThreadFactory(name + "-io", true),
            NioIoHandler.newFactory());
    ExecutorService workers =
        new ThreadPoolExecutor(
            options.workerThreads(),
            options.workerThreads(),
            60,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            new DefaultThreadFactory(name + "-worker", true));
    ConnectionHandlers handlers = new ConnectionHandlers(options, dialect, workers);
    ServerBootstrap bootstrap =
        new ServerBootstrap()
            .group(acceptor, io)
            .channel(NioServerSocketChannel.class)
            .option(ChannelOption.SO_BACKLOG, 1024)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    if (tls != null) {
                      ch.pipeline()
                          .addLast(PLAINTEXT, new PlaintextRefusal(name))
                          .addLast(TLS, tls.newHandler(ch.alloc()))
                          .addLast(TLS_FAILURES, new TlsFailures(name));
                    }
                    handlers.install(ch.pipeline());
                  }
                });
    try {
      Channel channel = bootstrap.bind(bindAddress, port).sync().channel();
      return new HttpListener(name, acceptor, io, workers, channel);
    } catch (Exception e) {
      acceptor.shutdownGracefully(0, 0, TimeUnit.SECONDS);
      io.shutdownGracefully(0, 0, TimeUnit.SECONDS);
      workers.shutdownNow();
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      String where = bindAddress + ":" + port;
      throw new UncheckedIOException(
          "Cannot listen on " + where + ": " + why(e),
          e instanceof IOException io1 ? io1 : new IOException(e));
    }
  }

  /**
   * Waits until each event loop has run the tasks queued on it so far: the answers that workers and
   * asynchronous requests handed over before the close (the parked change-feed polls that closing
   * the API answered, say). A loop told to shut down closes its channels before it runs its queued
   * tasks, so an answer still queued then would be lost and its client would see the connection
   * close instead.
   */
  private void drainLoops() {
    List<Future<?>> barriers = new ArrayList<>();
    for (EventExecutor loop : io) {
      try {
        barriers.add(loop.submit(() -> {}));
      } catch (RejectedExecutionException alreadyStopping) {
        // nothing more will run there
      }
    }
    for (Future<?> barrier : barriers) {
      barrier.awaitUninterruptibly(2, TimeUnit.SECONDS);
    }
  }

  /**
   * The handlers every connection of one listener gets, after the TLS ones: {@code guard}, {@code
   * decoder}, {@code encoder}, {@value #AGGREGATOR} and {@code api}. One per listener, so that its
   * connections share the guard's counts; apart from {@link #start}, a test's in-process
   * connections take them too, to drive the very request path a socket does.
   */
  static final class ConnectionHandlers {
    private final ConnectionGuard.Connections shared;
    private final HttpDecoderConfig decoder =
        new HttpDecoderConfig()
            .setMaxInitialLineLength(MAX_REQUEST_LINE)
            .setMaxHeaderSize(MAX_HEADERS);
    private final int maxRequestBytes;
    private final Dialect<?, ?> dialect;
    private final Executor workers;

    /**
     * @param options the listener's options (its name, connection limits and body limit apply)
     * @param dialect the protocol the connections speak
     * @param workers where {@link Dialect.Mode#WORKERS} requests run
     */
    ConnectionHandlers(ListenerOptions options, Dialect<?, ?> dialect, Executor workers) {
      this.shared = new ConnectionGuard.Connections(options.name(), options.connections());
      this.maxRequestBytes = options.maxRequestBytes();
      this.dialect = dialect;
      this.workers = workers;
    }

    /** Adds one connection's handlers at the end of its pipeline. */
    void install(ChannelPipeline pipeline) {
      ConnectionGuard guard = new ConnectionGuard(shared);
      pipeline
          .addLast(GUARD, guard)
          .addLast("decoder", new RequestDecoder(decoder, guard))
          .addLast(ENCODER, new HttpResponseEncoder())
          .addLast(AGGREGATOR, new BodyLimit(maxRequestBytes))
          .addLast("api", handler(dialect, workers));
    }

    private static <R, T> ChannelHandler handler(Dialect<R, T> dialect, Executor workers) {
      return new DialectHandler<>(dialect, workers);
    }
  }

  /** Why a bind failed, in words: an unresolvable address's exception carries no message. */
  private static String why(Exception bindFailure) {
    if (bindFailure instanceof UnresolvedAddressException) {
      return "the address does not resolve";
    }
    return bindFailure.getMessage() != null
        ? bindFailure.getMessage()
        : bindFailure.getClass().getSimpleName();
  }

  /**
   * Where the dialect handler on {@code handler}'s connection writes each final answer (a buffer
   * made by {@link ResponseBytes}), in one write right away: the context of the response encoder,
   * so that it passes no HTTP encoder on its way to the socket, and the connection's guard, which
   * counts these writes (a connection is being served from the end of a request until its answer
   * has been written, and its timeouts wait meanwhile). Looked up once per connection: the
   * pipeline's handlers are found by name.
   */
  static AnswerRoute answerRoute(ChannelHandlerContext handler) {
    return new AnswerRoute(
        handler.pipeline().context(ENCODER),
        handler.pipeline().get(GUARD) instanceof ConnectionGuard g ? g : null);
  }

  /**
   * A connection's way out for final answers (see {@link #answerRoute}); {@code guard} is null on a
   * pipeline without the listener's guard (a test's), {@code encoder} when it has no encoder.
   */
  record AnswerRoute(ChannelHandlerContext encoder, ConnectionGuard guard) {
    /**
     * Whether the client has closed the connection and its pipeline has been taken apart: nobody to
     * answer.
     */
    boolean gone() {
      return encoder == null || encoder.isRemoved();
    }

    /** Writes and flushes one final answer. */
    ChannelFuture write(ByteBuf answer) {
      if (guard != null) {
        guard.finalAnswerNext();
      }
      return encoder.writeAndFlush(answer);
    }

    /**
     * Tells the guard that the final answer written last has been written (or failed): the one
     * listener on that write, the dialect handler's, calls this first.
     */
    void written() {
      if (guard != null) {
        guard.answerWritten();
      }
    }

    /**
     * The {@code Keep-Alive} header line for kept-alive answers, {@code timeout=N} with N the idle
     * timeout in seconds (how long the server keeps the connection waiting for its next request, so
     * a client knows when to stop reusing it), encoded once; null without the listener's guard.
     */
    byte[] keepAliveLine() {
      return guard == null ? null : guard.keepAliveLine();
    }
  }

  /** The port the listener is bound to (the one picked, when asked for port 0). */
  public int port() {
    return port;
  }

  /**
   * Stops accepting connections, lets requests already running finish and answer (up to ten
   * seconds), then closes every connection.
   */
  @Override
  public void close() {
    serverChannel.close().syncUninterruptibly();
    workers.shutdown();
    try {
      if (!workers.awaitTermination(DRAIN_SECONDS, TimeUnit.SECONDS)) {
        LOG.warn("{}: requests still running after {} s; stopping anyway", name, DRAIN_SECONDS);
        workers.shutdownNow();
      }
    } catch (InterruptedException e) {
      workers.shutdownNow();
      Thread.currentThread().interrupt();
    }
    drainLoops();
    // A short quiet period lets the answers of the last requests leave before the loops stop.
    io.shutdownGracefully(100, 2_000, TimeUnit.MILLISECONDS).syncUninterruptibly();
    acceptor.shutdownGracefully(0, 1_000, TimeUnit.MILLISECONDS).syncUninterruptibly();
  }
}
