package io.viewbase.filter;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Value;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The typed comparison against independent oracles: BigDecimal for numbers, UTF-8 bytes for
 * strings.
 */
class ValueOrderPropertiesTest {

  @Property(tries = 5_000)
  void compareLongDoubleAgreesWithExactDecimalArithmetic(
      @ForAll long a, @ForAll("finiteDoubles") double b) {
    int expected = Integer.signum(BigDecimal.valueOf(a).compareTo(new BigDecimal(b)));
    assertThat(ValueOrder.compareLongDouble(a, b)).isEqualTo(expected);
    assertThat(ValueOrder.compare(Value.of(a), Value.of(b))).isEqualTo(expected);
    assertThat(ValueOrder.compare(Value.of(b), Value.of(a))).isEqualTo(-expected);
  }

  @Property(tries = 10_000)
  void numbersOfEveryTypeCompareAsTheirExactDecimalValues(
      @ForAll("numbers") Value a, @ForAll("numbers") Value b) {
    int expected = Integer.signum(exact(a).compareTo(exact(b)));
    assertThat(ValueOrder.compare(a, b)).as("%s vs %s", a, b).isEqualTo(expected);
    assertThat(ValueOrder.compare(b, a)).as("%s vs %s", b, a).isEqualTo(-expected);
    for (Filter.Op op : Filter.Op.values()) {
      boolean holds =
          switch (op) {
            case EQ -> expected == 0;
            case NE -> expected != 0;
            case GT -> expected > 0;
            case GE -> expected >= 0;
            case LT -> expected < 0;
            case LE -> expected <= 0;
          };
      assertThat(Filters.test(a, op, b)).as("%s %s %s", a, op, b).isEqualTo(holds);
    }
  }

  @Property(tries = 2_000)
  void decimalsAgainstNaNAndInfinitiesOrderAsDoublesDo(
      @ForAll("decimals") Value decimal, @ForAll("specialDoubles") double special) {
    Value asDouble = Value.of(0.0);
    // a decimal stands where any finite double stands against NaN and the infinities
    assertThat(ValueOrder.compare(decimal, Value.of(special)))
        .isEqualTo(ValueOrder.compare(asDouble, Value.of(special)));
    assertThat(ValueOrder.compare(Value.of(special), decimal))
        .isEqualTo(ValueOrder.compare(Value.of(special), asDouble));
  }

  /** A number's exact value; only finite doubles. */
  private static BigDecimal exact(Value v) {
    return switch (v.type()) {
      case INT32 -> BigDecimal.valueOf(((Value.Int32) v).value());
      case INT64 -> BigDecimal.valueOf(((Value.Int64) v).value());
      case DOUBLE -> new BigDecimal(((Value.Double) v).value());
      case DECIMAL -> ((Value.Decimal) v).value();
      default -> throw new IllegalArgumentException(v.toString());
    };
  }

  /**
   * Int32, Int64, finite doubles and decimals, often near each other: small integers in every type
   * (equal values of different types), halves, values around 2^53 and 2^63, and random ones.
   */
  @Provide
  Arbitrary<Value> numbers() {
    Arbitrary<Long> near =
        Arbitraries.oneOf(
            Arbitraries.longs().between(-3, 3),
            Arbitraries.longs().between((1L << 53) - 2, (1L << 53) + 2),
            Arbitraries.of(Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 1));
    return Arbitraries.oneOf(
        near.filter(l -> l == (int) (long) l).map(l -> Value.of((int) (long) l)),
        near.map(Value::of),
        near.map(l -> Value.of((double) l)),
        near.map(l -> Value.of(BigDecimal.valueOf(l))),
        near.map(l -> Value.of(BigDecimal.valueOf(l).add(new BigDecimal("0.5")))),
        near.map(l -> Value.of(new BigDecimal((double) l))),
        Arbitraries.of(-0.0, 0.5, -0.5, 0.1, 1e-300, Double.MIN_VALUE, Double.MAX_VALUE)
            .map(Value::of),
        Arbitraries.of("0.1", "-0.5", "0.5", "1E-400", "9.99E+400", "-9.99E+400", "1E-324")
            .map(t -> Value.of(new BigDecimal(t))),
        Arbitraries.integers().map(Value::of),
        Arbitraries.longs().map(Value::of),
        finiteDoubles().map(Value::of),
        decimals());
  }

