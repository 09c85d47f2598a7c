package io.viewbase.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import io.viewbase.api.Stability;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * An HTTP/1.x response written straight into one buffer: the status line, the headers and the body,
 * so that it leaves in one {@code write} call. Netty's response encoder puts a body that does not
 * fit the spare room of its header buffer (most JSON bodies) in a second buffer, which the socket
 * then sends with a gathering {@code writev}, and it first builds a header map, converting and
 * checking every value on the way; the dialects know their headers and need neither.
 *
 * <p>Header names come from Viewbase's own code and are written as they are. Values are checked as
 * Netty checks them: a control character other than a tab (a response-splitting CR or LF above all)
 * fails the response with an IllegalArgumentException. Values travel as ISO-8859-1; one that holds
 * a character beyond it (a client request id the Azure dialect echoes) is written as its UTF-8
 * bytes, which is what the client sent.
 *
 * <pre>
 * ResponseBytes.start(alloc, version, 200, body.length).header("ETag", etag).finish(body, false)
 * </pre>
 */
@Stability(Stability.Level.INTERNAL)
public final class ResponseBytes {
  private static final int CRLF = ('\r' << 8) | '\n';
  private static final int COLON_SPACE = (':' << 8) | ' ';
  private static final int MAX_CACHED_STATUS = 600;

  /** "HTTP/1.1 200 OK\r\n" and the like; index: status code (HTTP/1.0's 600 further on). */
  private static final byte[][] STATUS_LINES = new byte[2 * MAX_CACHED_STATUS][];

  private static final byte[] CONNECTION_CLOSE =
      lines(Map.of(HttpHeaderNames.CONNECTION.toString(), HttpHeaderValues.CLOSE.toString()));
  private static final byte[] CONNECTION_KEEP_ALIVE =
      lines(Map.of(HttpHeaderNames.CONNECTION.toString(), HttpHeaderValues.KEEP_ALIVE.toString()));

  /** Room for the status line and the headers beyond the body. */
  private static final int HEAD_ROOM = 384;

  static {
    for (int status = 100; status < MAX_CACHED_STATUS; status++) {
      STATUS_LINES[status] = encodeStatusLine(false, status);
      STATUS_LINES[MAX_CACHED_STATUS + status] = encodeStatusLine(true, status);
    }
  }

  private final ByteBuf buf;
  private final boolean http10;

  private ResponseBytes(ByteBuf buf, boolean http10) {
    this.buf = buf;
    this.http10 = http10;
  }

  /** Starts a response with its status line; {@code bodyLength} sizes the buffer. */
  public static ResponseBytes start(
      ByteBufAllocator alloc, HttpVersion version, int status, int bodyLength) {
    ByteBuf buf = alloc.ioBuffer(HEAD_ROOM + bodyLength);
    boolean http10 = version.majorVersion() == 1 && version.minorVersion() == 0;
    buf.writeBytes(statusLine(http10, status));
    return new ResponseBytes(buf, http10);
  }

  /** Adds a header; see the class comment for what a value may hold. */
  public ResponseBytes header(CharSequence name, CharSequence value) {
    writeName(name);
    try {
      writeValue(name, value);
    } catch (
        RuntimeException e) { // a control character, or no value at all: the response is not sent
      buf.release();
      throw e;
    }
    buf.writeShort(CRLF);
    return this;
  }

  /** Adds a header with a number for its value (Content-Length). */
  public ResponseBytes header(CharSequence name, int value) {
    writeName(name);
    writeDigits(value);
    buf.writeShort(CRLF);
    return this;
  }

  /**
   * Adds header lines that {@link #lines(Map)} encoded: for headers that many answers share (a
   * cached answer's), checked and encoded once rather than at every write.
   */
  public ResponseBytes lines(byte[] encoded) {
    buf.writeBytes(encoded);
    return this;
  }

  /**
   * The header lines ({@code name: value CRLF} each, in the map's order) that {@link #header} would
   * write for these headers, checked as it checks them: fails alike.
   */
  public static byte[] lines(Map<String, String> headers) {
    ResponseBytes out = new ResponseBytes(Unpooled.buffer(64 * headers.size()), false);
    headers.forEach(out::header);
    byte[] encoded = ByteBufUtil.getBytes(out.buf);
    out.buf.release();
    return encoded;
  }

