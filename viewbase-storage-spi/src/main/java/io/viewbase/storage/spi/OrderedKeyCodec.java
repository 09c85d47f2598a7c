package io.viewbase.storage.spi;

import java.util.Arrays;

/**
 * Packs (partition, key) into one byte string whose unsigned byte order is the order of the pairs:
 * first by partition, then by key. For backends over a flat ordered key-value space.
 *
 * <p>The partition is escaped (each 0x00 becomes 0x00 0xFF) and closed by 0x00 0x01; the key
 * follows unescaped. A partition that is a proper prefix of another then sorts first, because its
 * terminator 0x00 0x01 is below both an escaped zero (0x00 0xFF) and any other byte.
 */
public final class OrderedKeyCodec {
  private static final byte ESCAPE = 0x00;
  private static final byte ESCAPED_ZERO = (byte) 0xFF;
  private static final byte TERMINATOR = 0x01;
  private static final byte PAST_TERMINATOR = 0x02;

  private OrderedKeyCodec() {}

  public static byte[] encode(byte[] partition, byte[] key) {
    byte[] p = escapedPartition(partition);
    byte[] out = Arrays.copyOf(p, p.length + 2 + key.length);
    out[p.length] = ESCAPE;
    out[p.length + 1] = TERMINATOR;
    System.arraycopy(key, 0, out, p.length + 2, key.length);
    return out;
  }

  /** The prefix shared by every encoded key of this partition (escaped partition + terminator). */
  public static byte[] partitionStart(byte[] partition) {
    byte[] p = escapedPartition(partition);
    byte[] out = Arrays.copyOf(p, p.length + 2);
    out[p.length] = ESCAPE;
    out[p.length + 1] = TERMINATOR;
    return out;
  }

  /** The smallest encoded key above every key of this partition and below the next partition's. */
  public static byte[] partitionEnd(byte[] partition) {
    byte[] start = partitionStart(partition);
    start[start.length - 1] = PAST_TERMINATOR;
    return start;
  }

  /** The prefix shared by every encoded key whose partition starts with {@code partitionPrefix}. */
  public static byte[] escapedPartition(byte[] partition) {
    int zeros = 0;
    for (byte b : partition) {
      if (b == 0) {
        zeros++;
      }
    }
    if (zeros == 0) {
      return Arrays.copyOf(partition, partition.length); // not clone(): a VM call in C1's code
    }
    byte[] out = new byte[partition.length + zeros];
    int j = 0;
    for (byte b : partition) {
      out[j++] = b;
      if (b == 0) {
        out[j++] = ESCAPED_ZERO;
      }
    }
    return out;
  }

  /** The length of the escaped partition plus terminator at the start of {@code encoded}. */
  public static int keyOffset(byte[] encoded) {
    return keyOffset(encoded, encoded.length);
  }

  /** {@link #keyOffset(byte[])} of the encoded key in {@code encoded[0, length)}. */
  public static int keyOffset(byte[] encoded, int length) {
    for (int i = 0; i < length - 1; i++) {
      if (encoded[i] == ESCAPE) {
        if (encoded[i + 1] == TERMINATOR) {
          return i + 2;
        }
        i++; // skip the escaped zero
      }
    }
    throw new IllegalArgumentException(
        "not an encoded key: " + Bytes.toDisplay(Arrays.copyOf(encoded, length)));
  }

  public static byte[] decodePartition(byte[] encoded) {
    return decodePartition(encoded, encoded.length);
  }

  /**
   * The partition of the encoded key in {@code encoded[0, length)}; {@code length} may also end
   * right after the partition's terminator.
   */
  public static byte[] decodePartition(byte[] encoded, int length) {
    int end = keyOffset(encoded, length) - 2;
    int escapes = 0;
    for (int i = 0; i < end; i++) {
      if (encoded[i] == ESCAPE) {
        escapes++;
        i++;
      }
    }
    if (escapes == 0) {
      return Arrays.copyOf(encoded, end);
    }
    byte[] out = new byte[end - escapes];
    int o = 0;
    for (int i = 0; i < end; i++) {
      out[o++] = encoded[i];
      if (encoded[i] == ESCAPE) {
        i++;
      }
    }
    return out;
  }

  public static byte[] decodeKey(byte[] encoded) {
    return Arrays.copyOfRange(encoded, keyOffset(encoded), encoded.length);
  }
}
