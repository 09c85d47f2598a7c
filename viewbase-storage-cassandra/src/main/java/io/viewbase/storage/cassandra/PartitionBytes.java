package io.viewbase.storage.cassandra;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A storage partition as a Cassandra partition key: one marker byte, then the partition's bytes.
 * Cassandra refuses an empty partition key ("Key may not be empty") and the SPI allows one, so
 * every key gets the marker; partitions are enumerated in token order anyway, so the marker costs
 * no ordering. Sort keys need nothing of the kind: an empty blob is a valid clustering value, and
 * blobs cluster in unsigned byte order, as the SPI compares them.
 */
final class PartitionBytes {
  private static final byte MARKER = 0x01;

  private PartitionBytes() {}

  static ByteBuffer encode(byte[] partition) {
    byte[] out = new byte[partition.length + 1];
    out[0] = MARKER;
    System.arraycopy(partition, 0, out, 1, partition.length);
    return ByteBuffer.wrap(out);
  }

  static byte[] decode(ByteBuffer stored) {
    ByteBuffer b = stored.duplicate();
    if (!b.hasRemaining() || b.get() != MARKER) {
      throw new IllegalStateException("not a Viewbase partition key: " + stored);
    }
    byte[] out = new byte[b.remaining()];
    b.get(out);
    return out;
  }

  /**
   * A copy of the caller's bytes, so a later change to their array cannot reach a pending request.
   */
  static ByteBuffer copy(byte[] bytes) {
    return ByteBuffer.wrap(Arrays.copyOf(bytes, bytes.length));
  }

  static byte[] array(ByteBuffer buffer) {
    if (buffer == null) {
      return new byte[0];
    }
    byte[] out = new byte[buffer.remaining()];
    buffer.duplicate().get(out);
    return out;
  }
}
