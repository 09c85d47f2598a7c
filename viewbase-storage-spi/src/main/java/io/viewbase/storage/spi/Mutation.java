package io.viewbase.storage.spi;

/** One step of a batch: write a value, delete a key, or only check a condition. */
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

  static Put put(byte[] partition, byte[] key, long version, byte[] value) {
    return new Put(partition, key, version, value, Condition.NONE);
  }

  static Delete delete(byte[] partition, byte[] key) {
    return new Delete(partition, key, Condition.NONE);
  }
}
