package io.viewbase.server.dynamodb.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class KeyOrderTest {

  @Test
  void stringsOrderAsTheirUtf8Bytes() {
    // U+FF5E sorts before U+1F600 in UTF-8 (EF BD 9E < F0 9F 98 80); String.compareTo says
    // otherwise.
    String fullwidth = "\uff5e";
    String emoji = "\ud83d\ude00";
    assertThat(fullwidth.compareTo(emoji)).isPositive();
    assertThat(KeyOrder.compare(new AttributeValue.S(fullwidth), new AttributeValue.S(emoji)))
        .isNegative();
    assertThat(KeyOrder.compareUtf8("a", "ab")).isNegative();
    assertThat(KeyOrder.compareUtf8("B", "a")).isNegative();
    assertThat(KeyOrder.compareUtf8("", "")).isZero();
  }

  @Test
  void randomStringsOrderAsTheirBytes() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    int[] pool = {'a', 'b', 0x7f, 0xe9, 0x800, 0xd7ff, 0xe000, 0xffff, 0x10000, 0x1f600, 0x10ffff};
    for (int i = 0; i < 5000; i++) {
      String a = randomString(random, pool);
      String b = randomString(random, pool);
      int expected =
          Integer.signum(
              Arrays.compareUnsigned(
                  a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
      assertThat(Integer.signum(KeyOrder.compareUtf8(a, b)))
          .as("seed %d: %s vs %s", seed, a, b)
          .isEqualTo(expected);
    }
  }

  private static String randomString(Random random, int[] pool) {
    StringBuilder s = new StringBuilder();
    for (int n = random.nextInt(4); n > 0; n--) {
      s.appendCodePoint(pool[random.nextInt(pool.length)]);
    }
    return s.toString();
  }

  @Test
  void numbersOrderByValueAndBinariesUnsigned() {
    assertThat(KeyOrder.compare(AttributeValue.N.parse("-10"), AttributeValue.N.parse("2")))
        .isNegative();
    assertThat(KeyOrder.compare(AttributeValue.N.parse("1.50"), AttributeValue.N.parse("1.5")))
        .isZero();
    assertThat(
            KeyOrder.compare(
                new AttributeValue.B(new byte[] {(byte) 0xff}),
                new AttributeValue.B(new byte[] {1})))
        .isPositive();
  }

  @Test
  void differentTypesDoNotCompare() {
    assertThat(KeyOrder.comparable(new AttributeValue.S("1"), AttributeValue.N.of(1))).isFalse();
    assertThat(KeyOrder.comparable(AttributeValue.Bool.TRUE, AttributeValue.Bool.TRUE)).isFalse();
    assertThatThrownBy(() -> KeyOrder.compare(new AttributeValue.S("1"), AttributeValue.N.of(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
