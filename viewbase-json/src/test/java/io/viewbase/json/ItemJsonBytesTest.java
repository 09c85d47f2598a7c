package io.viewbase.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.Page;
import io.viewbase.api.QueryPlan;
import io.viewbase.api.Value;
import java.nio.charset.StandardCharsets;
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
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;

/**
 * {@link ItemJson#write(Item)} writes items without Jackson's generator: its bytes must be the
 * generator's, for every character (controls, quotes, surrogates, lone or paired, any plane) and
 * every value type at any depth.
 */
class ItemJsonBytesTest {
  /**
   * Ticks of years -9999..19999: beyond Azure's range too, where the hand formatting hands over.
   */
  private static final long MIN_TICKS = -3_777_000_000_000_000_000L;

  private static final long MAX_TICKS = 5_680_000_000_000_000_000L;

  @Property(tries = 500)
  void writeGivesTheGeneratorsBytes(@ForAll("items") Item item) {
    assertThat(text(ItemJson.write(item))).isEqualTo(text(ItemJson.writeWithGenerator(item)));
  }

  @Property(tries = 300)
  void writeGivesTheGeneratorsBytesForEveryScalarAtEveryDepth(@ForAll("scalars") Value value) {
    Item item =
        Item.of(
            "p",
            "i",
            Map.of(
                "v",
                value,
                "nested",
                new Value.Arr(List.of(value, new Value.Obj(Map.of("w", value))))));
    assertThat(text(ItemJson.write(item))).isEqualTo(text(ItemJson.writeWithGenerator(item)));
  }

  @Property(tries = 200)
  void pageWriteGivesTheGeneratorsBytes(
      @ForAll("itemLists") List<Item> items,
      @ForAll("continuations") String continuation,
      @ForAll boolean withPlan) {
    Page page = new Page(items, continuation);
    QueryPlan plan =
        withPlan ? new QueryPlan("scan", "Bench", "all \"items\"", continuation) : null;

    assertThat(text(PageJson.write(page, plan)))
        .isEqualTo(text(PageJson.writeWithGenerator(page, plan)));
  }

  @Provide
  Arbitrary<List<Item>> itemLists() {
    return items().list().ofMaxSize(5);
  }

  @Provide
  Arbitrary<String> continuations() {
    return anyText(30).injectNull(0.5);
  }

  @Test
  void writeEscapesQuotesBackslashesAndControlsAndKeepsOtherCharacters() {
    Item item =
        Item.of(
            "p\"q", "a\\b", Map.of("s\n", Value.of("\b\t\n\f\r\u0001\u001f\u007f/é€😀\ud800x")));

    String json = text(ItemJson.write(item));

    assertThat(json)
        .isEqualTo(
            "{\"partitionKey\":\"p\\\"q\",\"id\":\"a\\\\b\",\"s\\n\":"
                + "\"\\b\\t\\n\\f\\r\\u0001\\u001F\u007f/é€\\uD83D\\uDE00\\uD800x\"}");
    assertThat(json).isEqualTo(text(ItemJson.writeWithGenerator(item)));
  }

  @Test
  void writeOfAStoredItemReadsBackAsTheSameItem() {
    Item item =
        Item.stored(
            "p",
            "i",
            Map.of("n", Value.of(12), "t", Value.of(Instant.parse("2026-11-30T12:00:00Z"))),
            "W/\"datetime'2026-11-30T12%3A00%3A00.0000001Z'\"",
            Instant.parse("2026-11-30T12:00:00.0000001Z"));

    assertThat(ItemJson.readStored(ItemJson.write(item), Limits.DEFAULT)).isEqualTo(item);
  }

  @Test
  void writeOfALongStringGrowsItsBufferAndKeepsEveryCharacter() {
    String big = "é\"".repeat(5_000);
    Item item = Item.of("p", "i", Map.of("big", Value.of(big)));

    assertThat(text(ItemJson.write(item))).isEqualTo(text(ItemJson.writeWithGenerator(item)));
  }

