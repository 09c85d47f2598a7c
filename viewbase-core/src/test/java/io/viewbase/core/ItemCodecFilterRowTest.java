package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import io.viewbase.filter.Filter;
import io.viewbase.filter.Filters;
import io.viewbase.filter.PreparedFilter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * A filter tested on a stored item in place ({@link ItemCodec.FilterRow}: values found by one walk,
 * strings compared as UTF-8 bytes) decides exactly as the same filter on the fully decoded item.
 */
class ItemCodecFilterRowTest {
  private final ItemCodecTest generators = new ItemCodecTest();

  @Property(tries = 3000)
  void aFilterOnTheStoredBytesDecidesAsOnTheDecodedItem(
      @ForAll("items") Map<String, Value> generated, @ForAll long seed, @ForAll boolean view) {
    Random random = new Random(seed);
    Map<String, Value> properties = new LinkedHashMap<>(); // names a filter can write
    generated.forEach(
        (name, value) ->
            properties.put(Names.isFilterName(name) ? name : "q" + properties.size(), value));
    byte[] stored =
        view ? ItemCodec.encodeView("src-pk", "src-id", properties) : ItemCodec.encode(properties);
    Map<String, Value> decoded = ItemCodec.decode(stored);
    byte[] framed = new byte[stored.length + 5]; // the value amid other bytes, as in a cursor
    System.arraycopy(stored, 0, framed, 2, stored.length);
    Instant at = Instant.ofEpochSecond(1_700_000_000L);
    for (int n = 0; n < 6; n++) {
      Filter filter = filter(random, new ArrayList<>(properties.entrySet()), 2);
      PreparedFilter prepared = PreparedFilter.of(filter);
      ItemCodec.FilterRow row = new ItemCodec.FilterRow(prepared.properties());
      boolean expected = Filters.matches(filter, "pk", "id", at, decoded);
      assertThat(prepared.matches(row.of(framed, 2, stored.length, "pk", "id", at)))
          .as("%s on %s", Filters.print(filter), decoded)
          .isEqualTo(expected);
      assertThat(prepared.matches(row.of(stored, 0, stored.length, "pk", "id", at)))
          .isEqualTo(expected);
    }
  }

  @Test
  void aRowWithNoNamesNeedsNoWalkAndOneOnACorruptItemFailsAsCorruption() {
    PreparedFilter constant = PreparedFilter.of(Filters.parse("true"));
    byte[] junk = {7, 0};
    assertThat(
            constant.matches(
                new ItemCodec.FilterRow(constant.properties()).of(junk, 0, 2, null, null, null)))
        .isTrue();
    PreparedFilter named = PreparedFilter.of(Filters.parse("a eq 'x'"));
    assertThatThrownBy(
            () -> new ItemCodec.FilterRow(named.properties()).of(junk, 0, 2, null, null, null))
        .isInstanceOf(ViewbaseException.class)
        .hasMessageContaining("unknown format");
    byte[] item = ItemCodec.encode(Map.of("a", Value.of("xyz")));
    assertThatThrownBy(
            () ->
                named.matches(
                    new ItemCodec.FilterRow(named.properties())
                        .of(item, 0, item.length - 1, null, null, null)))
        .isInstanceOf(ViewbaseException.class)
        .hasMessageContaining("truncated");
  }

  @Provide
  Arbitrary<Map<String, Value>> items() {
    return generators.items();
  }

  /**
   * Comparisons on the item's names (its own values and nearby ones) and absent names, combined.
   */
  private static Filter filter(Random random, List<Map.Entry<String, Value>> entries, int depth) {
    int pick = random.nextInt(depth == 0 ? 8 : 11);
    if (pick == 8) {
      return new Filter.And(filter(random, entries, depth - 1), filter(random, entries, depth - 1));
    }
    if (pick == 9) {
      return new Filter.Or(filter(random, entries, depth - 1), filter(random, entries, depth - 1));
    }
    if (pick == 10) {
      return new Filter.Not(filter(random, entries, depth - 1));
    }
    String name = "absent";
    Value value = Value.of("x");
    if (!entries.isEmpty() && random.nextInt(5) != 0) {
      Map.Entry<String, Value> e = entries.get(random.nextInt(entries.size()));
      name = e.getKey();
      value = e.getValue();
    }
    if (pick == 7) {
      return new Filter.BoolProperty(name);
    }
    Filter.Op op = Filter.Op.values()[random.nextInt(6)];
    for (Value literal : List.of(near(random, value), Value.of("b"), Value.of(3))) {
      try {
        return new Filter.Compare(name, op, literal);
      } catch (RuntimeException notALiteral) {
        // an object, array or null: the language has no literal for it, so try a plainer one
      }
    }
    return new Filter.Constant(random.nextBoolean());
  }

  /** Whether a filter can name {@code name}. */
  private static final class Names {
    static boolean isFilterName(String name) {
      try {
        new Filter.BoolProperty(name);
        return true;
      } catch (IllegalArgumentException notAnIdentifier) {
        return false;
      }
    }
  }

  /** The value itself, or for a string one that shares a prefix with it or is a prefix of it. */
  private static Value near(Random random, Value value) {
    if (value instanceof Value.Str s && !s.value().isEmpty() && random.nextBoolean()) {
      String text = s.value();
      int cut = random.nextInt(text.length());
      return Value.of(random.nextBoolean() ? text.substring(0, cut) : text.substring(0, cut) + "~");
    }
    return value;
  }
}
