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
