package io.viewbase.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.viewbase.api.ViewbaseException;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The listener's request path in process, for the request-path fuzz targets: each exchange is one
 * connection (Netty's {@link EmbeddedChannel}) carrying the very handlers a socket's connection
 * gets ({@link HttpListener.ConnectionHandlers}: the guard, the request decoder, the response
 * encoder, the body limit and the dialect's handler) over the dialect and database given. Public
 * for the dialects' fuzz targets in their own packages.
 *
 * <p>Everything runs on the calling thread: the connection's event loop, the worker pool's tasks
 * and the asynchronous answers (which the dialect completes on the executor it is handed, here a
 * queue this exchange drains), so that an exchange takes microseconds and no time goes on guessing.
 * The request's bytes arrive in reads of {@value #READ_BYTES} bytes, and only while the connection
 * reads (its handler stops reading while it serves a request, as on a socket). When nothing is left
 * to run and the connection still reads, the server is waiting for bytes the request did not send:
 * the client closes, as {@link RawExchange}'s does after its patience. What a socket adds (Netty's
 * NIO transport, the lingering close, the threads) the socket targets cover.
 */
public final class PipelineExchange {
  /** A socket read's size at most (Netty's first guess for a read buffer). */
  private static final int READ_BYTES = 2048;

  /**
   * How long the client waits for an asynchronous answer that has not come before it closes (a
   * change poll parked until a write or its wait's end); other answers take microseconds.
   */
  private static final long PATIENCE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final HttpListener.ConnectionHandlers handlers;

  /** The worker pool's tasks and the asynchronous answers, run by the exchange's thread. */
  private final LinkedBlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();

  /** The connection being exchanged on, whose asynchronous answers are counted. */
  private Connection current;

  /** One connection's asynchronous requests not yet answered. */
  private static final class Connection {
    int unanswered;
  }

  /**
   * @param options the listener options whose limits apply (name, body limit, connections)
   * @param dialect the protocol, over its database
   */
  public PipelineExchange(ListenerOptions options, Dialect<?, ?> dialect) {
    this.handlers = new HttpListener.ConnectionHandlers(options, counted(dialect), this.tasks::add);
  }

  /**
   * How long an exchange may take before it counts as a hang: long for an in-process exchange
   * (which takes microseconds), since a path's first run under the fuzzer's instrumentation, on a
   * loaded machine, has taken over a second (a PutItem: 196 ms unloaded, the first time).
   */
  public static final int HANG_MILLIS = 4000;

  /** As {@link #statuses(byte[], int)}, bounded by {@link #HANG_MILLIS}. */
  public List<Integer> statuses(byte[] request) {
    return statuses(request, HANG_MILLIS);
  }

  /**
   * The status codes of every response the pipeline sent to {@code request} before its connection
   * closed, framed as {@link RawExchange#statusesOf} frames a socket's. Fails with an
   * AssertionError if the exchange takes longer than {@code timeoutMillis}, or if the connection
   * stops reading with nothing in progress (a request that will never be answered).
   */
  public List<Integer> statuses(byte[] request, int timeoutMillis) {
    return RawExchange.statusesOf(exchange(request, timeoutMillis));
  }

  private String exchange(byte[] request, int timeoutMillis) {
    Connection connection = new Connection();
    current = connection;
    EmbeddedChannel channel =
        new EmbeddedChannel(
            new ChannelInitializer<Channel>() {
              @Override
              protected void initChannel(Channel ch) {
                handlers.install(ch.pipeline());
              }
            });
    ByteArrayOutputStream got = new ByteArrayOutputStream();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    int sent = 0;
    boolean waitedOut = false;
    try {
      while (true) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError(
              "the exchange did not end within " + timeoutMillis + " ms: " + sent + " bytes sent");
        }
        boolean progress = false;
        if (channel.isOpen() && sent < request.length && channel.config().isAutoRead()) {
          int n = Math.min(READ_BYTES, request.length - sent);
          channel.writeInbound(Unpooled.wrappedBuffer(request, sent, n));
          sent += n;
          progress = true;
        }
        for (Runnable task; (task = tasks.poll()) != null; ) {
          task.run();
          progress = true;
        }
        channel.runPendingTasks();
        for (Object out; (out = channel.readOutbound()) != null; ) {
          ByteBuf bytes = (ByteBuf) out;
          byte[] copy = new byte[bytes.readableBytes()];
          bytes.readBytes(copy);
          bytes.release();
          got.writeBytes(copy);
          progress = true;
        }
        if (progress || !tasks.isEmpty()) {
          continue;
        }
        if (!channel.isOpen()) {
          break;
        }
        if (connection.unanswered > 0 && !waitedOut) {
          Runnable next = tasks.poll(PATIENCE_NANOS, TimeUnit.NANOSECONDS);
          if (next != null) {
            next.run();
            continue;
          }
          waitedOut = true;
        }
        if (!channel.config().isAutoRead() && connection.unanswered == 0) {
          throw new AssertionError(
              "the connection stopped reading with no request in progress, after "
                  + sent
                  + " of "
                  + request.length
                  + " bytes");
        }
        // Waiting for bytes the request did not send, or for an answer that does not come soon:
        // the client closes, as one with nothing more to send does.
        channel.close();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    } finally {
      channel.finishAndReleaseAll();
      current = null;
    }
    return got.toString(java.nio.charset.StandardCharsets.ISO_8859_1);
  }

  private <R, T> Dialect<R, T> counted(Dialect<R, T> dialect) {
    return new Counted<>(dialect);
  }

  /**
   * The dialect as given, but for where its asynchronous answers complete: on this exchange's
   * queue, counted against their connection.
   */
  private final class Counted<R, T> implements Dialect<R, T> {
    private final Dialect<R, T> dialect;

    Counted(Dialect<R, T> dialect) {
      this.dialect = dialect;
    }

    @Override
    public R read(ChannelHandlerContext ctx, FullHttpRequest request) {
      return dialect.read(ctx, request);
    }

    @Override
    public T route(R request) {
      return dialect.route(request);
    }

    @Override
    public Mode mode(R request, T route) {
      return dialect.mode(request, route);
    }

    @Override
    public Answer serve(R request, T route) {
      return dialect.serve(request, route);
    }

    @Override
    public CompletableFuture<Answer> serveAsync(R request, T route, Executor answerOn) {
      Connection on = current;
      on.unanswered++;
      CompletableFuture<Answer> answer = new CompletableFuture<>();
      dialect
          .serveAsync(request, route, tasks::add)
          .whenComplete(
              (done, failure) ->
                  tasks.add(
                      () -> {
                        on.unanswered--;
                        if (failure != null) {
                          answer.completeExceptionally(failure);
                        } else {
                          answer.complete(done);
                        }
                      }));
      return answer;
    }

    @Override
    public Answer error(T route, ViewbaseException error) {
      return dialect.error(route, error);
    }

    @Override
    public Answer failure(R request, T route, Throwable failure) {
      return dialect.failure(request, route, failure);
    }

    @Override
    public void started() {
      dialect.started();
    }

    @Override
    public void finished(R request, T route, Answer answer, long nanos) {
      dialect.finished(request, route, answer, nanos);
    }
  }
}
