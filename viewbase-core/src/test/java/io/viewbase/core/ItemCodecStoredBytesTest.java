package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.math.BigDecimal;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Stored items outlive the code that wrote them: the bytes of every value type as the codec wrote
 * them before decimals existed (taken from that codec), which it must still write and read, and the
 * bytes of the decimal tag that came after.
 */
class ItemCodecStoredBytesTest {
  private static final HexFormat HEX = HexFormat.of();

  /** One property of each type but decimal, as stored before decimals existed. */
  private static final String EVERY_OLD_TYPE =
      "010c0173010368c3a901660201740301690405016c0500000100000000000164063ff800000000000002647407"
          + "ffffffffffffffff0167080102030405060708090a0b0c0d0e0f100162090200ff016e00016f0a01017804"
          + "0201610b0201017900";

  private static final String OLD_VIEW_ENTRY = "020170016901016b040e";

  private static Map<String, Value> everyOldType() {
    Map<String, Value> m = new LinkedHashMap<>();
    m.put("s", Value.of("hé"));
    m.put("f", Value.of(false));
    m.put("t", Value.of(true));
    m.put("i", Value.of(-3));
    m.put("l", Value.of(1L << 40));
    m.put("d", Value.of(1.5));
    m.put("dt", new Value.DateTime(-1));
    m.put("g", Value.of(new UUID(0x0102030405060708L, 0x090a0b0c0d0e0f10L)));
    m.put("b", Value.of(new byte[] {0, (byte) 0xff}));
    m.put("n", Value.nullValue());
    m.put("o", new Value.Obj(Map.of("x", Value.of(1))));
    m.put("a", new Value.Arr(List.of(Value.of("y"), Value.nullValue())));
    return m;
  }

  @Test
  void everyOldTypeIsWrittenAsBeforeByteForByte() {
    assertThat(HEX.formatHex(ItemCodec.encode(everyOldType()))).isEqualTo(EVERY_OLD_TYPE);
    assertThat(HEX.formatHex(ItemCodec.encodeView("p", "i", Map.of("k", Value.of(7)))))
        .isEqualTo(OLD_VIEW_ENTRY);
  }

  @Test
  void itemsStoredBeforeDecimalsReadBackUnchanged() {
    assertThat(ItemCodec.decode(HEX.parseHex(EVERY_OLD_TYPE))).isEqualTo(everyOldType());
    ItemCodec.ViewValue view = ItemCodec.decodeView(HEX.parseHex(OLD_VIEW_ENTRY));
    assertThat(view.sourcePartitionKey()).isEqualTo("p");
    assertThat(view.properties()).isEqualTo(Map.of("k", Value.of(7)));
  }

  @Test
  void aDecimalIsTagTwelveThenItsScaleAndUnscaledBytes() {
    assertThat(encodedValue(new BigDecimal("12.50"))).isEqualTo("0c02017d"); // 125, scale 1
    assertThat(encodedValue(new BigDecimal("-0.001"))).isEqualTo("0c0601ff"); // -1, scale 3
    assertThat(encodedValue(new BigDecimal("100"))).isEqualTo("0c030101"); // 1, scale -2
    assertThat(encodedValue(BigDecimal.ZERO)).isEqualTo("0c000100");
    assertThat(encodedValue(new BigDecimal("128"))).isEqualTo("0c00020080");
  }

  @Test
  void aMalformedStoredDecimalIsCorruptionNotAnInputError() {
    // scale -1000 (zigzag 1999 = cf 0f) on the unscaled value 1: 1E+1000, beyond any decimal
    byte[] beyond = HEX.parseHex("010101780ccf0f0101");
    assertThatThrownBy(() -> ItemCodec.decode(beyond))
        .isInstanceOfSatisfying(
            ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.InternalError));
    byte[] empty = HEX.parseHex("010101780c0000");
    assertThatThrownBy(() -> ItemCodec.decode(empty)).isInstanceOf(ViewbaseException.class);
  }

  private static String encodedValue(BigDecimal d) {
    String item = HEX.formatHex(ItemCodec.encode(Map.of("x", Value.of(d))));
    assertThat(item).startsWith("01010178");
    assertThat(ItemCodec.decode(HEX.parseHex(item))).isEqualTo(Map.of("x", Value.of(d)));
    return item.substring("01010178".length());
  }
}
