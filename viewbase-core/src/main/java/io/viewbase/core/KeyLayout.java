package io.viewbase.core;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * How tables map onto storage partitions: a storage partition is the table's 4-byte id (big-endian)
 * followed by the item's partition key in UTF-8; the storage sort key is the item's id in UTF-8.
 * UTF-8 byte order is code point order, so ids sort ordinally, as DESIGN §1 promises. Table id 0 is
 * the system space (catalog and database metadata).
 */
final class KeyLayout {
  static final int SYSTEM_TABLE_ID = 0;
  static final int TABLE_PREFIX_BYTES = 4;

  private KeyLayout() {}

  static byte[] tablePrefix(int tableId) {
    return new byte[] {
      (byte) (tableId >>> 24), (byte) (tableId >>> 16), (byte) (tableId >>> 8), (byte) tableId
    };
  }

  static byte[] partition(int tableId, String partitionKey) {
    // Every read and write computes one: an ASCII key (the usual kind) is written straight into
    // the partition, without the intermediate array of getBytes.
    int length = partitionKey.length();
    byte[] out = new byte[TABLE_PREFIX_BYTES + length];
    for (int i = 0; i < length; i++) {
      char c = partitionKey.charAt(i);
      if (c >= 0x80) {
        return partition(tableId, partitionKey.getBytes(StandardCharsets.UTF_8));
      }
      out[TABLE_PREFIX_BYTES + i] = (byte) c;
    }
    writePrefix(out, tableId);
    return out;
  }

  private static byte[] partition(int tableId, byte[] partitionKey) {
    byte[] out = new byte[TABLE_PREFIX_BYTES + partitionKey.length];
    System.arraycopy(partitionKey, 0, out, TABLE_PREFIX_BYTES, partitionKey.length);
    writePrefix(out, tableId);
    return out;
  }

  private static void writePrefix(byte[] out, int tableId) {
    out[0] = (byte) (tableId >>> 24);
    out[1] = (byte) (tableId >>> 16);
    out[2] = (byte) (tableId >>> 8);
    out[3] = (byte) tableId;
  }

  static byte[] sortKey(String id) {
    return id.getBytes(StandardCharsets.UTF_8);
  }

  static String partitionKeyOf(byte[] partition) {
    return new String(
        partition,
        TABLE_PREFIX_BYTES,
        partition.length - TABLE_PREFIX_BYTES,
        StandardCharsets.UTF_8);
  }

  static String idOf(byte[] sortKey) {
    return new String(sortKey, StandardCharsets.UTF_8);
  }

  static boolean inTable(int tableId, byte[] partition) {
    return partition.length >= TABLE_PREFIX_BYTES
        && Arrays.equals(
            partition, 0, TABLE_PREFIX_BYTES, tablePrefix(tableId), 0, TABLE_PREFIX_BYTES);
  }
}
