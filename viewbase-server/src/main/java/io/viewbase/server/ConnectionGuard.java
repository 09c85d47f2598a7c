package io.viewbase.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.util.ByteProcessor;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first handler of a connection's pipeline: it enforces the listener's {@link ConnectionLimits}
 * (the cap on open connections, the idle, header and body timeouts) and closes connections
 * gracefully. It sees the raw bytes coming in, learns where requests begin and end from the {@link
 * RequestDecoder}, and where answers end from {@link HttpListener#answerRoute}; all of its state is
 * touched on the channel's event loop only.
 *
 * <p>The connection is in one phase at a time, and each phase but serving has a deadline:
 *
 * <pre>
 * phase    | when                                              | deadline from         | at the deadline
 * ---------+---------------------------------------------------+-----------------------+------------------
 * HEADERS  | a fresh connection, or bytes of a request whose   | the accept or the     | 408 refusal if a
 *          | headers are incomplete, nothing being served      | first byte            | byte came, else close
 * BODY     | a body arriving, nothing earlier being served     | the end of headers    | 408 refusal
 * SERVING  | a request read and its answer not fully written   | none                  | -
 * IDLE     | every answer written, nothing of a next request   | the last answer       | close
 * LINGER   | closing: output shut, input drained and dropped   | the close             | close
 * </pre>
 *
 * A refusal ({@link ConnectionRefusal}) goes to the dialect's handler, which answers it in the
 * dialect's shape; a handler that did not would have the connection closed at once. The deadline is
 * checked lazily: one scheduled check per connection, moved only when a deadline comes earlier than
 * it, so that requests on a busy connection schedule nothing.
 *
 * <p>A close that the dialect's handler asks for (after an answer with {@code Connection: close})
 * lingers: the output is shut, so the client reads the answer and then the end of the stream, while
 * whatever it still sends is read and dropped for up to {@link #LINGER_NANOS}. Closing at once with
 * unread bytes would reset the connection, and a client still sending a body would often lose the
 * answer (a 413, say) before reading it.
 */
final class ConnectionGuard extends ChannelDuplexHandler {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionGuard.class);
  static final long LINGER_NANOS = TimeUnit.SECONDS.toNanos(2);
  private static final long WARN_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

  /** What the connections of one listener share: their limits and how many are open. */
  static final class Connections {
    private final String name;
    private final ConnectionLimits limits;
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong lastWarning = new AtomicLong(System.nanoTime() - WARN_EVERY_NANOS);

    /**
     * The {@code Keep-Alive} header kept-alive answers carry, {@code timeout=<idle seconds>}, as
     * the header line ({@link ResponseBytes#lines(Map)}), encoded once.
     */
    private final byte[] keepAlive;

    /** The limits' timeouts in nanoseconds, converted once: a phase changes twice a request. */
    private final long headerNanos;

    private final long bodyNanos;
    private final long idleNanos;

    Connections(String name, ConnectionLimits limits) {
      this.name = name;
      this.limits = limits;
      this.headerNanos = limits.headerTimeout().toNanos();
      this.bodyNanos = limits.bodyTimeout().toNanos();
      this.idleNanos = limits.idleTimeout().toNanos();
      this.keepAlive =
          ResponseBytes.lines(
              Map.of(
                  HttpHeaderNames.KEEP_ALIVE.toString(),
                  "timeout=" + Math.max(1, limits.idleTimeout().toSeconds())));
    }

    /** A refused connection, logged at most once a minute with how many were refused since. */
    private void refusedOne() {
      refused.incrementAndGet();
      long last = lastWarning.get();
      long now = System.nanoTime();
      if (now - last >= WARN_EVERY_NANOS && lastWarning.compareAndSet(last, now)) {
        LOG.warn(
            "{}: {} connections are open, the most allowed; refused {} since the last warning",
            name,
            limits.maxConnections(),
            refused.getAndSet(0));
      }
    }
  }

  private enum Phase {
    HEADERS,
    BODY,
    SERVING,
    IDLE,
    LINGER
  }

  private final Connections listener;
  private ChannelHandlerContext ctx;

  /** Whether this connection is among the listener's open ones. */
  private boolean counted;

  /**
   * Whether any request's headers have been read (until then, the header timeout runs from the
   * accept).
   */
  private boolean sawRequest;

  /** Bytes of a request whose headers are not complete yet have arrived. */
  private boolean partial;

  /** A request's headers have been read, its body not yet. */
  private boolean bodyArriving;

  /**
   * Requests whose headers have been read, and final answers written whole: the difference is owed.
   */
  private long requests;

  private long answered;

  /** Final answers handed to the socket (written or not yet). */
  private long answersStarted;

  private boolean finalAnswerNext;

  /** Refused or closing: what arrives is dropped, not decoded. */
  private boolean discarding;

  /** The close the dialect's handler asked for, done once lingering ends. */
  private ChannelPromise lingerClose;

  private Phase phase;

  /** When the phase's time is up, as {@link System#nanoTime()}. */
  private long deadline;

  private ScheduledFuture<?> check;
  private long checkAt;

  ConnectionGuard(Connections listener) {
    this.listener = listener;
  }

  /** The {@code Keep-Alive} header line a kept-alive answer on this connection carries. */
  byte[] keepAliveLine() {
    return listener.keepAlive;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext context) {
    this.ctx = context;
  }

  @Override
  public void channelActive(ChannelHandlerContext context) {
    counted = true;
    int open = listener.open.incrementAndGet();
    context.fireChannelActive();
    if (open > listener.limits.maxConnections()) {
      // not counted while it closes: refused ones must not keep out the next that could be served
      counted = false;
      listener.open.decrementAndGet();
      listener.refusedOne();
      refuse(
          new ConnectionRefusal(
              ConnectionRefusal.Kind.TOO_MANY_CONNECTIONS,
              "The server has "
                  + listener.limits.maxConnections()
                  + " connections open, the most it allows; retry later"));
    } else {
      update();
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext context) {
    if (counted) {
      counted = false;
      listener.open.decrementAndGet();
    }
    if (check != null) {
      check.cancel(false);
      check = null;
    }
    if (lingerClose != null) {
      lingerClose.trySuccess();
    }
    context.fireChannelInactive();
  }

  @Override
  public void channelRead(ChannelHandlerContext context, Object msg) {
    if (discarding) {
      ReferenceCountUtil.release(msg);
      return;
    }
    if (msg instanceof ByteBuf bytes
        && !bodyArriving
        && !partial
        && beginsARequest(bytes, bytes.readerIndex())) {
      partial = true;
    }
    context.fireChannelRead(msg);
    update();
  }

  /** The decoder has read a request's headers; {@code last}: it has no body either. */
  void headersRead(boolean last) {
    sawRequest = true;
    partial = false;
    requests++;
    bodyArriving = !last;
    update();
  }

  /** The decoder has read the end of a request's body. */
  void bodyRead() {
    bodyArriving = false;
    update();
  }

  /**
   * The decoder holds these bytes after a request it just finished: perhaps the next one's start.
   */
  void bytesAfterRequest(ByteBuf rest) {
    if (beginsARequest(rest, rest.readerIndex())) {
      partial = true;
      update();
    }
  }

  /**
   * Whether bytes hold more than the line ends that some clients send after a body (and the decoder
   * skips): those begin no request, and must not turn an idle connection into one that is answered
   * 408.
   */
  private static boolean beginsARequest(ByteBuf bytes, int from) {
    return bytes.forEachByte(from, bytes.writerIndex() - from, ByteProcessor.FIND_NON_CRLF) >= 0;
  }

  /** The next write is a final answer: the connection is served until it has been written. */
  void finalAnswerNext() {
    finalAnswerNext = true;
  }

  @Override
  public void write(ChannelHandlerContext context, Object msg, ChannelPromise promise) {
    if (!finalAnswerNext) {
      context.write(msg, promise); // an interim answer (100 Continue)
      return;
    }
    finalAnswerNext = false;
    answersStarted++;
    context.write(msg, promise);
  }

  /**
   * A final answer has been written (or its write failed): the connection waits for its next
   * request from now. Told by the answer's writer, whose listener on the write is the only one (see
   * {@link HttpListener.AnswerRoute#written}).
   */
  void answerWritten() {
    answered++;
    update();
  }

  @Override
  public void close(ChannelHandlerContext context, ChannelPromise promise) {
    if (lingerClose != null
        || !(context.channel() instanceof SocketChannel socket)
        || !socket.isActive()
        || socket.isOutputShutdown()) {
      context.close(promise);
      return;
    }
    lingerClose = promise;
    discarding = true;
    socket.config().setAutoRead(true);
    socket
        .shutdownOutput()
        .addListener(
            f -> {
              if (!f.isSuccess()) {
                context.close(promise);
              }
            });
    update();
  }

  /**
   * Refuses the connection: stops reading it into requests and hands the refusal to the protocol
   * handler; closes at once if that wrote no answer (the answer's own close lingers).
   */
  private void refuse(ConnectionRefusal refusal) {
    discarding = true;
    long before = answersStarted;
    ctx.pipeline().context(HttpListener.AGGREGATOR).fireChannelRead(refusal);
    if (answersStarted == before) {
      ctx.close();
    }
  }

  /** Works out the phase after a change, and its deadline when the phase is new. */
  private void update() {
    Phase now;
    if (lingerClose != null) {
      now = Phase.LINGER;
    } else if (bodyArriving) {
      now = requests - answered <= 1 ? Phase.BODY : Phase.SERVING;
    } else if (requests > answered) {
      now = Phase.SERVING;
    } else {
      now = partial || !sawRequest ? Phase.HEADERS : Phase.IDLE;
    }
    if (now == phase) {
      return;
    }
    phase = now;
    if (now == Phase.SERVING) {
      return; // a check that is due finds nothing to do
    }
    deadline =
        System.nanoTime()
            + switch (now) {
              case HEADERS -> listener.headerNanos;
              case BODY -> listener.bodyNanos;
              case IDLE -> listener.idleNanos;
              default -> LINGER_NANOS;
            };
    arm();
  }

  /** Makes sure a check runs by the deadline: the one already scheduled, if it runs first. */
  private void arm() {
    if (check != null) {
      if (checkAt - deadline <= 0) {
        return;
      }
      check.cancel(false);
    }
    checkAt = deadline;
    check =
        ctx.executor()
            .schedule(
                this::expire, Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
  }

  private void expire() {
    check = null;
    if (phase == Phase.SERVING || !ctx.channel().isActive()) {
      return;
    }
    if (deadline - System.nanoTime() > 0) {
      arm();
      return;
    }
    ConnectionLimits limits = listener.limits;
    switch (phase) {
      case HEADERS -> {
        if (partial) {
          refuse(
              new ConnectionRefusal(
                  ConnectionRefusal.Kind.REQUEST_TIMEOUT,
                  "The request line and headers did not arrive within "
                      + ConnectionLimits.text(limits.headerTimeout())));
        } else {
          ctx.close(); // a connection that never sent anything has nothing to be answered
        }
      }
      case BODY ->
          refuse(
              new ConnectionRefusal(
                  ConnectionRefusal.Kind.REQUEST_TIMEOUT,
                  "The request body did not arrive within "
                      + ConnectionLimits.text(limits.bodyTimeout())));
      // no 408 between requests: it could cross a request the client is sending just now
      case IDLE -> ctx.close();
      case LINGER -> ctx.close(lingerClose);
      default -> throw new IllegalStateException("no deadline while serving");
    }
  }
}
