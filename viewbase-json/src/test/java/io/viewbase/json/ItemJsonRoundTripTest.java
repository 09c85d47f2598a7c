package io.viewbase.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.Value;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Every value type survives write-then-read, at the top level, nested in objects and in arrays. */
class ItemJsonRoundTripTest {
  /** Azure's datetime range, 0001-01-01 to 9999-12-31, in ticks from the Unix epoch. */
  private static final long MIN_TICKS = -621_355_968_000_000_000L;

  private static final long MAX_TICKS = 2_534_023_007_999_999_999L;

  @Property(tries = 300)
  void writeThenReadGivesTheSameItem(@ForAll("items") Item item) {
    byte[] json = ItemJson.write(item);
    assertThat(ItemJson.readStored(json, Limits.DEFAULT)).isEqualTo(item);
  }

  @Property(tries = 200)
  void writeThenReadKeepsEveryScalar(@ForAll("scalars") Value value) {
    Item item =
        Item.of(
            "p",
            "i",
            Map.of(
                "v",
                value,
                "nested",
                new Value.Arr(List.of(value, new Value.Obj(Map.of("w", value))))));
    assertThat(ItemJson.readStored(ItemJson.write(item), Limits.DEFAULT).properties())
        .isEqualTo(item.properties());
  }

  @Provide
  Arbitrary<Item> items() {
    Arbitrary<Map<String, Value>> props = Arbitraries.maps(names(), values(3)).ofMaxSize(8);
    Arbitrary<Instant> timestamps =
        Arbitraries.longs()
            .between(MIN_TICKS, MAX_TICKS)
            .map(t -> new Value.DateTime(t).toInstant());
    return Combinators.combine(
            keys(),
            keys(),
            props,
            Arbitraries.strings().alpha().ofMinLength(1).injectNull(0.3),
            timestamps)
        .as(
            (pk, id, p, etag, ts) ->
                Item.stored(pk, id, new LinkedHashMap<>(p), etag, etag == null ? null : ts));
  }

  @Provide
  Arbitrary<Value> scalars() {
    return scalarValues();
  }

  private static Arbitrary<String> keys() {
    return Arbitraries.strings().withCharRange(' ', '\uD7FF').ofMinLength(1).ofMaxLength(20);
  }

  private static Arbitrary<String> names() {
    return Arbitraries.strings()
        .alpha()
        .numeric()
        .withChars('$', '-', '.')
        .ofMinLength(1)
        .ofMaxLength(12)
        .filter(n -> !n.equals(ItemJson.PARTITION_KEY) && !n.equals(ItemJson.ID));
  }

  private static Arbitrary<Value> values(int depth) {
    if (depth == 0) {
      return scalarValues();
    }
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(6, scalarValues()),
        net.jqwik.api.Tuple.of(
            1,
            Arbitraries.maps(
                    Arbitraries.strings().withCharRange('a', 'z').ofMaxLength(6),
                    Arbitraries.lazy(() -> values(depth - 1)))
                .ofMaxSize(4)
                .map(Value.Obj::new)),
        net.jqwik.api.Tuple.of(
            1, Arbitraries.lazy(() -> values(depth - 1)).list().ofMaxSize(4).map(Value.Arr::new)));
  }

  private static Arbitrary<Value> scalarValues() {
    return Arbitraries.oneOf(
        Arbitraries.strings().withCharRange('\u0000', '\uD7FF').ofMaxLength(30).map(Value.Str::new),
        Arbitraries.of(true, false).map(Value.Bool::new),
        Arbitraries.integers().map(Value.Int32::new),
        Arbitraries.longs().map(Value.Int64::new),
        Arbitraries.of(0L, 1L << 53, -(1L << 53), (1L << 53) + 1, Long.MAX_VALUE, Long.MIN_VALUE)
            .map(Value.Int64::new),
        Arbitraries.doubles().map(Value.Double::new),
        DecimalArbitraries.decimals(),
        Arbitraries.of(
                Double.NaN,
                Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY,
                -0.0,
                1.0,
                1e300,
                Double.MIN_VALUE)
            .map(Value.Double::new),
        Arbitraries.longs().between(MIN_TICKS, MAX_TICKS).map(Value.DateTime::new),
        Arbitraries.randomValue(r -> new UUID(r.nextLong(), r.nextLong())).map(Value.Guid::new),
        Arbitraries.bytes().array(byte[].class).ofMaxSize(40).map(Value.Binary::new),
        Arbitraries.just(Value.Null.INSTANCE));
  }
}
