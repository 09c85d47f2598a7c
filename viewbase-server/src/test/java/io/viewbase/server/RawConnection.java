package io.viewbase.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One HTTP/1.1 connection spoken to byte by byte, for what java.net.http hides: half-sent requests,
 * interim answers, framing and who closes the connection. Every read waits at most ten seconds, so
 * a server that never answers or never closes fails the test instead of hanging it.
 */
final class RawConnection implements AutoCloseable {
  private static final Pattern STATUS = Pattern.compile("^HTTP/1\\.[01] (\\d{3}) ");
  private static final int READ_TIMEOUT_MILLIS = 10_000;

  private final Socket socket;
  private final InputStream in;

  RawConnection(int port) {
    this(port, 0);
  }

  /**
   * {@code receiveBuffer}: the socket's receive buffer in bytes, so that a server's writes can
   * stall; 0: the default.
   */
  RawConnection(int port, int receiveBuffer) {
    try {
      socket = new Socket();
      if (receiveBuffer > 0) {
        socket.setReceiveBufferSize(receiveBuffer);
      }
      socket.connect(
          new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port),
          READ_TIMEOUT_MILLIS);
      socket.setSoTimeout(READ_TIMEOUT_MILLIS);
      in = socket.getInputStream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A response as read: its status, its head (status line and headers) and its body. */
  record Response(int status, String head, String body) {
    Optional<String> header(String name) {
      Matcher m = Pattern.compile("(?im)^" + Pattern.quote(name) + ": *([^\r\n]*)").matcher(head);
      return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }
  }

  RawConnection send(String text) {
    return send(text.getBytes(StandardCharsets.UTF_8));
  }

  RawConnection send(byte[] bytes) {
    try {
      socket.getOutputStream().write(bytes);
      socket.getOutputStream().flush();
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Sends a bodiless GET and reads its answer. */
  Response get(String path) {
    return send("GET " + path + " HTTP/1.1\r\nHost: test\r\n\r\n").read();
  }

  /** Reads one response, framed by its Content-Length; fails if the connection ends first. */
  Response read() {
    try {
      String head = readHead();
      Matcher status = STATUS.matcher(head);
      if (!status.find()) {
        throw new AssertionError("not a response head: " + head);
      }
      int length = 0;
      Matcher declared = Pattern.compile("(?im)^content-length: *(\\d+)").matcher(head);
      if (declared.find()) {
        length = Integer.parseInt(declared.group(1));
      }
      byte[] body = in.readNBytes(length);
      if (body.length < length) {
        throw new AssertionError("connection closed inside a body after " + head);
      }
      return new Response(
          Integer.parseInt(status.group(1)), head, new String(body, StandardCharsets.UTF_8));
    } catch (SocketTimeoutException silent) {
      throw new AssertionError("no answer within " + READ_TIMEOUT_MILLIS + " ms");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Waits until the server ends the connection, reading nothing more on the way; fails if it sends
   * anything or keeps the connection open past the read timeout.
   */
  void awaitClose() {
    try {
      int b = in.read();
      if (b >= 0) {
        byte[] more = in.readNBytes(Math.min(in.available(), 200));
        throw new AssertionError(
            "expected the server to close, it sent: "
                + (char) b
                + new String(more, StandardCharsets.ISO_8859_1));
      }
    } catch (SocketTimeoutException open) {
      throw new AssertionError(
          "the server kept the connection open for " + READ_TIMEOUT_MILLIS + " ms");
    } catch (SocketException reset) {
      if (!reset.getMessage().toLowerCase(Locale.ROOT).contains("reset")) {
        throw new UncheckedIOException(reset);
      }
      // a reset ends the connection too
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private String readHead() throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        throw new AssertionError("connection closed before a complete response head: " + head);
      }
      head.write(b);
      matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    return head.toString(StandardCharsets.ISO_8859_1);
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException ignored) {
      // closing a test socket cannot fail in a way that matters
    }
  }
}
