package io.viewbase.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Closing a listener delivers the answers handed to its event loops before the close, even when a
 * loop is busy at that moment: a loop told to shut down closes its channels before it runs what is
 * queued on it, so the close must wait until the loops have run their queues.
 */
class HttpListenerCloseTest {
  /**
   * {@code /async} is answered when the test completes {@link #pending}; reading {@code /block}
   * holds the event loop (inside its I/O step) until {@link #release}.
   */
  private static final class Holding extends PathDialect {
    final CompletableFuture<Answer> pending = new CompletableFuture<>();
    final CountDownLatch asyncStarted = new CountDownLatch(1);
    final CountDownLatch blocking = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    @Override
    public String read(ChannelHandlerContext ctx, FullHttpRequest request) {
      if (request.uri().equals("/block")) {
        blocking.countDown();
        try {
          release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return request.uri();
    }

    @Override
    public Mode mode(String request, String route) {
      return request.equals("/async") ? Mode.ASYNC : Mode.INLINE;
    }

    @Override
    public Answer serve(String request, String route) {
      return ApiResponse.text(200, "text/plain", "inline");
    }

    @Override
    public CompletableFuture<? extends Answer> serveAsync(
        String request, String route, Executor answerOn) {
      asyncStarted.countDown();
      return pending;
    }
  }

  @Test
  void anAnswerQueuedOnABusyLoopStillLeavesWhenTheListenerCloses() throws Exception {
    Holding dialect = new Holding();
    // one event loop, so that both connections are on the loop that /block holds
    HttpListener listener =
        HttpListener.start(
            new ListenerOptions(
                "close-test", "127.0.0.1", 0, 1, 1, 1 << 20, ConnectionLimits.defaults(), null),
            dialect);
    try (Socket waiting = connect(listener);
        Socket holder = connect(listener)) {
      send(waiting, "/async");
      assertThat(dialect.asyncStarted.await(10, TimeUnit.SECONDS)).isTrue();
      send(holder, "/block");
      assertThat(dialect.blocking.await(10, TimeUnit.SECONDS)).isTrue();

      // the answer is handed over while the loop is busy: it waits in the loop's queue
      dialect.pending.complete(ApiResponse.text(200, "text/plain", "answered"));
      Thread closing = new Thread(listener::close, "closing");
      closing.start();
      Thread.sleep(300); // the close has begun and asked the loop to stop
      dialect.release.countDown();
      closing.join(TimeUnit.SECONDS.toMillis(30));
      assertThat(closing.isAlive()).as("the close ended").isFalse();

      assertThat(readAll(waiting)).startsWith("HTTP/1.1 200 OK").endsWith("answered");
    }
  }

  private static Socket connect(HttpListener listener) throws IOException {
    Socket socket = new Socket(InetAddress.getLoopbackAddress(), listener.port());
    socket.setSoTimeout(30_000);
    return socket;
  }

  private static void send(Socket socket, String path) throws IOException {
    OutputStream out = socket.getOutputStream();
    out.write(
        ("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  /** What arrives until the server closes the connection. */
  private static String readAll(Socket socket) throws IOException {
    InputStream in = socket.getInputStream();
    ByteArrayOutputStream got = new ByteArrayOutputStream();
    byte[] buffer = new byte[4096];
    try {
      for (int n; (n = in.read(buffer)) > 0; ) {
        got.write(buffer, 0, n);
      }
    } catch (IOException reset) {
      // a reset after what arrived: the answer, if any, is in got
    }
    return got.toString(StandardCharsets.ISO_8859_1);
  }
}
