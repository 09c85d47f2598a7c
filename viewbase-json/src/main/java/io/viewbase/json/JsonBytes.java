package io.viewbase.json;

import io.viewbase.api.Value;
import java.time.Instant;
import java.util.Arrays;

/**
 * A JSON document being written as UTF-8 bytes, for the one shape every response carries most: an
 * item. It writes exactly the bytes that Jackson's UTF-8 generator writes for the same calls (the
 * tests compare them), without a generator, an output stream and their buffers per document: a
 * point read spends most of its JSON time there, not in the few dozen bytes of its item.
 *
 * <table>
 *   <caption>how a string's characters are written (as Jackson does)</caption>
 *   <tr><th>character</th><th>bytes</th></tr>
 *   <tr><td>{@code "} and {@code \}</td><td>{@code \"}, {@code \\}</td></tr>
 *   <tr><td>U+0008, U+0009, U+000A, U+000C, U+000D</td><td>{@code \b \t \n \f \r}</td></tr>
 *   <tr><td>other controls below U+0020</td><td><code>&#92;u00XX</code>, upper-case hex</td></tr>
 *   <tr><td>surrogates (U+D800..U+DFFF), each</td><td><code>&#92;uXXXX</code>, upper-case hex</td></tr>
 *   <tr><td>anything else</td><td>its UTF-8 bytes</td></tr>
 * </table>
 *
 * <p>Commas are the caller's: {@link #comma()} before every member or element but the first. Public
 * for the server's Azure dialect, which writes its entities the same way.
 */
public final class JsonBytes {
  private static final byte[] HEX =
      "0123456789ABCDEF".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  /**
   * The short escape of each character below 0x20 (0: none, write <code>&#92;u00XX</code>), and of
   * '"' and '\'.
   */
  private static final byte[] SHORT_ESCAPES = new byte[128];

  private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
  private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
  private static final byte[] NULL = {'n', 'u', 'l', 'l'};
  private static final int CHUNK = 1024;

  static {
    SHORT_ESCAPES['\b'] = 'b';
    SHORT_ESCAPES['\t'] = 't';
    SHORT_ESCAPES['\n'] = 'n';
    SHORT_ESCAPES['\f'] = 'f';
    SHORT_ESCAPES['\r'] = 'r';
    SHORT_ESCAPES['"'] = '"';
    SHORT_ESCAPES['\\'] = '\\';
  }

  /**
   * The scratch buffer each thread writes its documents into; only the finished bytes are copied
   * out.
   */
  private static final ThreadLocal<JsonBytes> SCRATCH =
      ThreadLocal.withInitial(() -> new JsonBytes(1024));

  /**
   * A thread keeps a scratch buffer up to this size; one grown past it (a huge item) is dropped.
   */
  private static final int KEEP_BYTES = 64 * 1024;

  private byte[] buf;
  private int len;

  JsonBytes(int capacity) {
    buf = new byte[capacity];
  }

  /**
   * This thread's empty scratch document. Use it for one document at a time and finish with {@link
   * #toByteArray()} before starting the next.
   */
  public static JsonBytes scratch() {
    JsonBytes out = SCRATCH.get();
    if (out.buf.length > KEEP_BYTES) {
      out = new JsonBytes(1024);
      SCRATCH.set(out);
    }
    out.len = 0;
    return out;
  }

  public byte[] toByteArray() {
    return Arrays.copyOf(buf, len);
  }

  public JsonBytes startObject() {
    return ascii('{');
  }

  public JsonBytes endObject() {
    return ascii('}');
  }

  public JsonBytes startArray() {
    return ascii('[');
  }

  public JsonBytes endArray() {
    return ascii(']');
  }

  public JsonBytes comma() {
    return ascii(',');
  }

  /** {@code "name":}, the name escaped like any string. */
  public JsonBytes name(String name) {
    return quoted(name, "").ascii(':');
  }

  /** {@code "name@odata.type":}: a name with an ASCII suffix that needs no escape. */
  public JsonBytes name(String name, String asciiSuffix) {
    return quoted(name, asciiSuffix).ascii(':');
  }

  public JsonBytes string(String s) {
    return quoted(s, "");
  }

  private JsonBytes quoted(String s, String asciiSuffix) {
    ascii('"');
    int n = s.length();
    for (int start = 0; start < n; start += CHUNK) {
      escape(s, start, Math.min(n, start + CHUNK));
    }
    return raw(asciiSuffix).ascii('"');
  }

  /**
   * Writes s[from, to) escaped; at most {@link #CHUNK} characters, so the room needed stays small.
   * Plain ASCII, the common case, needs one byte a character; the room for escapes and multi-byte
   * characters is only made once one turns up.
   */
  private void escape(String s, int from, int to) {
    ensure(to - from);
    byte[] b = buf;
    int p = len;
    int i = from;
    for (; i < to; i++) {
      char c = s.charAt(i);
      if (c >= 0x80 || c < 0x20 || c == '"' || c == '\\') {
        break;
      }
      b[p++] = (byte) c;
    }
    len = p;
    if (i < to) {
      escapeRest(s, i, to);
    }
  }

