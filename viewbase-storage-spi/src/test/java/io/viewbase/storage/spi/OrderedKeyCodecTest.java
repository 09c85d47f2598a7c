package io.viewbase.storage.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * The codec's promises, checked on byte strings drawn mostly from 0x00, 0x01, 0x02 and 0xFF (the
 * bytes the escaping treats specially) and kept short, so partitions that are prefixes of each
 * other, or equal, come up all the time.
 */
class OrderedKeyCodecTest {

  @Property(tries = 2000)
  void encodeOrdersByPartitionThenKey(
      @ForAll("tricky") byte[] p1,
      @ForAll("tricky") byte[] k1,
      @ForAll("tricky") byte[] p2,
      @ForAll("tricky") byte[] k2) {
    int byPartition = Arrays.compareUnsigned(p1, p2);
    int expected = byPartition != 0 ? byPartition : Arrays.compareUnsigned(k1, k2);

    int actual =
        Arrays.compareUnsigned(OrderedKeyCodec.encode(p1, k1), OrderedKeyCodec.encode(p2, k2));

    assertThat(Integer.signum(actual)).isEqualTo(Integer.signum(expected));
  }

  @Property(tries = 1000)
  void encodeOrdersAPartitionBeforeItsExtensions(
      @ForAll("tricky") byte[] partition,
      @ForAll("tricky") byte[] suffix,
      @ForAll("tricky") byte[] k1,
      @ForAll("tricky") byte[] k2) {
    if (suffix.length == 0) {
      return;
    }
    byte[] longer = Bytes.concat(partition, suffix);

    assertThat(
            Arrays.compareUnsigned(
                OrderedKeyCodec.encode(partition, k1), OrderedKeyCodec.encode(longer, k2)))
        .isNegative();
  }

  @Property(tries = 1000)
  void decodeRoundTripsPartitionAndKey(
      @ForAll("tricky") byte[] partition, @ForAll("tricky") byte[] key) {
    byte[] encoded = OrderedKeyCodec.encode(partition, key);

    assertThat(OrderedKeyCodec.decodePartition(encoded)).isEqualTo(partition);
    assertThat(OrderedKeyCodec.decodeKey(encoded)).isEqualTo(key);
    assertThat(OrderedKeyCodec.keyOffset(encoded)).isEqualTo(encoded.length - key.length);
  }

  @Property(tries = 1000)
  void encodedKeysOfAPartitionLieInItsRangeAndOthersDoNot(
      @ForAll("tricky") byte[] partition,
      @ForAll("tricky") byte[] other,
      @ForAll("tricky") byte[] key) {
    byte[] start = OrderedKeyCodec.partitionStart(partition);
    byte[] end = OrderedKeyCodec.partitionEnd(partition);

    assertThat(inRange(OrderedKeyCodec.encode(partition, key), start, end)).isTrue();
    assertThat(inRange(OrderedKeyCodec.encode(other, key), start, end))
        .isEqualTo(Arrays.equals(partition, other));
  }

  @Property(tries = 1000)
  void escapedPrefixSelectsExactlyThePartitionsStartingWithThePrefix(
      @ForAll("tricky") byte[] prefix,
      @ForAll("tricky") byte[] partition,
      @ForAll("tricky") byte[] key) {
    byte[] encoded = OrderedKeyCodec.encode(partition, key);

    assertThat(Bytes.startsWith(encoded, OrderedKeyCodec.escapedPartition(prefix)))
        .isEqualTo(Bytes.startsWith(partition, prefix));
  }

  @Property(tries = 500)
  void escapedPrefixSelectsEveryExtensionOfThePrefix(
      @ForAll("tricky") byte[] prefix,
      @ForAll("tricky") byte[] suffix,
      @ForAll("tricky") byte[] key) {
    byte[] encoded = OrderedKeyCodec.encode(Bytes.concat(prefix, suffix), key);

    assertThat(Bytes.startsWith(encoded, OrderedKeyCodec.escapedPartition(prefix))).isTrue();
  }

  @Example
  void keyOffsetOfSomethingNotEncodedFailsWithIllegalArgument() {
    org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
        .isThrownBy(() -> OrderedKeyCodec.keyOffset(new byte[] {0x41, 0x00, (byte) 0xFF}))
        .withMessageContaining("not an encoded key");
  }

  @Provide
  Arbitrary<byte[]> tricky() {
    Arbitrary<Byte> oneByte =
        Arbitraries.frequencyOf(
            Tuple.of(4, Arbitraries.just((byte) 0x00)),
            Tuple.of(4, Arbitraries.just((byte) 0xFF)),
            Tuple.of(2, Arbitraries.just((byte) 0x01)),
            Tuple.of(2, Arbitraries.just((byte) 0x02)),
            Tuple.of(2, Arbitraries.just((byte) 'a')),
            Tuple.of(2, Arbitraries.bytes()));
    return oneByte.list().ofMaxSize(5).map(OrderedKeyCodecTest::toArray);
  }

  private static boolean inRange(byte[] encoded, byte[] start, byte[] end) {
    return Arrays.compareUnsigned(encoded, start) >= 0 && Arrays.compareUnsigned(encoded, end) < 0;
  }

  private static byte[] toArray(List<Byte> list) {
    byte[] out = new byte[list.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = list.get(i);
    }
    return out;
  }
}
