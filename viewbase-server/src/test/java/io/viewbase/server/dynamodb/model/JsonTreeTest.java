package io.viewbase.server.dynamodb.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonTreeTest {

  private static Object read(String json) {
    return JsonTree.read(json.getBytes(StandardCharsets.UTF_8), 1 << 20);
  }

  private static String write(Object tree) {
    return new String(JsonTree.write(tree), StandardCharsets.UTF_8);
  }

  @Test
  @SuppressWarnings("unchecked")
  void readBuildsPlainJavaShapes() {
    Object tree = read("{\"b\":[1,2.50,\"x\",true,false,null],\"a\":{}}");
    assertThat(tree).isInstanceOf(LinkedHashMap.class);
    @SuppressWarnings("unchecked")
    Map<String, Object> map = (Map<String, Object>) tree;
    assertThat(map.keySet()).containsExactly("b", "a");
    assertThat(map.get("b")).isInstanceOf(ArrayList.class);
    assertThat((List<Object>) map.get("b"))
        .containsExactly(new BigDecimal("1"), new BigDecimal("2.50"), "x", true, false, null);
  }

  @Test
  @SuppressWarnings("unchecked")
  void numbersAreKeptExact() {
    Object tree = read("[12345678901234567890123456789.123456789, 1e400]");
    assertThat((List<Object>) tree)
        .containsExactly(
            new BigDecimal("12345678901234567890123456789.123456789"), new BigDecimal("1e400"));
  }

  @Test
  void aNumberBeyondADecimalsExponentIsInvalidJsonNotAFailure() {
    // found by DynamoDbPipelineFuzzTest: 1E followed by 120 digits is a JSON number, but no
    // BigDecimal (its scale is an int): Jackson's NumberFormatException answered 500
    String huge = "1E" + "4".repeat(120);
    for (String body : List.of(huge, "{\"Limit\":" + huge + "}", "[1, -" + huge + "]")) {
      assertThatThrownBy(() -> read(body))
          .as(body)
          .isInstanceOfSatisfying(
              ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.InvalidJson))
          .hasMessageContaining("number");
    }
  }

  @Test
  void writeRoundTripsTheShapesAndTakesOtherNumbersAndArrays() {
    String json = "{\"b\":[1,2.50,\"x\\\"\\n\",true,false,null],\"a\":{}}";
    assertThat(write(read(json))).isEqualTo(json);
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("Count", 3);
    answer.put("Scanned", 4L);
    answer.put("Items", new Object[] {new AttributeValue.S("x")});
    assertThat(write(answer)).isEqualTo("{\"Count\":3,\"Scanned\":4,\"Items\":[{\"S\":\"x\"}]}");
  }

  @Test
  void writeRefusesOtherTypes() {
    assertThatThrownBy(() -> JsonTree.write(List.of(new Object())))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> JsonTree.write(Map.of(1, "x")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "   ",
        "{",
        "{\"a\":}",
        "{\"a\":1,}",
        "[1,]",
        "{'a':1}",
        "{\"a\":1}x",
        "{\"a\":1} {}",
        "NaN",
        "{\"a\":1,\"a\":2}",
        "{\"a\":null,\"a\":null}",
        "\"\\uZZZZ\"",
      })
  void malformedOrAmbiguousJsonIsInvalidJson(String json) {
    assertThatThrownBy(() -> read(json))
        .isInstanceOfSatisfying(
            ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.InvalidJson));
  }

  @Test
  void errorMessagesNeverQuoteTheRequest() {
    assertThatThrownBy(() -> read("{\"secret-name\": secret-value}"))
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("secret"));
    assertThatThrownBy(() -> read("{\"secret-name\":1,\"secret-name\":2}"))
        .satisfies(
            e -> {
              assertThat(e.getMessage()).doesNotContain("secret");
              assertThat(((ViewbaseException) e).context()).containsKeys("line", "column");
            });
  }

  @Test
  void nestingIsBounded() {
    int max = JsonTree.MAX_DEPTH;
    assertThat(read("[".repeat(max) + "]".repeat(max))).isInstanceOf(List.class);
    assertThatThrownBy(() -> read("[".repeat(max + 1) + "]".repeat(max + 1)))
        .isInstanceOfSatisfying(
            ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.InvalidJson));
    // Deeper than Jackson's own bound too: refused before the stack could run out.
    assertThatThrownBy(() -> read("[".repeat(100_000)))
        .isInstanceOfSatisfying(
            ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.InvalidJson));
  }

  @Test
  void sizeIsBoundedByTheCallersLimit() {
    byte[] body = "{\"a\":\"0123456789\"}".getBytes(StandardCharsets.UTF_8);
    assertThat(JsonTree.read(body, body.length)).isInstanceOf(Map.class);
    assertThatThrownBy(() -> JsonTree.read(body, body.length - 1))
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.RequestTooLarge));
  }

  /** Random bytes never escape as anything but InvalidJson, or parse to a tree. */
  @Test
  void randomBytesFailOnlyAsInvalidJson() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    byte[] alphabet = "{}[]:,\"\\ 0123456789.eE+-truefalsn\u00e9x".getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < 5000; i++) {
      byte[] body = new byte[random.nextInt(40)];
      for (int j = 0; j < body.length; j++) {
        body[j] =
            random.nextInt(8) == 0
                ? (byte) random.nextInt()
                : alphabet[random.nextInt(alphabet.length)];
      }
      try {
        JsonTree.read(body, 1000);
      } catch (ViewbaseException e) {
        assertThat(e.code())
            .as("seed %d, body %s", seed, Arrays.toString(body))
            .isEqualTo(ErrorCode.InvalidJson);
      }
    }
  }
}
