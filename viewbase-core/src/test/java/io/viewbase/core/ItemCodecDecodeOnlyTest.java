package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * {@link ItemCodec#decodeOnly}: exactly the named properties that {@link ItemCodec#decode} would
 * give.
 */
class ItemCodecDecodeOnlyTest {
  private final ItemCodecTest generators = new ItemCodecTest();

  @Property(tries = 2000)
  void decodeOnlyOfAnItemReturnsTheNamedPropertiesOfItsFullDecode(
      @ForAll("items") Map<String, Value> properties,
      @ForAll("names") Set<String> extraNames,
      @ForAll boolean view) {
    Set<String> wanted = pick(properties, extraNames);
    byte[] stored =
        view ? ItemCodec.encodeView("src-pk", "src-id", properties) : ItemCodec.encode(properties);

    Map<String, Value> partial = ItemCodec.decodeOnly(stored, ItemCodec.Names.of(wanted));

    Map<String, Value> expected = new LinkedHashMap<>(ItemCodec.decode(stored));
    expected.keySet().retainAll(wanted);
    assertThat(partial).isEqualTo(expected);
  }

  @Provide
  Arbitrary<Map<String, Value>> items() {
    return generators.items();
  }

  @Provide
  Arbitrary<Set<String>> names() {
    // short names so that some collide with the item's own, others are absent; non-ASCII included
    return Arbitraries.strings().withChars("abé€").ofMinLength(1).ofMaxLength(2).set().ofMaxSize(3);
  }

  /** Every other name of the item, plus the extra names (present or not). */
  private static Set<String> pick(Map<String, Value> properties, Set<String> extraNames) {
    Set<String> wanted = new HashSet<>(extraNames);
    List<String> names = new ArrayList<>(properties.keySet());
    for (int i = 0; i < names.size(); i += 2) {
      wanted.add(names.get(i));
    }
    return wanted;
  }

  @Test
  void decodeOnlyWithNoNamesReturnsAnEmptyMap() {
    byte[] stored = ItemCodec.encode(Map.of("a", new Value.Int32(1)));
    assertThat(ItemCodec.decodeOnly(stored, ItemCodec.Names.of(List.of()))).isEmpty();
  }

  @Test
  void decodeOnlyKeepsANullValueAsNull() {
    Map<String, Value> properties = new LinkedHashMap<>();
    properties.put(
        "nested", new Value.Obj(Map.of("x", new Value.Arr(List.of(new Value.Str("y"))))));
    properties.put("gone", Value.Null.INSTANCE);
    Map<String, Value> partial =
        ItemCodec.decodeOnly(ItemCodec.encode(properties), ItemCodec.Names.of(List.of("gone")));
    assertThat(partial).containsExactly(Map.entry("gone", Value.Null.INSTANCE));
  }

  @Test
  void decodeOnlyOfAnUnknownTagInASkippedValueFailsAsCorruption() {
    Map<String, Value> properties = new LinkedHashMap<>();
    properties.put("a", new Value.Bool(true));
    properties.put("b", new Value.Int32(7));
    byte[] stored = ItemCodec.encode(properties);
    stored[4] = 99; // FORMAT, count, name length, "a", then a's tag
    assertThatThrownBy(() -> ItemCodec.decodeOnly(stored, ItemCodec.Names.of(List.of("b"))))
        .isInstanceOf(ViewbaseException.class)
        .hasMessageContaining("unknown value tag 99");
  }

  @Test
  void decodeOnlyOfATruncatedItemFailsAsCorruption() {
    Map<String, Value> properties = new LinkedHashMap<>();
    properties.put("a", new Value.Str("a long enough string"));
    properties.put("b", new Value.Int32(7));
    byte[] stored = ItemCodec.encode(properties);
    byte[] truncated = java.util.Arrays.copyOf(stored, 10);
    assertThatThrownBy(() -> ItemCodec.decodeOnly(truncated, ItemCodec.Names.of(List.of("b"))))
        .isInstanceOf(ViewbaseException.class)
        .hasMessageContaining("truncated");
  }

  @Test
  void decodeOnlyOfAnUnknownFormatFails() {
    assertThatThrownBy(
            () -> ItemCodec.decodeOnly(new byte[] {7, 0}, ItemCodec.Names.of(List.of("a"))))
        .isInstanceOf(ViewbaseException.class)
        .hasMessageContaining("unknown format 7");
  }
}
