package io.viewbase.server.dynamodb.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AttributeValuesTest {

  private static AttributeValue value(String json) {
    return AttributeValues.read(JsonTree.read(json.getBytes(StandardCharsets.UTF_8), 1 << 20));
  }

  private static String json(Object tree) {
    return new String(JsonTree.write(tree), StandardCharsets.UTF_8);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"S\":\"x\"}",
        "{\"S\":\"\"}",
        "{\"N\":\"1.5\"}",
        "{\"B\":\"AQID\"}",
        "{\"B\":\"\"}",
        "{\"BOOL\":true}",
        "{\"BOOL\":false}",
        "{\"NULL\":true}",
        "{\"M\":{\"b\":{\"S\":\"1\"},\"a\":{\"L\":[{\"N\":\"2\"},{\"NULL\":true}]}}}",
        "{\"M\":{}}",
        "{\"L\":[]}",
        "{\"SS\":[\"b\",\"a\",\"\"]}",
        "{\"NS\":[\"1\",\"-2.5\"]}",
        "{\"BS\":[\"AQ==\",\"Ag==\"]}",
      })
  void valuesRoundTripThroughDynamoDbJson(String json) {
    AttributeValue value = value(json);
    assertThat(json(value)).isEqualTo(json);
    assertThat(json(AttributeValues.tree(value))).isEqualTo(json);
    assertThat(value(json(value))).isEqualTo(value);
  }

  @Test
  void numbersAreWrittenCanonically() {
    assertThat(json(value("{\"N\":\"1.50E+2\"}"))).isEqualTo("{\"N\":\"150\"}");
    assertThat(json(value("{\"NS\":[\"1.0\",\"-0\"]}"))).isEqualTo("{\"NS\":[\"1\",\"0\"]}");
  }

  @Test
  void unknownMembersAreIgnored() {
    assertThat(value("{\"S\":\"x\",\"X\":{\"deep\":[1]}}")).isEqualTo(new AttributeValue.S("x"));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{} | Supplied AttributeValue is empty, must contain exactly one of the supported datatypes",
        "{\"a\":\"\"} | Supplied AttributeValue is empty, must contain exactly one of the supported datatypes",
        "{\"S\":null} | Supplied AttributeValue is empty, must contain exactly one of the supported datatypes",
        "{\"S\":\"a\",\"N\":\"1\"} | Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes",
        "{\"NULL\":false} | One or more parameter values were invalid: Null attribute value types must have the value of true",
        "{\"SS\":[]} | One or more parameter values were invalid: An string set  may not be empty",
        "{\"NS\":[]} | One or more parameter values were invalid: An number set  may not be empty",
        "{\"BS\":[]} | One or more parameter values were invalid: Binary sets should not be empty",
        "{\"SS\":[\"a\",\"a\"]} | One or more parameter values were invalid: Input collection [a, a] contains duplicates.",
        "{\"NS\":[\"1\",\"1.0\"]} | One or more parameter values were invalid: Input collection contains duplicates.",
        "{\"BS\":[\"Yg==\",\"Yg==\"]} | One or more parameter values were invalid: Input collection [Yg==, Yg==]of type BS contains duplicates.",
        "{\"NS\":[\"1\",\"b\"]} | The parameter cannot be converted to a numeric value: b",
        "{\"N\":\"\"} | The parameter cannot be converted to a numeric value",
        "{\"M\":{\"a\":{}}} | Supplied AttributeValue is empty, must contain exactly one of the supported datatypes",
        "{\"L\":[{\"N\":\"1e200\"}]} | Number overflow. Attempting to store a number with magnitude larger than supported range",
      })
  void invalidValuesAreRefusedAsDynamoDbRefusesThem(String json, String message) {
    assertThatThrownBy(() -> value(json))
        .isInstanceOfSatisfying(
            ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.InvalidInput))
        .hasMessage(message);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"S\":1}",
        "{\"N\":123}",
        "{\"S\":true}",
        "{\"BOOL\":\"true\"}",
        "{\"M\":[]}",
        "{\"L\":{}}",
        "{\"SS\":[1]}",
        "\"x\"",
        "[]",
        "{\"B\":\"abc\"}",
        "{\"B\":\"ab!=\"}",
        "{\"B\":\"Yh==\"}",
      })
  void valuesOfTheWrongJsonShapeAreSerializationErrors(String json) {
    assertThatThrownBy(() -> value(json))
        .isInstanceOfSatisfying(
            ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.InvalidJson));
  }

  private static Object nestedMaps(int wraps) {
    Object v = Map.of("S", "leaf");
    for (int i = 0; i < wraps; i++) {
      v = Map.of("M", Map.of("n", v));
    }
    return v;
  }

  @Test
  void documentsNestThirtyTwoLevelsAndNoDeeper() {
    // The attribute is level 1: 31 wraps put the leaf at level 32, the deepest DynamoDB accepts.
    assertThat(AttributeValues.readItem(Map.of("a", nestedMaps(31)))).containsKey("a");
    assertThatThrownBy(() -> AttributeValues.readItem(Map.of("a", nestedMaps(32))))
        .hasMessage(
            "Nesting Levels have exceeded supported limits: Attributes in the item have nested"
                + " levels beyond supported limit");
    Object lists = Map.of("S", "leaf");
    for (int i = 0; i < 32; i++) {
      lists = Map.of("L", List.of(lists));
    }
    Object deepList = lists;
    assertThatThrownBy(() -> AttributeValues.read(deepList)).hasMessageStartingWith("Nesting");
  }

  @Test
  void aDocumentJustTooDeepStillParsesAsJsonAndGetsDynamoDbsMessage() {
    String deep = "{\"a\":" + "{\"M\":{\"n\":".repeat(40) + "{\"S\":\"x\"}" + "}}".repeat(40) + "}";
    Object tree =
        JsonTree.read(("{\"Item\":" + deep + "}").getBytes(StandardCharsets.UTF_8), 1 << 20);
    assertThatThrownBy(() -> AttributeValues.readItem(((Map<?, ?>) tree).get("Item")))
        .hasMessageStartingWith("Nesting Levels have exceeded supported limits");
  }

  @Test
  void readItemKeepsTheOrderOfTheJson() {
    Map<String, AttributeValue> item =
        AttributeValues.readItem(
            JsonTree.read(
                "{\"z\":{\"S\":\"1\"},\"a\":{\"N\":\"2\"},\"m\":{\"BOOL\":true}}"
                    .getBytes(StandardCharsets.UTF_8),
                1000));
    assertThat(item.keySet()).containsExactly("z", "a", "m");
    assertThat(item.get("a")).isEqualTo(new AttributeValue.N(new BigDecimal(2)));
  }

  @Test
  void readItemOfANonObjectIsASerializationError() {
    assertThatThrownBy(() -> AttributeValues.readItem(List.of()))
        .isInstanceOfSatisfying(
            ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.InvalidJson));
  }
}
