package io.viewbase.storage.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class KeyRangeTest {

  @Test
  void containsHonoursInclusiveAndExclusiveBounds() {
    KeyRange closed = new KeyRange(b("b"), true, b("d"), true);
    KeyRange open = new KeyRange(b("b"), false, b("d"), false);

    assertThat(closed.contains(b("b"))).isTrue();
    assertThat(closed.contains(b("d"))).isTrue();
    assertThat(open.contains(b("b"))).isFalse();
    assertThat(open.contains(b("d"))).isFalse();
    assertThat(open.contains(b("c"))).isTrue();
    assertThat(open.contains(b("b\0"))).isTrue();
    assertThat(open.contains(b("a"))).isFalse();
    assertThat(open.contains(b("e"))).isFalse();
  }

  @Test
  void containsComparesUnsigned() {
    KeyRange belowHigh = new KeyRange(null, true, new byte[] {(byte) 0x80}, false);

    assertThat(belowHigh.contains(new byte[] {0x7F})).isTrue();
    assertThat(belowHigh.contains(new byte[] {(byte) 0xFF})).isFalse();
  }

  @Test
  void allContainsEveryKeyIncludingTheEmptyOne() {
    assertThat(KeyRange.ALL.contains(Bytes.EMPTY)).isTrue();
    assertThat(KeyRange.ALL.contains(new byte[] {(byte) 0xFF, (byte) 0xFF})).isTrue();
    assertThat(KeyRange.ALL.isEmpty()).isFalse();
  }

  @Test
  void prefixContainsExactlyTheKeysStartingWithIt() {
    KeyRange range = KeyRange.prefix(b("ab"));

    assertThat(range.contains(b("ab"))).isTrue();
    assertThat(range.contains(b("ab\u00ff\u00ff"))).isTrue();
    assertThat(range.contains(b("ac"))).isFalse();
    assertThat(range.contains(b("a"))).isFalse();
  }

  @Test
  void prefixOfAllFfBytesHasNoUpperBound() {
    KeyRange range = KeyRange.prefix(new byte[] {(byte) 0xFF});

    assertThat(range.upper()).isNull();
    assertThat(range.contains(new byte[] {(byte) 0xFF, (byte) 0xFF})).isTrue();
    assertThat(range.contains(new byte[] {(byte) 0xFE})).isFalse();
  }

  @Test
  void isEmptyWhenBoundsCrossOrMeetWithAnExclusiveSide() {
    assertThat(new KeyRange(b("b"), true, b("a"), true).isEmpty()).isTrue();
    assertThat(new KeyRange(b("a"), true, b("a"), false).isEmpty()).isTrue();
    assertThat(new KeyRange(b("a"), false, b("a"), true).isEmpty()).isTrue();
    assertThat(new KeyRange(b("a"), true, b("a"), true).isEmpty()).isFalse();
    assertThat(KeyRange.halfOpen(b("a"), b("b")).isEmpty()).isFalse();
  }

  @Test
  void afterResumesStrictlyAboveTheKeyAndKeepsTheUpperBound() {
    KeyRange range = new KeyRange(b("b"), true, b("y"), true);

    KeyRange resumed = range.after(b("m"));

    assertThat(resumed.contains(b("m"))).isFalse();
    assertThat(resumed.contains(b("m\0"))).isTrue();
    assertThat(resumed.contains(b("y"))).isTrue();
    assertThat(range.after(b("a"))).isSameAs(range);
  }

  @Test
  void beforeResumesStrictlyBelowTheKeyAndKeepsTheLowerBound() {
    KeyRange range = new KeyRange(b("b"), true, b("y"), true);

    KeyRange resumed = range.before(b("m"));

    assertThat(resumed.contains(b("m"))).isFalse();
    assertThat(resumed.contains(b("l\u00ff"))).isTrue();
    assertThat(resumed.contains(b("b"))).isTrue();
    assertThat(range.before(b("z"))).isSameAs(range);
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }
}
