package io.viewbase.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ItemJsonReadTest {

  private static ItemBody read(String json) {
    return ItemJson.read(json.getBytes(StandardCharsets.UTF_8), Limits.DEFAULT);
  }

  private static Value readOne(String json) {
    return read(json).properties().get("v");
  }

  private static void assertCode(ThrowingCallable call, ErrorCode code) {
    assertThatThrownBy(call)
        .isInstanceOf(ViewbaseException.class)
        .satisfies(e -> assertThat(((ViewbaseException) e).code()).isEqualTo(code));
  }

  @Test
  void readPlainNumbersPicksTheNarrowestType() {
    assertThat(readOne("{\"v\": 2147483647}")).isEqualTo(new Value.Int32(Integer.MAX_VALUE));
    assertThat(readOne("{\"v\": -2147483648}")).isEqualTo(new Value.Int32(Integer.MIN_VALUE));
    assertThat(readOne("{\"v\": 2147483648}")).isEqualTo(new Value.Int64(2147483648L));
    assertThat(readOne("{\"v\": 9223372036854775808}"))
        .isEqualTo(new Value.Double(9.223372036854775808E18));
    assertThat(readOne("{\"v\": 1.0}")).isEqualTo(new Value.Double(1.0));
    assertThat(readOne("{\"v\": 1e2}")).isEqualTo(new Value.Double(100.0));
  }

  @Test
  void readPlainScalarsAndContainers() {
    ItemBody body =
        read("{\"s\":\"x\",\"t\":true,\"f\":false,\"n\":null,\"o\":{\"a\":1},\"a\":[1,\"b\"]}");
    assertThat(body.properties())
        .containsExactly(
            Map.entry("s", new Value.Str("x")),
            Map.entry("t", new Value.Bool(true)),
            Map.entry("f", new Value.Bool(false)),
            Map.entry("n", Value.Null.INSTANCE),
            Map.entry("o", new Value.Obj(Map.of("a", new Value.Int32(1)))),
            Map.entry("a", new Value.Arr(List.of(new Value.Int32(1), new Value.Str("b")))));
  }

  @Test
  void readAnnotationBeforeOrAfterItsPropertyTypesIt() {
    assertThat(readOne("{\"v@odata.type\":\"Edm.Int64\",\"v\":\"9007199254740993\"}"))
        .isEqualTo(new Value.Int64(9007199254740993L));
    assertThat(readOne("{\"v\":5,\"v@odata.type\":\"Edm.Int64\"}")).isEqualTo(new Value.Int64(5));
    assertThat(readOne("{\"v\":5,\"v@odata.type\":\"Edm.Double\"}")).isEqualTo(new Value.Double(5));
    assertThat(readOne("{\"v\":\"-Infinity\",\"v@odata.type\":\"Edm.Double\"}"))
        .isEqualTo(new Value.Double(Double.NEGATIVE_INFINITY));
    assertThat(
            readOne("{\"v\":\"2026-11-30T12:00:00.1234567Z\",\"v@odata.type\":\"Edm.DateTime\"}"))
        .isEqualTo(Value.of(Instant.parse("2026-11-30T12:00:00.1234567Z")));
    assertThat(readOne("{\"v\":\"2026-11-30T13:00:00+01:00\",\"v@odata.type\":\"Edm.DateTime\"}"))
        .isEqualTo(Value.of(Instant.parse("2026-11-30T12:00:00Z")));
    assertThat(readOne("{\"v\":\"AQID\",\"v@odata.type\":\"Edm.Binary\"}"))
        .isEqualTo(new Value.Binary(new byte[] {1, 2, 3}));
    assertThat(
            readOne(
                "{\"v\":\"00000000-0000-0000-0000-00000000000A\",\"v@odata.type\":\"Edm.Guid\"}"))
        .isEqualTo(new Value.Guid(new UUID(0, 10)));
    assertThat(readOne("{\"v\":\"x\",\"v@odata.type\":\"Edm.String\"}"))
        .isEqualTo(new Value.Str("x"));
    assertThat(readOne("{\"v\":null,\"v@odata.type\":\"Edm.Int64\"}"))
        .isEqualTo(Value.Null.INSTANCE);
  }

  /**
   * The spellings Azure's SDKs send, which the one decoder (EdmTypes) accepts in either API. These
   * three were refused by the native reader before the dialect's decoder and its were made one.
   */
  @Test
  void readAnnotatedStringsAsAzureClientsSendThemTypesThem() {
    assertThat(readOne("{\"v\":\"5\",\"v@odata.type\":\"Edm.Int32\"}"))
        .isEqualTo(new Value.Int32(5));
    assertThat(readOne("{\"v\":\"true\",\"v@odata.type\":\"Edm.Boolean\"}"))
        .isEqualTo(new Value.Bool(true));
    assertThat(
            readOne("{\"v\":\"2026-11-30T12:00:00.12345678Z\",\"v@odata.type\":\"Edm.DateTime\"}"))
        .isEqualTo(Value.of(Instant.parse("2026-11-30T12:00:00.1234567Z")));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"v\":\"5.0\",\"v@odata.type\":\"Edm.Int32\"}",
        "{\"v\":2147483648,\"v@odata.type\":\"Edm.Int32\"}",
        "{\"v\":1.5,\"v@odata.type\":\"Edm.Int64\"}",
        "{\"v\":\"9223372036854775808\",\"v@odata.type\":\"Edm.Int64\"}",
        "{\"v\":\"12x\",\"v@odata.type\":\"Edm.Int64\"}",
        "{\"v\":\"nan\",\"v@odata.type\":\"Edm.Double\"}",
        "{\"v\":\"2026-02-30T12:00:00Z\",\"v@odata.type\":\"Edm.DateTime\"}",
        "{\"v\":\"1-1-1-1-1\",\"v@odata.type\":\"Edm.Guid\"}",
        "{\"v\":\"not base64!\",\"v@odata.type\":\"Edm.Binary\"}",
        "{\"v\":1,\"v@odata.type\":\"Edm.String\"}",
        "{\"v\":\"True\",\"v@odata.type\":\"Edm.Boolean\"}",
        "{\"v\":\"2026-11-30T12:00:00.1Z+01:00\",\"v@odata.type\":\"Edm.DateTime\"}",
        "{\"v\":1,\"v@odata.type\":\"Edm.Single\"}",
        "{\"v\":\"1.5.2\",\"v@odata.type\":\"Edm.Decimal\"}",
        "{\"v\":1,\"v@odata.type\":7}",
        "{\"w@odata.type\":\"Edm.Int64\",\"v\":1}",
        "{\"v\":1e400}",
      })
  void readValueThatDoesNotFitFailsWithInvalidValue(String json) {
    assertCode(() -> read(json), ErrorCode.InvalidValue);
  }

  @Test
  void readInvalidValueNamesTheProperty() {
    assertThatThrownBy(
            () -> read("{\"o\":{\"when\":\"soon\",\"when@odata.type\":\"Edm.DateTime\"}}"))
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e ->
                assertThat(e.context())
                    .containsEntry("property", "o.when")
                    .containsEntry("type", "Edm.DateTime"));
  }

  @Test
  void readTypedArrayElementsUnwrapsThem() {
    assertThat(readOne("{\"v\":[{\"@odata.type\":\"Edm.Int64\",\"value\":\"12\"},{\"value\":1}]}"))
        .isEqualTo(
            new Value.Arr(
                List.of(new Value.Int64(12), new Value.Obj(Map.of("value", new Value.Int32(1))))));
  }

  @Test
  void readReturnsKeysAndSystemPropertiesApart() {
    ItemBody body =
        read(
            "{\"partitionKey\":\"p\",\"id\":\"i\",\"_etag\":\"W/\\\"x\\\"\","
                + "\"_timestamp\":\"2026-11-30T12:00:00.0000001Z\",\"_sourceId\":\"s\",\"_sourcePartitionKey\":{},\"a\":1}");
    assertThat(body.partitionKey()).isEqualTo("p");
    assertThat(body.id()).isEqualTo("i");
    assertThat(body.etag()).isEqualTo("W/\"x\"");
    assertThat(body.timestamp()).isEqualTo(Instant.parse("2026-11-30T12:00:00.0000001Z"));
    assertThat(body.properties()).containsOnlyKeys("a");
    assertThat(body.sourceId()).isEqualTo("s");
    assertThat(body.sourcePartitionKey()).isNull(); // not a string: informational, skipped
  }

  @Test
  void addressedToWithOtherKeyFailsWithKeyMismatch() {
    ItemBody body = read("{\"partitionKey\":\"p\",\"id\":\"i\",\"a\":1}");
    assertThat(body.addressedTo("p", "i"))
        .isEqualTo(Item.of("p", "i", Map.of("a", new Value.Int32(1))));
    assertCode(() -> body.addressedTo("q", "i"), ErrorCode.KeyMismatch);
    assertCode(() -> body.addressedTo("p", "j"), ErrorCode.KeyMismatch);
    assertThat(read("{\"a\":1}").addressedTo("x", "y").partitionKey()).isEqualTo("x");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"_x\":1}",
        "{\"\":1}",
        "{\"@odata.type\":\"Edm.Int64\"}",
      })
  void readBadPropertyNameFailsWithInvalidPropertyName(String json) {
    assertCode(() -> read(json), ErrorCode.InvalidPropertyName);
  }

  @Test
  void readNameOverTheLimitFailsWithInvalidPropertyName() {
    String name = "n".repeat(256);
    assertCode(() -> read("{\"" + name + "\":1}"), ErrorCode.InvalidPropertyName);
    assertThat(read("{\"" + "n".repeat(255) + "\":1}").properties()).hasSize(1);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"a\":1,}",
        "{\"a\":1",
        "{\"a\":01}",
        "{\"a\":NaN}",
        "[1,2]",
        "\"text\"",
        "{\"a\":1} {}",
        "''",
        "{\"a\":1,\"a\":2}",
        "{\"o\":{\"b\":1,\"b\":2}}",
        "{\"id\":\"x\",\"id\":\"x\"}",
        "{\"a\":1,\"a@odata.type\":\"Edm.Int64\",\"a@odata.type\":\"Edm.Int64\"}",
      })
  void readMalformedOrWrongShapeFailsWithInvalidJson(String json) {
    assertCode(() -> read(json), ErrorCode.InvalidJson);
  }

  @Test
  void readMalformedJsonNamesLineAndColumn() {
    assertThatThrownBy(() -> read("{\n  \"a\": tru\n}"))
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e -> assertThat(e.context()).containsEntry("line", 2).containsKey("column"));
  }

  @Test
  void readNonStringKeyFailsWithInvalidKey() {
    assertCode(() -> read("{\"partitionKey\":5}"), ErrorCode.InvalidKey);
  }

  @Test
  void readLoneSurrogateFailsWithInvalidValue() {
    assertCode(() -> read("{\"a\":\"\\ud800\"}"), ErrorCode.InvalidValue);
    assertThat(readOne("{\"v\":\"\\ud83d\\ude00\"}")).isEqualTo(new Value.Str("\uD83D\uDE00"));
  }

  @Test
  void readNestingBeyondTheLimitFailsWithInvalidValue() {
    Limits shallow = new Limits(1024, 1 << 20, 255, 255, 2, 1000);
    byte[] ok =
        "{\"a\":{\"b\":[1, {\"@odata.type\":\"Edm.Int64\",\"value\":5}]}}"
            .getBytes(StandardCharsets.UTF_8);
    assertThat(ItemJson.read(ok, shallow).properties()).containsKey("a");
    byte[] deep = "{\"a\":{\"b\":[[1]]}}".getBytes(StandardCharsets.UTF_8);
    assertCode(() -> ItemJson.read(deep, shallow), ErrorCode.InvalidValue);
    byte[] deepObject = "{\"a\":{\"b\":[{}]}}".getBytes(StandardCharsets.UTF_8);
    assertCode(() -> ItemJson.read(deepObject, shallow), ErrorCode.InvalidValue);
  }

  @Test
  void writeUsesAnnotationsOnlyWhereJsonLacksTheType() {
    Item item =
        Item.builder("p", "i")
            .put("small", 5L)
            .put("big", Long.MAX_VALUE)
            .put("d", 1.0)
            .put("nan", Double.NaN)
            .put("i", 3)
            .put("when", Instant.parse("2026-11-30T12:00:00.1Z"))
            .build();
    String json = new String(ItemJson.write(item), StandardCharsets.UTF_8);
    assertThat(json)
        .isEqualTo(
            "{\"partitionKey\":\"p\",\"id\":\"i\","
                + "\"small@odata.type\":\"Edm.Int64\",\"small\":5,"
                + "\"big@odata.type\":\"Edm.Int64\",\"big\":\"9223372036854775807\","
                + "\"d\":1.0,\"nan@odata.type\":\"Edm.Double\",\"nan\":\"NaN\",\"i\":3,"
                + "\"when@odata.type\":\"Edm.DateTime\",\"when\":\"2026-11-30T12:00:00.1000000Z\"}");
  }

  /**
   * Found by JsonReadersFuzzTest: Jackson takes leading zero bytes for UTF-32 and then reads a
   * character beyond U+10FFFF, which it reports as a CharConversionException, not a parse error.
   */
  @Test
  void readWhenTheBytesDecodeAsInvalidUtf32FailsWithInvalidJson() {
    byte[] body = {0, 0, 0, '{', '1', 'd', '3', '0'};
    assertCode(() -> ItemJson.read(body, Limits.DEFAULT), ErrorCode.InvalidJson);
  }

  /**
   * Found by JsonReadersFuzzTest: Jackson refuses UCS-4 in the 3412 order while making its parser.
   */
  @Test
  void readWhenTheBytesLookLikeUcs4In3412OrderFailsWithInvalidJson() {
    byte[] body = {0, ':', 0, 0, 0, 'A', 'Q', 'I'};
    assertCode(() -> ItemJson.read(body, Limits.DEFAULT), ErrorCode.InvalidJson);
  }

  private static Value decimal(String text) {
    return Value.of(new BigDecimal(text));
  }

  @Test
  void readDecimalFromAStringOrANumberExactly() {
    String digits38 = "12345678901234567890.123456789012345678";
    assertThat(readOne("{\"v@odata.type\":\"Edm.Decimal\",\"v\":\"" + digits38 + "\"}"))
        .isEqualTo(decimal(digits38));
    assertThat(readOne("{\"v@odata.type\":\"Edm.Decimal\",\"v\":" + digits38 + "}"))
        .isEqualTo(decimal(digits38));
    assertThat(readOne("{\"v\":" + digits38 + ",\"v@odata.type\":\"Edm.Decimal\"}"))
        .isEqualTo(decimal(digits38));
    assertThat(readOne("{\"v\":0.1,\"v@odata.type\":\"Edm.Decimal\"}")).isEqualTo(decimal("0.1"));
    assertThat(readOne("{\"v\":12,\"v@odata.type\":\"Edm.Decimal\"}")).isEqualTo(decimal("12"));
    assertThat(readOne("{\"v\":9223372036854775807,\"v@odata.type\":\"Edm.Decimal\"}"))
        .isEqualTo(decimal("9223372036854775807"));
    assertThat(readOne("{\"v\":123456789012345678901234567890,\"v@odata.type\":\"Edm.Decimal\"}"))
        .isEqualTo(decimal("123456789012345678901234567890"));
    assertThat(readOne("{\"v\":1.50E+2,\"v@odata.type\":\"Edm.Decimal\"}"))
        .isEqualTo(decimal("150"));
    assertThat(readOne("{\"v\":[{\"@odata.type\":\"Edm.Decimal\",\"value\":0.3}]}"))
        .isEqualTo(new Value.Arr(List.of(decimal("0.3"))));
    assertThat(readOne("{\"v\":{\"w\":1e-400,\"w@odata.type\":\"Edm.Decimal\"}}"))
        .isEqualTo(new Value.Obj(Map.of("w", decimal("1e-400"))));
  }

  @Test
  void readDecimalBeyondTheRangeOfADoubleOnlyWhenAnnotated() {
    assertThat(readOne("{\"v\":1E+400,\"v@odata.type\":\"Edm.Decimal\"}"))
        .isEqualTo(decimal("1E+400"));
    assertThat(readOne("{\"v\":[{\"value\":-1e309,\"@odata.type\":\"Edm.Decimal\"}]}"))
        .isEqualTo(new Value.Arr(List.of(decimal("-1e309"))));
    for (String json :
        List.of(
            "{\"v\":1e400}",
            "{\"v\":{\"w\":1e400}}",
            "{\"v\":1e400,\"v@odata.type\":\"Edm.Double\"}",
            "{\"v\":[{\"value\":1e400,\"@odata.type\":\"Edm.Double\"}]}",
            "{\"v\":[1e400]}")) {
      assertThatThrownBy(() -> read(json))
          .as(json)
          .isInstanceOf(ViewbaseException.class)
          .hasMessageContaining("beyond the range of a double");
    }
  }

  @Test
  void readDecimalThatDoesNotFitSaysWhy() {
    assertThatThrownBy(() -> read("{\"v@odata.type\":\"Edm.Decimal\",\"v\":\"1E999999999\"}"))
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.InvalidValue);
              assertThat(e.getMessage()).contains("exponent lies in -400..400");
              assertThat(e.context())
                  .containsEntry("property", "v")
                  .containsEntry("type", "Edm.Decimal");
            });
    assertThatThrownBy(() -> read("{\"v@odata.type\":\"Edm.Decimal\",\"v\":\"12x\"}"))
        .hasMessageContaining("digits with an optional sign");
    assertThatThrownBy(
            () -> read("{\"v@odata.type\":\"Edm.Decimal\",\"v\":\"" + "1".repeat(101) + "\"}"))
        .hasMessageContaining("at most 100 significant digits");
    assertCode(() -> read("{\"v@odata.type\":\"Edm.Decimal\",\"v\":true}"), ErrorCode.InvalidValue);
    assertThat(readOne("{\"v@odata.type\":\"Edm.Decimal\",\"v\":null}"))
        .isEqualTo(Value.nullValue());
  }

  @Test
  void writeDecimalAsAnnotatedPlainText() {
    Item item =
        Item.of(
            "p", "i", Map.of("d", decimal("12.50"), "a", new Value.Arr(List.of(decimal("1E+2")))));
    String json = new String(ItemJson.write(item), StandardCharsets.UTF_8);
    assertThat(json)
        .contains("\"d@odata.type\":\"Edm.Decimal\",\"d\":\"12.5\"")
        .contains("\"a\":[{\"@odata.type\":\"Edm.Decimal\",\"value\":\"100\"}]");
    assertThat(ItemJson.readStored(ItemJson.write(item), Limits.DEFAULT).properties())
        .isEqualTo(item.properties());
  }
}
