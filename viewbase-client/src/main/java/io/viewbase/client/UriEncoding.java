package io.viewbase.client;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Percent-encoding of path segments and query components: every byte of the UTF-8 form except RFC
 * 3986's unreserved characters is encoded, so keys with '/', '#', '?', '+', '%' or spaces address
 * exactly themselves. A segment of only dots is encoded too, lest something on the way resolve it
 * as "this" or "parent" directory.
 */
final class UriEncoding {
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private UriEncoding() {}

  static String encode(String text) {
    byte[] bytes = utf8(text);
    boolean onlyDots = !text.isEmpty() && text.chars().allMatch(c -> c == '.');
    StringBuilder out = new StringBuilder(bytes.length + 16);
    for (byte b : bytes) {
      int c = b & 0xFF;
      if (isUnreserved(c) && !(onlyDots && c == '.')) {
        out.append((char) c);
      } else {
        out.append('%').append(HEX[c >> 4]).append(HEX[c & 0xF]);
      }
    }
    return out.toString();
  }

  private static boolean isUnreserved(int c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '-'
        || c == '.'
        || c == '_'
        || c == '~';
  }

  /** Strict UTF-8: a lone surrogate would silently become '?', which addresses another key. */
  private static byte[] utf8(String text) {
    try {
      ByteBuffer buffer =
          StandardCharsets.UTF_8
              .newEncoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .encode(CharBuffer.wrap(text));
      byte[] bytes = new byte[buffer.remaining()];
      buffer.get(bytes);
      return bytes;
    } catch (CharacterCodingException e) {
      throw ViewbaseException.of(ErrorCode.InvalidKey, "Text holds an unpaired UTF-16 surrogate");
    }
  }
}
