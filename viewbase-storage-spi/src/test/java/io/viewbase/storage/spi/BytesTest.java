package io.viewbase.storage.spi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BytesTest {

  @Test
  void prefixEndIncrementsTheLastByte() {
    assertThat(Bytes.prefixEnd(new byte[] {0x61, 0x62})).containsExactly(0x61, 0x63);
  }

  @Test
  void prefixEndDropsTrailingFfBytes() {
    assertThat(Bytes.prefixEnd(new byte[] {0x61, (byte) 0xFF, (byte) 0xFF})).containsExactly(0x62);
    assertThat(Bytes.prefixEnd(new byte[] {0x00, (byte) 0xFF})).containsExactly(0x01);
  }

  @Test
  void prefixEndOfEmptyOrAllFfIsNull() {
    assertThat(Bytes.prefixEnd(Bytes.EMPTY)).isNull();
    assertThat(Bytes.prefixEnd(new byte[] {(byte) 0xFF, (byte) 0xFF})).isNull();
  }

  @Test
  void prefixEndDoesNotModifyItsArgument() {
    byte[] prefix = {0x61, (byte) 0xFF};

    Bytes.prefixEnd(prefix);

    assertThat(prefix).containsExactly(0x61, 0xFF);
  }

  @Test
  void startsWithComparesTheLeadingBytes() {
    assertThat(Bytes.startsWith(new byte[] {1, 2, 3}, new byte[] {1, 2})).isTrue();
    assertThat(Bytes.startsWith(new byte[] {1, 2, 3}, Bytes.EMPTY)).isTrue();
    assertThat(Bytes.startsWith(new byte[] {1}, new byte[] {1, 2})).isFalse();
    assertThat(Bytes.startsWith(new byte[] {1, 3}, new byte[] {1, 2})).isFalse();
  }

  @Test
  void toDisplayShowsPrintableTextQuotedAndAnythingElseAsHex() {
    assertThat(Bytes.toDisplay(new byte[] {0x61, 0x62})).isEqualTo("'ab'");
    assertThat(Bytes.toDisplay(new byte[] {0x00, (byte) 0xFF})).isEqualTo("0x00ff");
    assertThat(Bytes.toDisplay(null)).isEqualTo("-");
  }
}