  private void escapeRest(String s, int from, int to) {
    ensure((to - from) * 6); // worst case: every character a six-byte escape
    byte[] b = buf;
    int p = len;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        if (c >= 0x20 && c != '"' && c != '\\') {
          b[p++] = (byte) c;
        } else {
          b[p++] = '\\';
          byte escape = SHORT_ESCAPES[c];
          if (escape != 0) {
            b[p++] = escape;
          } else {
            p = unicodeEscape(b, p + 1, c);
          }
        }
      } else if (c < 0x800) {
        b[p++] = (byte) (0xC0 | (c >> 6));
        b[p++] = (byte) (0x80 | (c & 0x3F));
      } else if (c >= 0xD800 && c <= 0xDFFF) {
        b[p++] = '\\';
        p = unicodeEscape(b, p + 1, c);
      } else {
        b[p++] = (byte) (0xE0 | (c >> 12));
        b[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        b[p++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    len = p;
  }

  /**
   * Writes <code>uXXXX</code> at {@code p - 1} (the backslash is already there); returns the new
   * end.
   */
  private static int unicodeEscape(byte[] b, int p, char c) {
    b[p - 1] = 'u';
    b[p++] = HEX[(c >> 12) & 0xF];
    b[p++] = HEX[(c >> 8) & 0xF];
    b[p++] = HEX[(c >> 4) & 0xF];
    b[p++] = HEX[c & 0xF];
    return p;
  }

  public JsonBytes number(long value) {
    if (value == Long.MIN_VALUE) {
      return raw("-9223372036854775808");
    }
    ensure(20);
    if (value < 0) {
      buf[len++] = '-';
      value = -value;
    }
    int digits = digits(value);
    int end = len + digits;
    for (int p = end - 1; p >= len; p--) {
      buf[p] = (byte) ('0' + value % 10);
      value /= 10;
    }
    len = end;
    return this;
  }

  /**
   * {@code "123"}: a whole number as JSON text, quoted, as a protocol that sends numbers as
   * strings.
   */
  public JsonBytes quotedNumber(long value) {
    return ascii('"').number(value).ascii('"');
  }

  public JsonBytes bool(boolean value) {
    return bytes(value ? TRUE : FALSE);
  }

  public JsonBytes nullValue() {
    return bytes(NULL);
  }

  /**
   * {@code "name":} encoded once, for a writer that writes the same member name many times: hand it
   * to {@link #encoded} instead of calling {@link #name(String)} each time.
   */
  public static byte[] encodedName(String name) {
    return new JsonBytes(name.length() + 3).name(name).toByteArray();
  }

  /** JSON text encoded earlier (by {@link #encodedName}), written as it is. */
  public JsonBytes encoded(byte[] json) {
    return bytes(json);
  }

  /** ASCII text written as it is (a number Java formatted, a name known to need no escape). */
  public JsonBytes raw(String ascii) {
    int n = ascii.length();
    ensure(n);
    for (int i = 0; i < n; i++) {
      buf[len++] = (byte) ascii.charAt(i);
    }
    return this;
  }

  /**
   * {@code "2026-11-30T12:00:00.1234567Z"}: the instant as {@link Value.DateTime#isoString} writes
   * it, straight into the buffer.
   */
  public JsonBytes isoTime(Instant instant) {
    return isoTime(instant.getEpochSecond(), instant.getNano());
  }

  /**
   * The datetime as {@link Value.DateTime#toIsoString} writes it, quoted, straight into the buffer.
   */
  public JsonBytes isoTime(Value.DateTime time) {
    long ticks = time.ticks();
    return isoTime(
        Math.floorDiv(ticks, Value.DateTime.TICKS_PER_SECOND),
        (int) Math.floorMod(ticks, Value.DateTime.TICKS_PER_SECOND) * 100);
  }

  private JsonBytes isoTime(long epochSecond, int nanos) {
    ensure(Value.DateTime.MAX_ISO_BYTES + 2);
    buf[len++] = '"';
    len = Value.DateTime.writeIso(epochSecond, nanos, false, buf, len);
    buf[len++] = '"';
    return this;
  }

  private static int digits(long value) {
    int digits = 1;
    while (value >= 10) {
      value /= 10;
      digits++;
    }
    return digits;
  }

  private JsonBytes ascii(char c) {
    ensure(1);
    buf[len++] = (byte) c;
    return this;
  }

  private JsonBytes bytes(byte[] bytes) {
    ensure(bytes.length);
    System.arraycopy(bytes, 0, buf, len, bytes.length);
    len += bytes.length;
    return this;
  }

  private void ensure(int extra) {
    if (len + extra > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + extra));
    }
  }
}