  @Provide
  Arbitrary<Value> decimals() {
    return Arbitraries.randomValue(FilterArbitraries::decimal);
  }

  @Provide
  Arbitrary<Double> specialDoubles() {
    return Arbitraries.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY);
  }

  @Property(tries = 5_000)
  void compareStringsAgreesWithUtf8ByteOrder(
      @ForAll("wellFormedStrings") String a, @ForAll("wellFormedStrings") String b) {
    int expected =
        Integer.signum(
            Arrays.compareUnsigned(
                a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
    assertThat(ValueOrder.compareStrings(a, b)).isEqualTo(expected);
  }

  @Property(tries = 5_000)
  void compareUtf8OfStoredBytesAgreesWithCompareStrings(
      @ForAll("wellFormedStrings") String a, @ForAll("wellFormedStrings") String b) {
    byte[] stored = a.getBytes(StandardCharsets.UTF_8);
    byte[] framed = new byte[stored.length + 6]; // the string amid other bytes, as in a stored item
    Arrays.fill(framed, (byte) 0xFF);
    System.arraycopy(stored, 0, framed, 3, stored.length);
    int expected = ValueOrder.compareStrings(a, b);
    byte[] literal = b.getBytes(StandardCharsets.UTF_8);
    assertThat(Filters.compareUtf8(framed, 3, stored.length, literal)).isEqualTo(expected);
    assertThat(Filters.compareUtf8(stored, 0, stored.length, literal)).isEqualTo(expected);
  }

  @Property(tries = 5_000)
  void testWithTheNegatedOperatorGivesTheOppositeForComparableValues(
      @ForAll("sameKind") Value[] pair) {
    for (Filter.Op op : Filter.Op.values()) {
      assertThat(Filters.test(pair[0], op, pair[1]))
          .isNotEqualTo(Filters.test(pair[0], op.negated(), pair[1]));
    }
  }

  @Provide
  Arbitrary<Double> finiteDoubles() {
    return Arbitraries.oneOf(
        Arbitraries.doubles(),
        Arbitraries.longs().map(l -> (double) l),
        Arbitraries.longs().map(Double::longBitsToDouble).filter(Double::isFinite),
        Arbitraries.of(0x1p63, -0x1p63, 0x1p63 - 1024, -0.0, 0.5, -0.5, 9007199254740993.0));
  }

  @Provide
  Arbitrary<String> wellFormedStrings() {
    Arbitrary<Integer> codePoints =
        Arbitraries.oneOf(
                Arbitraries.integers().between(0, 0x7F),
                Arbitraries.integers().between(0xD000, 0xFFFF),
                Arbitraries.integers().between(0x10000, 0x10FFFF))
            .filter(cp -> cp < 0xD800 || cp > 0xDFFF);
    return codePoints
        .list()
        .ofMaxSize(5)
        .map(
            cps -> {
              StringBuilder sb = new StringBuilder();
              cps.forEach(sb::appendCodePoint);
              return sb.toString();
            });
  }

  @Provide
  Arbitrary<Value[]> sameKind() {
    Arbitrary<Value> numbers =
        Arbitraries.oneOf(
            Arbitraries.integers().between(-3, 3).map(Value::of),
            Arbitraries.longs().between(-3, 3).map(Value::of),
            Arbitraries.of(-3.0, -0.5, -0.0, 0.0, 0.5, 3.0, Double.NaN, Double.POSITIVE_INFINITY)
                .map(Value::of));
    Arbitrary<Value> strings =
        Arbitraries.strings().withChars("aB😀\uFB00").ofMaxLength(3).map(Value::of);
    Arbitrary<Value> binaries = Arbitraries.bytes().array(byte[].class).ofMaxSize(3).map(Value::of);
    return Arbitraries.oneOf(
        numbers.array(Value[].class).ofSize(2),
        strings.array(Value[].class).ofSize(2),
        binaries.array(Value[].class).ofSize(2));
  }
}