  /**
   * Says whether the connection stays open: {@code Connection: close} when it does not; when it
   * does, the {@code Keep-Alive} line given (how long an idle connection is kept, {@code
   * timeout=N}, encoded by {@link #lines(Map)}; left out when null), and {@code Connection:
   * keep-alive} for an HTTP/1.0 client (1.1 keeps it by default).
   */
  public ResponseBytes keepAlive(boolean keepAlive, byte[] keepAliveLine) {
    if (!keepAlive) {
      return lines(CONNECTION_CLOSE);
    }
    if (keepAliveLine != null) {
      lines(keepAliveLine);
    }
    return http10 ? lines(CONNECTION_KEEP_ALIVE) : this;
  }

  /**
   * Ends the head and adds the body, unless {@code omitBody} (the answer to a HEAD request, whose
   * headers still describe the body a GET would get). The buffer is the caller's to write.
   */
  public ByteBuf finish(byte[] body, boolean omitBody) {
    buf.writeShort(CRLF);
    if (!omitBody && body != null) {
      buf.writeBytes(body);
    }
    return buf;
  }

  /** A number in decimal, written digit by digit (no string made for it). */
  private void writeDigits(int value) {
    if (value < 0) {
      ByteBufUtil.writeAscii(buf, Integer.toString(value));
      return;
    }
    int digits = 1;
    for (int rest = value / 10; rest > 0; rest /= 10) {
      digits++;
    }
    int at = buf.writerIndex();
    buf.ensureWritable(digits);
    for (int i = digits - 1, rest = value; i >= 0; i--, rest /= 10) {
      buf.setByte(at + i, '0' + rest % 10);
    }
    buf.writerIndex(at + digits);
  }

  /** A header's name and the colon after it; names are ASCII tokens. */
  private void writeName(CharSequence name) {
    if (name instanceof String text) {
      // one copy of the string's bytes, not a loop over its characters
      buf.writeBytes(text.getBytes(StandardCharsets.ISO_8859_1));
    } else {
      ByteBufUtil.writeAscii(buf, name);
    }
    buf.writeShort(COLON_SPACE);
  }

  /**
   * A header's value: in ISO-8859-1 when every character is in it (one copy of the string's bytes,
   * then one pass over them), else in UTF-8; fails on a control character.
   */
  private void writeValue(CharSequence name, CharSequence value) {
    if (value instanceof AsciiString ascii) {
      checkControls(name, ascii.array(), ascii.arrayOffset(), ascii.length());
      buf.writeBytes(ascii.array(), ascii.arrayOffset(), ascii.length());
      return;
    }
    String text = value.toString();
    byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
    if (checkControls(name, bytes, 0, bytes.length) && !allLatin1(text, bytes)) {
      ByteBufUtil.writeUtf8(buf, text);
    } else {
      buf.writeBytes(bytes);
    }
  }

  /**
   * Fails on a control character (HTAB aside) among the bytes; returns whether they hold a '?',
   * which is also how ISO-8859-1 encodes a character beyond it.
   */
  private static boolean checkControls(CharSequence name, byte[] bytes, int offset, int length) {
    boolean question = false;
    for (int i = 0; i < length; i++) {
      int c = bytes[offset + i] & 0xFF;
      if ((c < 0x20 && c != '\t') || c == 0x7F) {
        throw new IllegalArgumentException(
            "The value of header "
                + name
                + " holds the control character 0x"
                + Integer.toHexString(c)
                + " at "
                + i);
      }
      question |= c == '?';
    }
    return question;
  }

  /** Whether each '?' of the ISO-8859-1 bytes is a '?' of the text, not a character beyond it. */
  private static boolean allLatin1(String text, byte[] bytes) {
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == '?' && text.charAt(i) != '?') {
        return false;
      }
    }
    return true;
  }

  private static byte[] statusLine(boolean http10, int status) {
    if (status < 100 || status >= MAX_CACHED_STATUS) {
      return encodeStatusLine(http10, status);
    }
    return STATUS_LINES[http10 ? MAX_CACHED_STATUS + status : status];
  }

  private static byte[] encodeStatusLine(boolean http10, int status) {
    return ((http10 ? "HTTP/1.0 " : "HTTP/1.1 ") + HttpResponseStatus.valueOf(status) + "\r\n")
        .getBytes(StandardCharsets.ISO_8859_1);
  }
}
