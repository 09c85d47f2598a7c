package io.viewbase.server;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Stability;
import io.viewbase.api.ViewbaseException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Strict percent-decoding of one path segment or query component into UTF-8 text. A '%' not
 * followed by two hex digits, or bytes that are not UTF-8, fail with {@link ErrorCode#InvalidInput}
 * rather than being passed on half-decoded: keys are identity, and a guess would address the wrong
 * item.
 */
@Stability(Stability.Level.INTERNAL)
public final class PercentDecoding {
  private PercentDecoding() {}

  /** A path segment: '+' is a literal plus (RFC 3986). */
  public static String segment(String raw) {
    return decode(raw, false, "path segment");
  }

  /** A query name or value: '+' is a space (HTML forms, and what most clients send). */
  public static String queryComponent(String raw) {
    return decode(raw, true, "query parameter");
  }

  private static boolean isPlain(String raw, boolean plusIsSpace) {
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '%' || c >= 0x80 || (c == '+' && plusIsSpace)) {
        return false;
      }
    }
    return true;
  }

  private static String decode(String raw, boolean plusIsSpace, String what) {
    if (isPlain(raw, plusIsSpace)) {
      return raw;
    }
    ByteBuffer bytes = ByteBuffer.allocate(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '%') {
        int hi = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
        int lo = hi >= 0 ? Character.digit(raw.charAt(i + 2), 16) : -1;
        if (lo < 0) {
          throw ViewbaseException.of(
              ErrorCode.InvalidInput,
              "Malformed percent-encoding: '%' must be followed by two hex digits",
              "in",
              what,
              "text",
              raw);
        }
        bytes.put((byte) (hi << 4 | lo));
        i += 2;
      } else if (c == '+' && plusIsSpace) {
        bytes.put((byte) ' ');
      } else if (c <= 0xFF) {
        // The HTTP decoder hands over the request line byte for byte (ISO-8859-1), so a client that
        // sent raw UTF-8 instead of percent-encoding it is still read as the UTF-8 it meant.
        bytes.put((byte) c);
      } else {
        throw ViewbaseException.of(
            ErrorCode.InvalidInput,
            "Non-ASCII text in a request target must be percent-encoded",
            "in",
            what,
            "text",
            raw);
      }
    }
    bytes.flip();
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(bytes)
          .toString();
    } catch (CharacterCodingException e) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "Percent-encoded bytes are not valid UTF-8",
          "in",
          what,
          "text",
          raw);
    }
  }
}
