package io.viewbase.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One raw request on a fresh connection, for the request-path fuzz targets: the bytes go out as
 * given, and everything the server sends until it closes is read back, within a time bound. Public
 * for the dialects' fuzz targets in their own packages.
 */
public final class RawExchange {
  private static final Pattern STATUS = Pattern.compile("^HTTP/1\\.[01] (\\d{3}) ");

  private RawExchange() {}

  /**
   * The status codes of every response the server sent to {@code request} before closing (a request
   * may hold several pipelined messages). Fails with an AssertionError if the server does not close
   * within {@code timeoutMillis}: a hang.
   */
  public static List<Integer> statuses(int port, byte[] request, int timeoutMillis) {
    return statuses(port, request, timeoutMillis, PATIENCE_MILLIS);
  }

  /**
   * {@link #statuses(int, byte[], int)} with a patience of the caller's: a test that compares
   * answers, rather than fuzzing for hangs, waits long enough that a loaded machine's slow answer
   * is not mistaken for an unfinished request's silence.
   */
  public static List<Integer> statuses(
      int port, byte[] request, int timeoutMillis, int patienceMillis) {
    return statusesOf(exchange(port, request, timeoutMillis, patienceMillis));
  }

  /**
   * The status of each response in {@code answer} (bytes as ISO-8859-1 chars), framed as a client
   * frames them (an HTTP/1.0 request is answered in HTTP/1.0): a status line and headers up to the
   * blank line, then as many bytes of body as its {@code Content-Length} says. A body may hold any
   * text, a status line's included (an error message quoting the request); an answer that carries
   * no body although it states a length (to HEAD) is followed at once by the next status line (told
   * apart by that line: no body this server sends begins with one). Fails on an answer whose status
   * line is malformed or whose head does not end before the server closed.
   */
  static List<Integer> statusesOf(String answer) {
    List<Integer> statuses = new ArrayList<>();
    int at = 0;
    while (at < answer.length()) {
      int headEnd = answer.indexOf("\r\n\r\n", at);
      if (headEnd < 0) {
        throw new AssertionError("an answer cut off in its head: " + answer.substring(at));
      }
      String head = answer.substring(at, headEnd);
      Matcher status = STATUS.matcher(head);
      if (!status.find()) {
        throw new AssertionError("malformed status line in: " + answer);
      }
      statuses.add(Integer.parseInt(status.group(1)));
      int bodyStart = headEnd + 4;
      long length = contentLength(head);
      boolean bodyAbsent =
          length > 0 && STATUS.matcher(answer).region(bodyStart, answer.length()).lookingAt();
      at = (int) Math.min(answer.length(), bodyStart + (bodyAbsent ? 0 : length));
    }
    return statuses;
  }

  /** A response head's Content-Length, or 0 without one. */
  private static long contentLength(String head) {
    for (String line : head.split("\r\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("content-length")) {
        return Long.parseLong(line.substring(colon + 1).trim());
      }
    }
    return 0;
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
   * within {@code patienceMillis} may be waiting for the rest of a request the bytes did not finish
   * (a longer body, a chunk): the client then closes its side, as one with nothing more to send
   * does, and waits again, up to {@code timeoutMillis}. Silence after that, or bytes that keep
   * coming, is a hang.
   */
  private static String exchange(int port, byte[] request, int timeoutMillis, int patienceMillis) {
    ByteArrayOutputStream got = new ByteArrayOutputStream();
    long deadline = System.nanoTime() + 2L * timeoutMillis * 1_000_000L;
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), timeoutMillis);
      s.setSoTimeout(Math.min(patienceMillis, timeoutMillis));
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
