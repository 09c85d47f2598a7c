package io.viewbase.server.dynamodb.expr;

import static io.viewbase.server.dynamodb.expr.Items.placeholders;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PlaceholdersTest {

  @ParameterizedTest(name = "{0} / {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "{} | | ExpressionAttributeNames must not be empty",
        " | {} | ExpressionAttributeValues must not be empty",
        "{\"a\":\"a\"} | | ExpressionAttributeNames contains invalid key: Syntax error; key: \"a\"",
        "{\"#a-b\":\"a\"} | | ExpressionAttributeNames contains invalid key: Syntax error; key: \"#a-b\"",
        "{\"#\":\"a\"} | | ExpressionAttributeNames contains invalid key: Syntax error; key: \"#\"",
        " | {\"v\":{\"S\":\"a\"}} | ExpressionAttributeValues contains invalid key: Syntax error; key: \"v\"",
        " | {\":v\":{\"SS\":[]}} | ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: An string set  may not be empty for key :v",
        " | {\":v\":{}} | ExpressionAttributeValues contains invalid value: Supplied AttributeValue is empty, must contain exactly one of the supported datatypes for key :v",
      })
  void placeholderMapsAreCheckedAsDynamoDbChecksThem(String names, String values, String message) {
    assertThatThrownBy(() -> placeholders(names, values))
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e -> Assertions.assertThat(e.code()).isEqualTo(ErrorCode.InvalidInput))
        .hasMessage(message);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {"{\"#a\":1} | ", " | {\":v\":{\"S\":1}}", "[] | "})
  void placeholderMapsOfTheWrongShapeAreSerializationErrors(String names, String values) {
    assertThatThrownBy(() -> placeholders(names, values))
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e -> Assertions.assertThat(e.code()).isEqualTo(ErrorCode.InvalidJson));
  }
}
