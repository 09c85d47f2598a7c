package io.viewbase.server.dynamodb.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Sizes per the developer guide's "Item sizes and formats". */
class ItemSizeTest {

  @Test
  void stringsCountTheirNameAndTheirUtf8Bytes() {
    assertThat(ItemSize.of(Map.of("name", new AttributeValue.S("abc")))).isEqualTo(4 + 3);
    // é is 2 bytes, € 3, 😀 4, in the name as in the value.
    assertThat(ItemSize.of(Map.of("é", new AttributeValue.S("€😀")))).isEqualTo(2 + 3 + 4);
    assertThat(ItemSize.utf8Length("a\u00e9\u20ac\ud83d\ude00")).isEqualTo(1 + 2 + 3 + 4);
  }

  @ParameterizedTest(name = "{0} takes {1} bytes")
  @CsvSource({
    "0, 2",
    "7, 2",
    "12, 2",
    "123, 3",
    "1234, 3",
    "1.5, 2",
    "100000, 2",
    "0.0001, 2",
    "12345678901234567890123456789012345678, 20",
  })
  void numbersTakeOneBytePerTwoSignificantDigitsPlusOne(String number, long bytes) {
    assertThat(ItemSize.of(AttributeValue.N.parse(number))).isEqualTo(bytes);
  }

  @Test
  void binaryCountsRawBytesAndBooleansAndNullsOne() {
    assertThat(ItemSize.of(new AttributeValue.B(new byte[10]))).isEqualTo(10);
    assertThat(ItemSize.of(AttributeValue.Bool.TRUE)).isEqualTo(1);
    assertThat(ItemSize.of(AttributeValue.Null.INSTANCE)).isEqualTo(1);
  }

  @Test
  void documentsTakeThreeBytesAndOnePerElement() {
    assertThat(ItemSize.of(Map.of("m", new AttributeValue.M(Map.of())))).isEqualTo(1 + 3);
    assertThat(ItemSize.of(Map.of("l", new AttributeValue.L(List.of())))).isEqualTo(1 + 3);
    AttributeValue list =
        new AttributeValue.L(List.of(new AttributeValue.S("ab"), AttributeValue.Bool.TRUE));
    assertThat(ItemSize.of(list)).isEqualTo(3 + (2 + 1) + (1 + 1));
    AttributeValue map = new AttributeValue.M(Map.of("k", new AttributeValue.S("ab")));
    assertThat(ItemSize.of(map)).isEqualTo(3 + (1 + 2 + 1));
  }

  @Test
  void setsCountTheirMembers() {
    assertThat(ItemSize.of(AttributeValue.SS.of("a", "bc"))).isEqualTo(3);
    assertThat(ItemSize.of(new AttributeValue.NS(Set.of(BigDecimal.ONE, new BigDecimal("123")))))
        .isEqualTo(2 + 3);
    assertThat(ItemSize.of(new AttributeValue.BS(Set.of(new AttributeValue.B(new byte[4])))))
        .isEqualTo(4);
  }

  @Test
  void checkRefusesItemsOver400Kb() {
    Map<String, AttributeValue> item = new LinkedHashMap<>();
    item.put("pk", new AttributeValue.S("k"));
    item.put("b", new AttributeValue.S("x".repeat(ItemSize.MAX_BYTES - 2 - 1 - 1)));
    assertThat(ItemSize.of(item)).isEqualTo(ItemSize.MAX_BYTES);
    ItemSize.check(item);
    item.put("c", AttributeValue.Bool.TRUE);
    assertThatThrownBy(() -> ItemSize.check(item))
        .hasMessage("Item size has exceeded the maximum allowed size");
    assertThatThrownBy(() -> ItemSize.checkUpdated(item))
        .hasMessage("Item size to update has exceeded the maximum allowed size");
  }
}
