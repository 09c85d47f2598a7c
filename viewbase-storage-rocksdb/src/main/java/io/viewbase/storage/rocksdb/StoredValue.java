package io.viewbase.storage.rocksdb;

/**
 * How a versioned value is laid out in a RocksDB value: the version as 8 bytes big-endian, then the
 * value bytes.
 */
final class StoredValue {
  static final int VERSION_BYTES = Long.BYTES;

  private StoredValue() {}

  static byte[] encode(long version, byte[] value) {
    byte[] out = new byte[VERSION_BYTES + value.length];
    for (int i = VERSION_BYTES - 1; i >= 0; i--) {
      out[i] = (byte) version;
      version >>>= 8;
    }
    System.arraycopy(value, 0, out, VERSION_BYTES, value.length);
    return out;
  }

  /** The value after the version. */
  static byte[] value(byte[] stored) {
    return java.util.Arrays.copyOfRange(stored, VERSION_BYTES, stored.length);
  }

  /** The version in the first 8 bytes of {@code stored} (which may be longer). */
  static long version(byte[] stored) {
    long version = 0;
    for (int i = 0; i < VERSION_BYTES; i++) {
      version = (version << 8) | (stored[i] & 0xFF);
    }
    return version;
  }
}
