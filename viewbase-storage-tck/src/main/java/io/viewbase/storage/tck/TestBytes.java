package io.viewbase.storage.tck;

import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.Mutation;
import java.nio.charset.StandardCharsets;

/**
 * Byte strings written as text in the conformance tests, and the mutations built from them. Text is
 * ISO-8859-1, one char per byte, so {@code "a\0"} is 0x61 0x00 and {@code "\u00ff"} is 0xFF, and
 * {@link String#compareTo} orders such strings exactly as unsigned bytes.
 */
public final class TestBytes {
  private TestBytes() {}

  public static byte[] b(String text) {
    return text.getBytes(StandardCharsets.ISO_8859_1);
  }

  public static String s(byte[] bytes) {
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }

  public static Mutation put(String partition, String key, long version, String value) {
    return Mutation.put(b(partition), b(key), version, b(value));
  }

  public static Mutation put(
      String partition, String key, long version, String value, Condition condition) {
    return new Mutation.Put(b(partition), b(key), version, b(value), condition);
  }

  public static Mutation delete(String partition, String key) {
    return Mutation.delete(b(partition), b(key));
  }

  public static Mutation delete(String partition, String key, Condition condition) {
    return new Mutation.Delete(b(partition), b(key), condition);
  }

  public static Mutation check(String partition, String key, Condition condition) {
    return new Mutation.Check(b(partition), b(key), condition);
  }
}
