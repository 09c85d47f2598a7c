package io.viewbase.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpRequest;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * An answer that is ready only after its client has gone (the connection closed, its pipeline taken
 * apart) has nobody to go to: it is dropped without a failure on the event loop. Found by the
 * request-path fuzz targets: the answer was written to a pipeline context that no longer existed, a
 * {@code NullPointerException} in a Netty task, and the encoded buffer was never released.
 */
class HttpListenerClientGoneTest {
  /** {@code /async} is answered when the test completes {@link #pending}. */
  private static final class Late extends PathDialect {
    final CompletableFuture<Answer> pending = new CompletableFuture<>();
    final CountDownLatch started = new CountDownLatch(1);
    final AtomicInteger served = new AtomicInteger();
    volatile ChannelHandlerContext connection;

    @Override
    public String read(ChannelHandlerContext ctx, FullHttpRequest request) {
      connection = ctx;
      return super.read(ctx, request);
    }

    @Override
    public Mode mode(String request, String route) {
      return Mode.ASYNC;
    }

    @Override
    public CompletableFuture<? extends Answer> serveAsync(
        String request, String route, Executor answerOn) {
      served.incrementAndGet();
      started.countDown();
      return pending;
    }
  }

  @Test
  void anAnswerReadyAfterItsClientClosedIsDroppedWithoutAFailure() throws Exception {
    Late dialect = new Late();
    HttpListener listener =
        HttpListener.start(
            new ListenerOptions(
                "gone-test", "127.0.0.1", 0, 1, 1, 1 << 20, ConnectionLimits.defaults(), null),
            dialect);
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream stderr = System.err;
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      try (Socket client = new Socket(InetAddress.getLoopbackAddress(), listener.port())) {
        OutputStream out = client.getOutputStream();
        // one request (a second, pipelined, would stop the server reading until the first's
        // answer, so that it would not see the close before it)
        out.write(
            "GET /async HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        assertThat(dialect.started.await(10, TimeUnit.SECONDS)).isTrue();
      }
      // the server sees the close and takes the connection's pipeline apart
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!dialect.connection.isRemoved() && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(dialect.connection.isRemoved()).as("the pipeline is gone").isTrue();

      dialect.pending.complete(ApiResponse.text(200, "text/plain", "too late"));
      // the completion runs on the connection's event loop: wait until it has run
      dialect.connection.executor().submit(() -> {}).get(10, TimeUnit.SECONDS);
      dialect.connection.executor().submit(() -> {}).get(10, TimeUnit.SECONDS);
    } finally {
      System.setErr(stderr);
      listener.close();
    }
    assertThat(captured.toString(StandardCharsets.UTF_8))
        .doesNotContain("Exception")
        .doesNotContain("raised an exception");
    assertThat(dialect.served).hasValue(1);
  }
}
