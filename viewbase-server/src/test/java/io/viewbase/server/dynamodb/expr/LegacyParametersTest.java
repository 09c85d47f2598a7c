package io.viewbase.server.dynamodb.expr;

import static io.viewbase.server.dynamodb.expr.Items.item;
import static io.viewbase.server.dynamodb.expr.Items.json;
import static io.viewbase.server.dynamodb.expr.Items.tree;
import static io.viewbase.server.dynamodb.expr.Items.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.server.dynamodb.expr.LegacyParameters.Operation;
import io.viewbase.server.dynamodb.model.AttributeValue;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LegacyParametersTest {
  private static final String ITEM =
      "{\"pk\":{\"S\":\"k\"},\"n\":{\"N\":\"5\"},\"s\":{\"S\":\"hello\"},\"ss\":{\"SS\":[\"a\",\"b\"]}}";

  private static boolean expected(String expected, String operator) {
    return LegacyParameters.expected(tree(expected), operator)
        .map(c -> c.test(item(ITEM)))
        .orElse(true);
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"n\":{\"Value\":{\"N\":\"5\"}}} | | true",
        "{\"n\":{\"Value\":{\"N\":\"6\"},\"Exists\":true}} | | false",
        "{\"gone\":{\"Exists\":false}} | | true",
        "{\"n\":{\"Exists\":false}} | | false",
        "{\"n\":{\"ComparisonOperator\":\"GT\",\"AttributeValueList\":[{\"N\":\"4\"}]}} | | true",
        "{\"n\":{\"ComparisonOperator\":\"LT\",\"Value\":{\"N\":\"4\"}}} | | false",
        "{\"n\":{\"ComparisonOperator\":\"NE\",\"Value\":{\"N\":\"4\"}}} | | true",
        "{\"gone\":{\"ComparisonOperator\":\"NE\",\"Value\":{\"N\":\"4\"}}} | | true",
        "{\"n\":{\"ComparisonOperator\":\"NOT_NULL\"}} | | true",
        "{\"gone\":{\"ComparisonOperator\":\"NULL\"}} | | true",
        "{\"ss\":{\"ComparisonOperator\":\"CONTAINS\",\"Value\":{\"S\":\"a\"}}} | | true",
        "{\"ss\":{\"ComparisonOperator\":\"NOT_CONTAINS\",\"Value\":{\"S\":\"c\"}}} | | true",
        "{\"gone\":{\"ComparisonOperator\":\"NOT_CONTAINS\",\"Value\":{\"S\":\"c\"}}} | | false",
        "{\"s\":{\"ComparisonOperator\":\"BEGINS_WITH\",\"Value\":{\"S\":\"he\"}}} | | true",
        "{\"n\":{\"ComparisonOperator\":\"IN\",\"AttributeValueList\":[{\"N\":\"1\"},{\"N\":\"5\"}]}} | | true",
        "{\"n\":{\"ComparisonOperator\":\"BETWEEN\",\"AttributeValueList\":[{\"N\":\"1\"},{\"N\":\"5\"}]}} | | true",
        "{\"n\":{\"Value\":{\"N\":\"5\"}},\"s\":{\"Value\":{\"S\":\"x\"}}} | | false",
        "{\"n\":{\"Value\":{\"N\":\"5\"}},\"s\":{\"Value\":{\"S\":\"x\"}}} | AND | false",
        "{\"n\":{\"Value\":{\"N\":\"5\"}},\"s\":{\"Value\":{\"S\":\"x\"}}} | OR | true",
        "{} | | true",
      })
  void expectedBecomesTheConditionItMeans(String expected, String operator, boolean result) {
    assertThat(expected(expected, operator)).isEqualTo(result);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"a\":{}} | One or more parameter values were invalid: Value must be provided when Exists is null for Attribute: a",
        "{\"a\":{\"Exists\":true}} | One or more parameter values were invalid: Value must be provided when Exists is true for Attribute: a",
        "{\"a\":{\"Exists\":false,\"Value\":{\"S\":\"a\"}}} | One or more parameter values were invalid: Value cannot be used when Exists is false for Attribute: a",
        "{\"a\":{\"ComparisonOperator\":\"LT\"}} | One or more parameter values were invalid: Value or AttributeValueList must be used with ComparisonOperator: LT for Attribute: a",
        "{\"a\":{\"Exists\":true,\"ComparisonOperator\":\"LT\"}} | One or more parameter values were invalid: Exists and ComparisonOperator cannot be used together for Attribute: a",
        "{\"a\":{\"ComparisonOperator\":\"LT\",\"Value\":{\"S\":\"a\"},\"AttributeValueList\":[{\"S\":\"a\"}]}} | One or more parameter values were invalid: Value and AttributeValueList cannot be used together for Attribute: a",
        "{\"a\":{\"AttributeValueList\":[{\"S\":\"a\"}]}} | One or more parameter values were invalid: AttributeValueList can only be used with a ComparisonOperator for Attribute: a",
        "{\"a\":{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[]}} | One or more parameter values were invalid: Invalid number of argument(s) for the EQ ComparisonOperator",
        "{\"a\":{\"ComparisonOperator\":\"NULL\",\"Value\":{\"S\":\"a\"}}} | One or more parameter values were invalid: Invalid number of argument(s) for the NULL ComparisonOperator",
        "{\"a\":{\"ComparisonOperator\":\"IN\",\"AttributeValueList\":[{\"S\":\"a\"},{\"N\":\"1\"}]}} | One or more parameter values were invalid: AttributeValues inside AttributeValueList must be of same type",
        "{\"a\":{\"ComparisonOperator\":\"BETWEEN\",\"AttributeValueList\":[{\"N\":\"2\"},{\"N\":\"1\"}]}} | The BETWEEN condition was provided a range where the lower bound is greater than the upper bound",
        "{\"a\":{\"ComparisonOperator\":\"XX\",\"Value\":{\"S\":\"a\"}}} | 1 validation error detected: Value 'XX' at 'expected.a.member.comparisonOperator' failed to satisfy constraint: Member must satisfy enum value set: [IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]",
        "{\"a\":{\"Value\":{}}} | Supplied AttributeValue is empty, must contain exactly one of the supported datatypes",
      })
  void expectedIsRefusedAsDynamoDbRefusesIt(String expected, String message) {
    assertThatThrownBy(() -> LegacyParameters.expected(tree(expected), null)).hasMessage(message);
  }

  @Test
  void aConditionalOperatorOtherThanAndOrOrIsRefused() {
    assertThatThrownBy(() -> LegacyParameters.expected(tree("{}"), "XOR"))
        .hasMessage(
            "1 validation error detected: Value 'XOR' at 'conditionalOperator' failed to satisfy"
                + " constraint: Member must satisfy enum value set: [OR, AND]");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"a\":{\"ComparisonOperator\":\"LT\",\"AttributeValueList\":[{\"SS\":[\"x\"]}]}} | One or more parameter values were invalid: ComparisonOperator LT is not valid for SS AttributeValue type",
        "{\"a\":{\"ComparisonOperator\":\"BEGINS_WITH\",\"AttributeValueList\":[{\"N\":\"1\"}]}} | One or more parameter values were invalid: ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type",
        "{\"a\":{\"AttributeValueList\":[{\"N\":\"1\"}]}} | 1 validation error detected: Value null at 'queryFilter.a.member.comparisonOperator' failed to satisfy constraint: Member must not be null",
      })
  void filtersAreRefusedAsDynamoDbRefusesThem(String filter, String message) {
    assertThatThrownBy(() -> LegacyParameters.filter(tree(filter), null, "QueryFilter"))
        .hasMessage(message);
  }

  @Test
  void filtersBecomeConditions() {
    Condition c =
        LegacyParameters.filter(
                tree(
                    "{\"n\":{\"ComparisonOperator\":\"GE\",\"AttributeValueList\":[{\"N\":\"5\"}]},"
                        + "\"s\":{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{\"S\":\"no\"}]}}"),
                "OR",
                "ScanFilter")
            .orElseThrow();
    assertThat(c.test(item(ITEM))).isTrue();
  }

  @Test
  void keyConditionsBecomeAKeyCondition() {
    KeyCondition k =
        LegacyParameters.keyConditions(
            tree(
                "{\"pk\":{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{\"S\":\"k\"}]},"
                    + "\"sk\":{\"ComparisonOperator\":\"BETWEEN\",\"AttributeValueList\":[{\"N\":\"1\"},{\"N\":\"3\"}]}}"),
            "pk",
            "sk");
    assertThat(k.partitionValue()).isEqualTo(value("{\"S\":\"k\"}"));
    assertThat(k.sortCondition().get().operator()).isEqualTo(KeyCondition.SortOperator.BETWEEN);
    assertThat(k.sortCondition().get().upper()).isEqualTo(value("{\"N\":\"3\"}"));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"sk\":{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{\"N\":\"1\"}]}} | Query condition missed key schema element: pk",
        "{\"pk\":{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{\"S\":\"k\"}]},\"x\":{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{\"N\":\"1\"}]}} | Query condition missed key schema element: sk",
        "{\"pk\":{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{\"S\":\"k\"}]},\"sk\":{\"ComparisonOperator\":\"NOT_NULL\"}} | Attempted conditional constraint is not an indexable operation",
        "{\"pk\":{\"ComparisonOperator\":\"GT\",\"AttributeValueList\":[{\"S\":\"k\"}]}} | Query key condition not supported",
      })
  void keyConditionsAreRefusedAsDynamoDbRefusesThem(String conditions, String message) {
    assertThatThrownBy(() -> LegacyParameters.keyConditions(tree(conditions), "pk", "sk"))
        .hasMessage(message);
  }

  private static final Map<String, AttributeValue> KEY = item("{\"pk\":{\"S\":\"k\"}}");

  @Test
  void attributeUpdatesBecomeAnUpdate() {
    Update u =
        LegacyParameters.attributeUpdates(
            tree(
                "{\"a\":{\"Value\":{\"S\":\"x\"}},\"n\":{\"Action\":\"ADD\",\"Value\":{\"N\":\"2\"}},"
                    + "\"l\":{\"Action\":\"ADD\",\"Value\":{\"L\":[{\"N\":\"9\"}]}},"
                    + "\"ss\":{\"Action\":\"DELETE\",\"Value\":{\"SS\":[\"a\"]}},"
                    + "\"s\":{\"Action\":\"DELETE\"}}"));
    Map<String, AttributeValue> before =
        item(
            "{\"pk\":{\"S\":\"k\"},\"n\":{\"N\":\"1\"},\"l\":{\"L\":[{\"N\":\"1\"}]},\"ss\":{\"SS\":[\"a\",\"b\"]},\"s\":{\"S\":\"s\"}}");
    assertThat(json(u.apply(before, KEY).item()))
        .isEqualTo(
            "{\"pk\":{\"S\":\"k\"},\"n\":{\"N\":\"3\"},\"l\":{\"L\":[{\"N\":\"1\"},{\"N\":\"9\"}]},"
                + "\"ss\":{\"SS\":[\"b\"]},\"a\":{\"S\":\"x\"}}");
    assertThatThrownBy(
            () ->
                LegacyParameters.attributeUpdates(tree("{\"pk\":{\"Value\":{\"S\":\"x\"}}}"))
                    .apply(null, KEY))
        .hasMessage(
            "One or more parameter values were invalid: Cannot update attribute pk. This attribute"
                + " is part of the key");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"a\":{\"Action\":\"PUT\"}} | One or more parameter values were invalid: Only DELETE action is allowed when no attribute value is specified",
        "{\"a\":{\"Action\":\"DELETE\",\"Value\":{\"N\":\"1\"}}} | One or more parameter values were invalid: DELETE action with value is not supported for the type N",
        "{\"a\":{\"Action\":\"ADD\",\"Value\":{\"S\":\"x\"}}} | One or more parameter values were invalid: ADD action is not supported for the type S",
        "{\"a\":{\"Action\":\"MERGE\",\"Value\":{\"S\":\"x\"}}} | 1 validation error detected: Value 'MERGE' at 'attributeUpdates.a.member.action' failed to satisfy constraint: Member must satisfy enum value set: [ADD, PUT, DELETE]",
      })
  void attributeUpdatesAreRefusedAsDynamoDbRefusesThem(String updates, String message) {
    assertThatThrownBy(() -> LegacyParameters.attributeUpdates(tree(updates))).hasMessage(message);
  }

  @Test
  void attributesToGetBecomeAProjection() {
    Projection p = LegacyParameters.attributesToGet(tree("[\"n\",\"s\",\"gone\"]"));
    assertThat(json(p.apply(item(ITEM))))
        .isEqualTo("{\"n\":{\"N\":\"5\"},\"s\":{\"S\":\"hello\"}}");
    assertThatThrownBy(() -> LegacyParameters.attributesToGet(tree("[\"a\",\"a\"]")))
        .hasMessage(
            "One or more parameter values were invalid: Duplicate value in attribute name: a");
    assertThatThrownBy(() -> LegacyParameters.attributesToGet(tree("[]")))
        .hasMessageContaining("Member must have length greater than or equal to 1");
  }

  @SuppressWarnings("unchecked")
  private static void check(Operation operation, String request) {
    LegacyParameters.checkParameters(operation, (Map<String, Object>) tree(request));
  }

  @Test
  void expressionAndLegacyParametersDoNotMix() {
    assertThatThrownBy(
            () ->
                check(
                    Operation.GET_ITEM,
                    "{\"AttributesToGet\":[\"a\"],\"ProjectionExpression\":\"a\"}"))
        .hasMessage(
            "Can not use both expression and non-expression parameters in the same request:"
                + " Non-expression parameters: {AttributesToGet} Expression parameters:"
                + " {ProjectionExpression}");
    assertThatThrownBy(
            () ->
                check(
                    Operation.QUERY,
                    "{\"KeyConditionExpression\":\"pk = :v\",\"KeyConditions\":{},\"QueryFilter\":{}}"))
        .hasMessage(
            "Can not use both expression and non-expression parameters in the same request:"
                + " Non-expression parameters: {QueryFilter, KeyConditions} Expression parameters:"
                + " {KeyConditionExpression}");
    // KeyConditions may go with a filter expression.
    check(Operation.QUERY, "{\"KeyConditions\":{},\"FilterExpression\":\"a = :v\"}");
    assertThatThrownBy(
            () -> check(Operation.PUT_ITEM, "{\"ExpressionAttributeNames\":{\"#a\":\"a\"}}"))
        .hasMessage("ExpressionAttributeNames can only be specified when using expressions");
    assertThatThrownBy(
            () ->
                check(
                    Operation.UPDATE_ITEM,
                    "{\"ExpressionAttributeValues\":{\":a\":{\"S\":\"a\"}}}"))
        .hasMessage(
            "ExpressionAttributeValues can only be specified when using expressions:"
                + " UpdateExpression and ConditionExpression are null");
    assertThatThrownBy(
            () ->
                check(
                    Operation.SCAN,
                    "{\"ProjectionExpression\":\"a\",\"ExpressionAttributeValues\":{\":a\":{\"S\":\"a\"}}}"))
        .hasMessage(
            "ExpressionAttributeValues can only be specified when using expressions:"
                + " FilterExpression is null");
    check(
        Operation.UPDATE_ITEM,
        "{\"UpdateExpression\":\"SET a = :a\",\"ExpressionAttributeValues\":{}}");
  }
}
