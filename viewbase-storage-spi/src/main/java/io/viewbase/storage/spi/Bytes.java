package io.viewbase.storage.spi;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Small helpers on unsigned byte strings. */
public final class Bytes {
  public static final byte[] EMPTY = new byte[0];

  private Bytes() {}

  /**
   * The smallest byte string greater than every string that starts with {@code prefix}, or null if
   * there is none (the prefix is empty or all 0xFF).
   */
  public static byte[] prefixEnd(byte[] prefix) {
    for (int i = prefix.length - 1; i >= 0; i--) {
      if (prefix[i] != (byte) 0xFF) {
        byte[] end = Arrays.copyOf(prefix, i + 1);
        end[i]++;
        return end;
      }
    }
    return null;
  }

  public static boolean startsWith(byte[] bytes, byte[] prefix) {
    return bytes.length >= prefix.length
        && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
  }

  public static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  /** Printable form for messages: UTF-8 text when it is printable ASCII, else hex. */
  public static String toDisplay(byte[] bytes) {
    if (bytes == null) {
      return "-";
    }
    boolean printable = true;
    for (byte b : bytes) {
      if (b < 0x20 || b > 0x7e) {
        printable = false;
        break;
      }
    }
    if (printable) {
      return "'" + new String(bytes, StandardCharsets.US_ASCII) + "'";
    }
    StringBuilder sb = new StringBuilder("0x");
    for (byte b : bytes) {
      sb.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
    }
    return sb.toString();
  }
}