  private static String text(byte[] utf8) {
    return new String(utf8, StandardCharsets.UTF_8);
  }

  @Provide
  Arbitrary<Item> items() {
    Arbitrary<Map<String, Value>> props = Arbitraries.maps(anyText(12), values(3)).ofMaxSize(8);
    Arbitrary<Instant> timestamps =
        Arbitraries.longs()
            .between(MIN_TICKS, MAX_TICKS)
            .map(t -> new Value.DateTime(t).toInstant());
    Arbitrary<Instant> nanos =
        Arbitraries.longs()
            .between(-4_000_000_000L, 4_000_000_000L)
            .flatMap(
                s ->
                    Arbitraries.integers()
                        .between(0, 999_999_999)
                        .map(n -> Instant.ofEpochSecond(s, n)));
    Arbitrary<String> etags = anyText(20).injectNull(0.3);
    Arbitrary<Tuple.Tuple2<String, String>> sources =
        Combinators.combine(anyText(8), anyText(8)).as(Tuple::of).injectNull(0.7);
    return Combinators.combine(
            anyText(20), anyText(20), props, etags, Arbitraries.oneOf(timestamps, nanos), sources)
        .as(
            (pk, id, p, etag, ts, source) ->
                source == null
                    ? Item.stored(pk, id, new LinkedHashMap<>(p), etag, etag == null ? null : ts)
                    : Item.storedView(
                        pk, id, new LinkedHashMap<>(p), etag, ts, source.get1(), source.get2()));
  }

  @Provide
  Arbitrary<Value> scalars() {
    return scalarValues();
  }

  /** Any UTF-16 text, lone surrogates and controls included, weighted towards the tricky ranges. */
  private static Arbitrary<String> anyText(int maxLength) {
    Arbitrary<Character> chars =
        Arbitraries.frequencyOf(
            Tuple.of(4, Arbitraries.chars().range('\u0000', '\u007f')),
            Tuple.of(2, Arbitraries.chars().range('\u0080', '\u07ff')),
            Tuple.of(2, Arbitraries.chars().range('\u0800', '\uffff')),
            Tuple.of(2, Arbitraries.chars().range('\ud800', '\udfff')));
    Arbitrary<String> plain = chars.list().ofMaxSize(maxLength).map(ItemJsonBytesTest::join);
    Arbitrary<String> pairs =
        Arbitraries.integers()
            .between(0x10000, 0x10FFFF)
            .list()
            .ofMaxSize(3)
            .map(cps -> cps.stream().map(Character::toString).reduce("", String::concat));
    return Arbitraries.frequencyOf(Tuple.of(4, plain), Tuple.of(1, pairs));
  }

  private static String join(List<Character> chars) {
    StringBuilder sb = new StringBuilder(chars.size());
    chars.forEach(sb::append);
    return sb.toString();
  }

  private static Arbitrary<Value> values(int depth) {
    if (depth == 0) {
      return scalarValues();
    }
    return Arbitraries.frequencyOf(
        Tuple.of(6, scalarValues()),
        Tuple.of(
            1,
            Arbitraries.maps(anyText(6), Arbitraries.lazy(() -> values(depth - 1)))
                .ofMaxSize(4)
                .map(Value.Obj::new)),
        Tuple.of(
            1, Arbitraries.lazy(() -> values(depth - 1)).list().ofMaxSize(4).map(Value.Arr::new)));
  }

  private static Arbitrary<Value> scalarValues() {
    return Arbitraries.oneOf(
        anyText(30).map(Value.Str::new),
        Arbitraries.of(true, false).map(Value.Bool::new),
        Arbitraries.integers().map(Value.Int32::new),
        Arbitraries.of(0, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 9, 10, -10)
            .map(Value.Int32::new),
        Arbitraries.longs().map(Value.Int64::new),
        Arbitraries.of(
                0L,
                1L << 53,
                -(1L << 53),
                (1L << 53) + 1,
                Long.MAX_VALUE,
                Long.MIN_VALUE,
                999_999_999_999L)
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
