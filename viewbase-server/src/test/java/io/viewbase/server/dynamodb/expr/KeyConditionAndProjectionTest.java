package io.viewbase.server.dynamodb.expr;

import static io.viewbase.server.dynamodb.expr.Items.item;
import static io.viewbase.server.dynamodb.expr.Items.json;
import static io.viewbase.server.dynamodb.expr.Items.placeholders;
import static io.viewbase.server.dynamodb.expr.Items.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.server.dynamodb.expr.KeyCondition.SortOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KeyConditionAndProjectionTest {
  private static final String VALUES =
      "{\":p\":{\"S\":\"p\"},\":a\":{\"N\":\"1\"},\":b\":{\"N\":\"5\"},\":pre\":{\"S\":\"ab\"}}";

  private static KeyCondition key(String expression, String rangeKey) {
    return Expressions.parseKeyCondition(
        expression, placeholders("{\"#s\":\"sk\"}", VALUES), "pk", rangeKey);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "pk = :p AND sk = :a | EQ",
        "pk = :p AND sk < :a | LT",
        "pk = :p AND sk <= :a | LE",
        "pk = :p AND sk > :a | GT",
        "pk = :p AND sk >= :a | GE",
        "pk = :p AND :a > sk | LT",
        "pk = :p AND :a <= #s | GE",
        ":p = pk AND sk BETWEEN :a AND :b | BETWEEN",
        "sk = :a AND pk = :p | EQ",
        "(pk = :p) AND (begins_with(sk, :pre)) | BEGINS_WITH",
      })
  void keyConditionsNameThePartitionValueAndTheSortCondition(String expression, String operator) {
    KeyCondition k = key(expression, "sk");
    assertThat(k.partitionKey()).isEqualTo("pk");
    assertThat(k.partitionValue()).isEqualTo(value("{\"S\":\"p\"}"));
    assertThat(k.sortCondition()).isPresent();
    assertThat(k.sortCondition().get().name()).isEqualTo("sk");
    assertThat(k.sortCondition().get().operator()).isEqualTo(SortOperator.valueOf(operator));
  }

  @Test
  void betweenCarriesBothBoundsAndTestsItems() {
    KeyCondition k = key("pk = :p AND sk BETWEEN :a AND :b", "sk");
    assertThat(k.sortCondition().get().value()).isEqualTo(value("{\"N\":\"1\"}"));
    assertThat(k.sortCondition().get().upper()).isEqualTo(value("{\"N\":\"5\"}"));
    assertThat(k.test(item("{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"5\"}}"))).isTrue();
    assertThat(k.test(item("{\"pk\":{\"S\":\"p\"},\"sk\":{\"N\":\"6\"}}"))).isFalse();
    assertThat(k.test(item("{\"pk\":{\"S\":\"q\"},\"sk\":{\"N\":\"2\"}}"))).isFalse();
    assertThat(key("pk = :p", "sk").sortCondition()).isEmpty();
    assertThat(key("pk = :p", null).test(item("{\"pk\":{\"S\":\"p\"}}"))).isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "pk = :p OR sk = :a | Invalid operator used in KeyConditionExpression: OR",
        "NOT pk = :p | Invalid operator used in KeyConditionExpression: NOT",
        "pk IN (:p) | Invalid operator used in KeyConditionExpression: IN",
        "pk <> :p | Invalid operator used in KeyConditionExpression: <>",
        "pk = :p AND attribute_exists(sk) | Invalid operator used in KeyConditionExpression: attribute_exists",
        "pk = :p AND contains(sk, :a) | Invalid operator used in KeyConditionExpression: contains",
        "pk = :p AND size(sk) = :a | KeyConditionExpressions cannot contain nested operations",
        "pk = :p AND :a BETWEEN sk AND :b | Invalid condition in KeyConditionExpression: BETWEEN operator must have the key attribute as its first operand",
        "pk = :p AND begins_with(:pre, sk) | Invalid condition in KeyConditionExpression: begins_with operator must have the key attribute as its first operand",
        "pk = sk | Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition",
        "pk = :p AND :a = :b | Invalid condition in KeyConditionExpression: No key attribute specified",
        "pk.x = :p | KeyConditionExpressions cannot have conditions on nested attributes",
        "pk = :p AND pk = :p | KeyConditionExpressions must only contain one condition per key",
        "sk = :a | Query condition missed key schema element: pk",
        "pk = :p AND attr2 = :a | Query condition missed key schema element: sk",
        "pk > :p | Query key condition not supported",
        "pk = :p AND sk = :a AND attr2 = :b | Query key condition not supported",
        "pk = :p AND sk BETWEEN :b AND :a | Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {N:5}, upper bound operand: AttributeValue: {N:1}",
        "pk = | Invalid KeyConditionExpression: Syntax error; token: \"<EOF>\", near: \"=\"",
      })
  void keyConditionsAreRefusedAsDynamoDbRefusesThem(String expression, String message) {
    assertThatThrownBy(() -> key(expression, "sk")).hasMessage(message);
  }

  /** A key condition on a multi-attribute key: partition (h1, h2), sort (r1, r2, r3). */
  private static KeyCondition multi(String expression) {
    return Expressions.parseKeyCondition(
        expression,
        placeholders(null, VALUES),
        java.util.List.of("h1", "h2"),
        java.util.List.of("r1", "r2", "r3"));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "h2 = :p AND h1 = :p | | 0",
        "h1 = :p AND h2 = :p AND r1 > :a | GT | 1",
        "h1 = :p AND h2 = :p AND r2 <= :a AND r1 = :a | LE | 2",
        "h1 = :p AND h2 = :p AND r1 = :a AND r2 = :a AND r3 BETWEEN :a AND :b | BETWEEN | 3",
        "h1 = :p AND h2 = :p AND r1 = :a AND begins_with(r2, :pre) | BEGINS_WITH | 2",
      })
  void aMultiAttributeKeyConditionFixesEveryPartitionAttributeAndASortPrefix(
      String expression, String last, int sorted) {
    KeyCondition k = multi(expression);
    assertThat(k.partitionValues()).containsOnlyKeys("h1", "h2");
    assertThat(k.partitionValues().keySet()).containsExactly("h1", "h2");
    assertThat(k.sortConditions()).hasSize(sorted);
    for (int i = 0; i < sorted; i++) {
      assertThat(k.sortConditions().get(i).name()).isEqualTo("r" + (i + 1));
    }
    if (last != null) {
      assertThat(k.sortCondition().orElseThrow().operator()).isEqualTo(SortOperator.valueOf(last));
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "h1 = :p | Query condition missed key schema element: h2",
        "h2 = :p AND r1 = :a | Query condition missed key schema element: h1",
        "h1 = :p AND h2 > :p | Query key condition not supported",
        "h1 = :p AND h2 = :p AND x = :a | Query condition missed key schema element: r1",
        "h1 = :p AND h2 = :p AND r1 = :a AND x = :a | Query key condition not supported",
        "h1 = :p AND h2 = :p AND r2 = :a | RANGE key attributes r1 must have equality conditions specified in the query because a condition is present on key attribute r2",
        "h1 = :p AND h2 = :p AND r1 = :a AND r3 = :a | RANGE key attributes r2 must have equality conditions specified in the query because a condition is present on key attribute r3",
        "h1 = :p AND h2 = :p AND r1 < :a AND r2 = :a | RANGE key attributes r1 must have equality conditions specified in the query because a condition is present on key attribute r2",
        "h1 = :p AND h2 = :p AND r1 = :a AND begins_with(r2, :pre) AND r3 = :a | RANGE key attributes r2 must have equality conditions specified in the query because a condition is present on key attribute r3",
      })
  void aMultiAttributeKeyConditionOfAnotherShapeIsRefused(String expression, String message) {
    assertThatThrownBy(() -> multi(expression)).hasMessage(message);
  }

  @Test
  void aHashOnlyKeyTakesOneCondition() {
    assertThatThrownBy(() -> key("pk = :p AND sk = :a", null))
        .hasMessage("Query key condition not supported");
  }

  private static final String ITEM =
      "{\"a\":{\"N\":\"1\"},\"m\":{\"M\":{\"x\":{\"N\":\"1\"},\"y\":{\"M\":{\"z\":{\"S\":\"z\"}}}}},"
          + "\"l\":{\"L\":[{\"N\":\"0\"},{\"M\":{\"k\":{\"S\":\"k\"},\"j\":{\"S\":\"j\"}}},{\"N\":\"2\"},{\"N\":\"3\"}]},"
          + "\"dot.ted\":{\"S\":\"d\"}}";

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "a | {\"a\":{\"N\":\"1\"}}",
        "a, gone | {\"a\":{\"N\":\"1\"}}",
        "gone | {}",
        "m.x | {\"m\":{\"M\":{\"x\":{\"N\":\"1\"}}}}",
        "m.y.z, a | {\"m\":{\"M\":{\"y\":{\"M\":{\"z\":{\"S\":\"z\"}}}}},\"a\":{\"N\":\"1\"}}",
        "l[3], l[0] | {\"l\":{\"L\":[{\"N\":\"0\"},{\"N\":\"3\"}]}}",
        "l[1].k | {\"l\":{\"L\":[{\"M\":{\"k\":{\"S\":\"k\"}}}]}}",
        "l[9], a[0], m.gone | {}",
        "#d | {\"dot.ted\":{\"S\":\"d\"}}",
      })
  void projectionsKeepOnlyTheProjectedParts(String expression, String projected) {
    Projection p =
        Expressions.parseProjection(expression, placeholders("{\"#d\":\"dot.ted\"}", null));
    assertThat(json(p.apply(item(ITEM)))).isEqualTo(projected);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "a, a | Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a]",
        "m, m.x | Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [m], path two: [m, x]",
        "m.x, m[0] | Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [m, x], path two: [m, [0]]",
        "name | Attribute name is a reserved keyword; reserved keyword: name",
        "#nope | An expression attribute name used in the document path is not defined; attribute name: #nope",
        "a b | Syntax error; token: \"b\", near: \"a b\"",
        "a, | Syntax error; token: \"<EOF>\", near: \",\"",
        ":v | Syntax error; token: \":v\", near: \":v\"",
        "size(a) | Syntax error; token: \"(\", near: \"size(a\"",
      })
  void projectionsAreRefusedAsDynamoDbRefusesThem(String expression, String message) {
    assertThatThrownBy(() -> Expressions.parseProjection(expression, Placeholders.none()))
        .hasMessage("Invalid ProjectionExpression: " + message);
  }
}
