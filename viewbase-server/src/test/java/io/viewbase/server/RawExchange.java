package io.viewbase.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One raw request on a fresh connection, for the request-path fuzz targets: the bytes go out as
 * given, and everything the server sends until it closes is read back, within a time bound. Public
 * for the dialects' fuzz targets in their own packages.
 */
public final class RawExchange {
  private static final Pattern STATUS = Pattern.compile("^HTTP/1\\.1 (\\d{3}) ");

  private RawExchange() {}

  /**
   * The status codes of every response the server sent to {@code request} before closing (a request
   * may hold several pipelined messages). Fails with an AssertionError if the server does not close
   * within {@code timeoutMillis}: a hang.
   */
  public static List<Integer> statuses(int port, byte[] request, int timeoutMillis) {
    String answer = exchange(port, request, timeoutMillis);
    List<Integer> statuses = new java.util.ArrayList<>();
    int at = 0;
    while (at < answer.length()) {
      int head = answer.indexOf("HTTP/1.1 ", at);
      if (head < 0) {
        break;
      }
      Matcher m = STATUS.matcher(answer.substring(head, Math.min(answer.length(), head + 16)));
      if (!m.find()) {
        throw new AssertionError("malformed status line in: " + answer);
      }
      statuses.add(Integer.parseInt(m.group(1)));
      at = head + 9;
    }
    return statuses;
  }

  /**
   * How long the client waits for the server's first bytes before it closes its side. Most inputs
   * that get no answer that soon are requests the bytes did not finish (a body shorter than its
   * length, a chunk), which the server rightly waits on; a longer wait would make them most of a
   * fuzzing run's time. An answer slower than this may meet a closed connection, which the server
   * must survive too.
   */
  private static final int PATIENCE_MILLIS = 100;

  /**
   * Writes the request and reads until the server closes. A server that neither answers nor closes
   * within {@link #PATIENCE_MILLIS} may be waiting for the rest of a request the bytes did not
   * finish (a longer body, a chunk): the client then closes its side, as one with nothing more to
   * send does, and waits again, up to {@code timeoutMillis}. Silence after that, or bytes that keep
   * coming, is a hang.
   */
  private static String exchange(int port, byte[] request, int timeoutMillis) {
    ByteArrayOutputStream got = new ByteArrayOutputStream();
    long deadline = System.nanoTime() + 2L * timeoutMillis * 1_000_000L;
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), timeoutMillis);
      s.setSoTimeout(Math.min(PATIENCE_MILLIS, timeoutMillis));
      s.getOutputStream().write(request);
      s.getOutputStream().flush();
      InputStream in = s.getInputStream();
      byte[] buf = new byte[8192];
      boolean halfClosed = false;
      while (true) {
        int n;
        try {
          n = in.read(buf);
        } catch (SocketTimeoutException e) {
          if (halfClosed) {
            throw new AssertionError("no close within " + timeoutMillis + " ms of the end", e);
          }
          s.shutdownOutput();
          s.setSoTimeout(timeoutMillis);
          halfClosed = true;
          continue;
        }
        if (n < 0) {
          break;
        }
        got.write(buf, 0, n);
        if (System.nanoTime() > deadline) {
          throw new AssertionError("the server kept sending past " + 2 * timeoutMillis + " ms");
        }
      }
    } catch (IOException e) {
      // A reset (the server refused the rest of a malformed stream): what came before it counts.
    }
    return got.toString(StandardCharsets.ISO_8859_1);
  }
}
