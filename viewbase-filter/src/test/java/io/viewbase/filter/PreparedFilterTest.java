package io.viewbase.filter;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Value;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * A prepared filter tests a row that compares stored strings as UTF-8 bytes exactly as it tests the
 * same item's decoded values: the byte path is a shortcut, never a second set of rules.
 */
class PreparedFilterTest {

  @Property(tries = 3_000)
  void aRowOfStoredBytesMatchesAsTheDecodedItemDoes(@ForAll long seed) {
    Random random = new Random(seed);
    Filter filter = FilterArbitraries.filter(random, random.nextInt(5));
    PreparedFilter prepared = PreparedFilter.of(filter);
    for (int n = 0; n < 8; n++) {
      Map<String, Value> item = item(random, prepared.properties());
      String pk = random.nextInt(4) == 0 ? null : "p" + random.nextInt(3);
      Instant at = Instant.ofEpochSecond(1_700_000_000L + random.nextInt(1000));
      boolean decoded = prepared.matches(pk, "r1", at, item);
      assertThat(prepared.matches(new Utf8Row(pk, "r1", at, item, prepared.properties())))
          .as("%s on %s", Filters.print(filter), item)
          .isEqualTo(decoded);
      assertThat(Filters.matches(filter, pk, "r1", at, item)).isEqualTo(decoded);
    }
  }

  @Test
  void namesAreNumberedOnceInOrderOfFirstAppearanceAndSystemNamesAreApart() {
    PreparedFilter prepared =
        PreparedFilter.of(Filters.parse("b eq 1 and (a gt 'x' or b lt 3) and RowKey eq 'r' or c"));
    assertThat(prepared.properties()).containsExactly("b", "a", "c");
    assertThat(prepared.readsSystem()).isTrue();
    assertThat(PreparedFilter.of(Filters.parse("a eq 1")).readsSystem()).isFalse();
  }

  @Test
  void aLiteralWithAnUnpairedSurrogateIsComparedAsAStringNotAsBytes() {
    // UTF-8 has no bytes for '\uD800': encoding writes '?', which a byte comparison would match
    PreparedFilter prepared =
        PreparedFilter.of(new Filter.Compare("s", Filter.Op.EQ, Value.of("\uD800")));
    Map<String, Value> item = Map.of("s", Value.of("?"));
    assertThat(prepared.matches(new Utf8Row(null, null, null, item, prepared.properties())))
        .isFalse();
    assertThat(prepared.matches(null, null, null, item)).isFalse();
  }

  /** Values for some of the names, strings well-formed (as stored strings always are). */
  private static Map<String, Value> item(Random random, List<String> names) {
    Map<String, Value> item = new HashMap<>();
    for (String name : names) {
      if (random.nextInt(4) == 0) {
        continue;
      }
      Value v = FilterArbitraries.literal(random);
      if (v instanceof Value.Str s) {
        v =
            Value.of(
                new String(s.value().getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8));
      }
      item.put(name, random.nextInt(10) == 0 ? Value.Null.INSTANCE : v);
    }
    return item;
  }

  /** A row as a store's codec would give it: strings compared on their UTF-8 bytes. */
  private record Utf8Row(
      String partitionKey,
      String id,
      Instant timestamp,
      Map<String, Value> item,
      List<String> names)
      implements PreparedFilter.Row {
    @Override
    public Value value(int index) {
      return item.get(names.get(index));
    }

    @Override
    public int compareString(int index, byte[] literalUtf8) {
      if (!(item.get(names.get(index)) instanceof Value.Str s)) {
        return NOT_A_STRING;
      }
      byte[] stored = s.value().getBytes(StandardCharsets.UTF_8);
      return Filters.compareUtf8(stored, 0, stored.length, literalUtf8);
    }
  }
}
