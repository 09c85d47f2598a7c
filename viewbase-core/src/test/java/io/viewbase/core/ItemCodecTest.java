package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class ItemCodecTest {

  @Property(tries = 2000)
  void decodeOfEncodeReturnsTheSamePropertiesInTheSameOrder(
      @ForAll("items") Map<String, Value> properties) {
    Map<String, Value> decoded = ItemCodec.decode(ItemCodec.encode(properties));
    assertThat(decoded).isEqualTo(properties);
    assertThat(new ArrayList<>(decoded.keySet())).containsExactlyElementsOf(properties.keySet());
  }

  @Provide
  Arbitrary<Map<String, Value>> items() {
    return Arbitraries.maps(Arbitraries.strings().ofMinLength(1).ofMaxLength(12), values(2))
        .ofMaxSize(12)
        .map(LinkedHashMap::new);
  }

  private Arbitrary<Value> values(int depth) {
    List<Arbitrary<? extends Value>> choices =
        new ArrayList<>(
            List.of(
                Arbitraries.strings().ofMaxLength(40).map(Value.Str::new),
                Arbitraries.of(true, false).map(Value.Bool::new),
                Arbitraries.integers().map(Value.Int32::new),
                Arbitraries.longs().map(Value.Int64::new),
                Arbitraries.doubles().map(Value.Double::new),
                Arbitraries.of(Double.NaN, Double.POSITIVE_INFINITY, -0.0).map(Value.Double::new),
                decimals(),
                Arbitraries.longs().map(Value.DateTime::new),
                Arbitraries.longs().tuple2().map(t -> new Value.Guid(new UUID(t.get1(), t.get2()))),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(64).map(Value.Binary::new),
                Arbitraries.just(Value.Null.INSTANCE)));
    if (depth > 0) {
      choices.add(
          Arbitraries.maps(
                  Arbitraries.strings().ofMinLength(1).ofMaxLength(6),
                  Arbitraries.lazy(() -> values(depth - 1)))
              .ofMaxSize(4)
              .map(Value.Obj::new));
      choices.add(
          Arbitraries.lazy(() -> values(depth - 1)).list().ofMaxSize(4).map(Value.Arr::new));
    }
    @SuppressWarnings("unchecked")
    Arbitrary<Value>[] array = choices.toArray(new Arbitrary[0]);
    return Arbitraries.oneOf(List.of(array));
  }

  /**
   * Decimals across {@link Value.Decimal}'s bounds: up to 100 digits, exponents -400..400, either
   * sign, zero, and values given with trailing zeros.
   */
  static Arbitrary<Value> decimals() {
    Arbitrary<BigInteger> unscaled =
        Arbitraries.integers()
            .between(1, 100)
            .flatMap(
                digits ->
                    Arbitraries.strings()
                        .numeric()
                        .ofLength(digits)
                        .map(BigInteger::new)
                        .flatMap(u -> Arbitraries.of(u, u.negate())));
    return unscaled
        .flatMap(
            u ->
                Arbitraries.integers()
                    .between(-400, 400)
                    .map(
                        exponent ->
                            new BigDecimal(
                                u, u.toString().replace("-", "").length() - 1 - exponent)))
        .filter(d -> d.signum() == 0 || Math.abs((long) d.precision() - d.scale() - 1) <= 400)
        .map(Value.Decimal::new);
  }
}
