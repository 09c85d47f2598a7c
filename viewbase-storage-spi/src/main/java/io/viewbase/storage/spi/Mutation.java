package io.viewbase.storage.spi;

/**
 * One step of a batch: write a value, delete a key, only check a condition, or append to a
 * sequence.
 */
public sealed interface Mutation {
  byte[] partition();

  byte[] key();

  Condition condition();

  /** Stores {@code value} at {@code version} under (partition, key). */
  record Put(byte[] partition, byte[] key, long version, byte[] value, Condition condition)
      implements Mutation {}

  /**
   * Removes (partition, key); removing an absent key is not an error unless the condition says so.
   */
  record Delete(byte[] partition, byte[] key, Condition condition) implements Mutation {}

  /** Writes nothing; the batch fails unless the condition holds. */
  record Check(byte[] partition, byte[] key, Condition condition) implements Mutation {}

  /**
   * Appends {@code value} to the sequence kept under (partition, key): stores it at {@code version}
   * under (partition, key ++ n), n being the sequence's next number as 8 bytes big-endian ({@link
   * #sequenceKey}), and records n as the sequence's last number under (partition, key) itself (8
   * bytes big-endian, at {@code version}). Numbers start at 1 and are assigned at commit, in commit
   * order: the appends to one sequence of one batch take consecutive numbers in batch order, and a
   * reader never sees a number before every smaller one of its sequence is visible (a batch that
   * fails takes none). A batch may append to a sequence several times, but must not name the
   * sequence's own key in any other mutation. Its condition is always {@link Condition#NONE}.
   * Stores that support it declare {@link Capabilities#sequences()}.
   */
  record Append(byte[] partition, byte[] key, long version, byte[] value) implements Mutation {
    @Override
    public Condition condition() {
      return Condition.NONE;
    }
  }

  /** The sort key of number {@code n} of the sequence kept under {@code key}: key ++ n(8). */
  static byte[] sequenceKey(byte[] key, long n) {
    byte[] out = java.util.Arrays.copyOf(key, key.length + Long.BYTES);
    for (int i = 0; i < Long.BYTES; i++) {
      out[key.length + i] = (byte) (n >>> (56 - 8 * i));
    }
    return out;
  }

  /** The last number a sequence's own entry records (its 8-byte big-endian value). */
  static long sequenceNumber(byte[] value) {
    if (value.length != Long.BYTES) {
      throw new StorageException(
          "corrupt sequence: its last number is " + value.length + " bytes, not 8", null);
    }
    long n = 0;
    for (byte b : value) {
      n = (n << 8) | (b & 0xFF);
    }
    return n;
  }

  /** The number at the end of a sequence entry's sort key. */
  static long numberOf(byte[] sequenceKey) {
    long n = 0;
    for (int i = sequenceKey.length - Long.BYTES; i < sequenceKey.length; i++) {
      n = (n << 8) | (sequenceKey[i] & 0xFF);
    }
    return n;
  }

  static Put put(byte[] partition, byte[] key, long version, byte[] value) {
    return new Put(partition, key, version, value, Condition.NONE);
  }

  static Delete delete(byte[] partition, byte[] key) {
    return new Delete(partition, key, Condition.NONE);
  }
}
