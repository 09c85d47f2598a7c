package io.viewbase.server.dynamodb.expr;

import static io.viewbase.server.dynamodb.expr.Items.item;
import static io.viewbase.server.dynamodb.expr.Items.json;
import static io.viewbase.server.dynamodb.expr.Items.placeholders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.server.dynamodb.model.AttributeValue;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UpdateExpressionTest {
  private static final String VALUES =
      "{\":one\":{\"N\":\"1\"},\":two\":{\"N\":\"2\"},\":s\":{\"S\":\"s\"},"
          + "\":l\":{\"L\":[{\"N\":\"9\"}]},\":ssab\":{\"SS\":[\"a\",\"b\"]},"
          + "\":ssbc\":{\"SS\":[\"b\",\"c\"]},\":ssa\":{\"SS\":[\"a\"]},\":ns\":{\"NS\":[\"1\"]},"
          + "\":m\":{\"M\":{}},\":big\":{\"N\":\"1e50\"},\":max\":{\"N\":\"9e125\"},"
          + "\":v1\":{\"S\":\"a1\"},\":v2\":{\"S\":\"a2\"},\":v3\":{\"S\":\"a3\"}}";
  private static final Map<String, AttributeValue> KEY = item("{\"pk\":{\"S\":\"k\"}}");

  private static Update.Result apply(String expression, String before) {
    Update update =
        Expressions.parseUpdate(expression, placeholders("{\"#k\":\"pk\",\"#a\":\"a\"}", VALUES));
    return update.apply(before == null ? null : item(before), KEY);
  }

  @ParameterizedTest(name = "{0} on {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "SET a = :one | {\"pk\":{\"S\":\"k\"}} | {\"pk\":{\"S\":\"k\"},\"a\":{\"N\":\"1\"}}",
        "set a = :one, b = :s | {\"pk\":{\"S\":\"k\"}} | {\"pk\":{\"S\":\"k\"},\"a\":{\"N\":\"1\"},\"b\":{\"S\":\"s\"}}",
        "SET a = a + :one | {\"pk\":{\"S\":\"k\"},\"a\":{\"N\":\"2\"}} | {\"pk\":{\"S\":\"k\"},\"a\":{\"N\":\"3\"}}",
        "SET a = :one - a | {\"pk\":{\"S\":\"k\"},\"a\":{\"N\":\"2\"}} | {\"pk\":{\"S\":\"k\"},\"a\":{\"N\":\"-1\"}}",
        "SET a = (a + :one) | {\"pk\":{\"S\":\"k\"},\"a\":{\"N\":\"2\"}} | {\"pk\":{\"S\":\"k\"},\"a\":{\"N\":\"3\"}}",
        "SET a = if_not_exists(a, :one) | {\"pk\":{\"S\":\"k\"}} | {\"pk\":{\"S\":\"k\"},\"a\":{\"N\":\"1\"}}",
        "SET a = if_not_exists(a, :one) | {\"pk\":{\"S\":\"k\"},\"a\":{\"N\":\"5\"}} | {\"pk\":{\"S\":\"k\"},\"a\":{\"N\":\"5\"}}",
        "SET a = if_not_exists(a, :one) + :two | {\"pk\":{\"S\":\"k\"}} | {\"pk\":{\"S\":\"k\"},\"a\":{\"N\":\"3\"}}",
        "SET a = list_append(a, :l) | {\"pk\":{\"S\":\"k\"},\"a\":{\"L\":[{\"N\":\"1\"}]}} | {\"pk\":{\"S\":\"k\"},\"a\":{\"L\":[{\"N\":\"1\"},{\"N\":\"9\"}]}}",
        "SET a = list_append(:l, a) | {\"pk\":{\"S\":\"k\"},\"a\":{\"L\":[{\"N\":\"1\"}]}} | {\"pk\":{\"S\":\"k\"},\"a\":{\"L\":[{\"N\":\"9\"},{\"N\":\"1\"}]}}",
        "SET a = list_append(if_not_exists(a, :l), :l) | {\"pk\":{\"S\":\"k\"}} | {\"pk\":{\"S\":\"k\"},\"a\":{\"L\":[{\"N\":\"9\"},{\"N\":\"9\"}]}}",
        "SET b = #k | {\"pk\":{\"S\":\"k\"}} | {\"pk\":{\"S\":\"k\"},\"b\":{\"S\":\"k\"}}",
        "SET b = a, a = :one | {\"pk\":{\"S\":\"k\"},\"a\":{\"S\":\"old\"}} | {\"pk\":{\"S\":\"k\"},\"a\":{\"N\":\"1\"},\"b\":{\"S\":\"old\"}}",
        "REMOVE a SET b = a | {\"pk\":{\"S\":\"k\"},\"a\":{\"S\":\"x\"}} | {\"pk\":{\"S\":\"k\"},\"b\":{\"S\":\"x\"}}",
        "SET m.x = :one | {\"pk\":{\"S\":\"k\"},\"m\":{\"M\":{\"y\":{\"N\":\"2\"}}}} | {\"pk\":{\"S\":\"k\"},\"m\":{\"M\":{\"y\":{\"N\":\"2\"},\"x\":{\"N\":\"1\"}}}}",
        "SET l[1] = :s | {\"pk\":{\"S\":\"k\"},\"l\":{\"L\":[{\"N\":\"1\"},{\"N\":\"2\"}]}} | {\"pk\":{\"S\":\"k\"},\"l\":{\"L\":[{\"N\":\"1\"},{\"S\":\"s\"}]}}",
        "SET l[7] = :s | {\"pk\":{\"S\":\"k\"},\"l\":{\"L\":[{\"N\":\"1\"}]}} | {\"pk\":{\"S\":\"k\"},\"l\":{\"L\":[{\"N\":\"1\"},{\"S\":\"s\"}]}}",
        "SET l[84] = :v1, l[37] = :v2, l[50] = :v3 | {\"pk\":{\"S\":\"k\"},\"l\":{\"L\":[]}} | {\"pk\":{\"S\":\"k\"},\"l\":{\"L\":[{\"S\":\"a2\"},{\"S\":\"a3\"},{\"S\":\"a1\"}]}}",
        "REMOVE l[1] SET l[3] = :s | {\"pk\":{\"S\":\"k\"},\"l\":{\"L\":[{\"N\":\"2\"},{\"N\":\"3\"},{\"N\":\"4\"},{\"N\":\"5\"},{\"N\":\"6\"}]}} | {\"pk\":{\"S\":\"k\"},\"l\":{\"L\":[{\"N\":\"2\"},{\"N\":\"4\"},{\"S\":\"s\"},{\"N\":\"6\"}]}}",
        "REMOVE l[0], l[2] | {\"pk\":{\"S\":\"k\"},\"l\":{\"L\":[{\"N\":\"1\"},{\"N\":\"2\"},{\"N\":\"3\"}]}} | {\"pk\":{\"S\":\"k\"},\"l\":{\"L\":[{\"N\":\"2\"}]}}",
        "REMOVE l[9], m.gone, gone | {\"pk\":{\"S\":\"k\"},\"l\":{\"L\":[]},\"m\":{\"M\":{}}} | {\"pk\":{\"S\":\"k\"},\"l\":{\"L\":[]},\"m\":{\"M\":{}}}",
        "REMOVE m.x | {\"pk\":{\"S\":\"k\"},\"m\":{\"M\":{\"x\":{\"N\":\"1\"}}}} | {\"pk\":{\"S\":\"k\"},\"m\":{\"M\":{}}}",
        "ADD n :one | {\"pk\":{\"S\":\"k\"}} | {\"pk\":{\"S\":\"k\"},\"n\":{\"N\":\"1\"}}",
        "ADD n :two | {\"pk\":{\"S\":\"k\"},\"n\":{\"N\":\"1.5\"}} | {\"pk\":{\"S\":\"k\"},\"n\":{\"N\":\"3.5\"}}",
        "ADD s :ssbc | {\"pk\":{\"S\":\"k\"},\"s\":{\"SS\":[\"a\",\"b\"]}} | {\"pk\":{\"S\":\"k\"},\"s\":{\"SS\":[\"a\",\"b\",\"c\"]}}",
        "ADD s :ssab | {\"pk\":{\"S\":\"k\"}} | {\"pk\":{\"S\":\"k\"},\"s\":{\"SS\":[\"a\",\"b\"]}}",
        "DELETE s :ssbc | {\"pk\":{\"S\":\"k\"},\"s\":{\"SS\":[\"a\",\"b\"]}} | {\"pk\":{\"S\":\"k\"},\"s\":{\"SS\":[\"a\"]}}",
        "DELETE s :ssab | {\"pk\":{\"S\":\"k\"},\"s\":{\"SS\":[\"a\",\"b\"]}} | {\"pk\":{\"S\":\"k\"}}",
        "DELETE s :ssab | {\"pk\":{\"S\":\"k\"}} | {\"pk\":{\"S\":\"k\"}}",
        "SET a = :m, b = :s REMOVE c ADD n :one DELETE s :ssa | {\"pk\":{\"S\":\"k\"},\"c\":{\"N\":\"0\"},\"s\":{\"SS\":[\"a\",\"z\"]}} | {\"pk\":{\"S\":\"k\"},\"s\":{\"SS\":[\"z\"]},\"a\":{\"M\":{}},\"b\":{\"S\":\"s\"},\"n\":{\"N\":\"1\"}}",
      })
  void updatesApplyAsDynamoDbAppliesThem(String expression, String before, String after) {
    assertThat(json(apply(expression, before).item())).isEqualTo(after);
  }

  @Test
  void anAbsentItemStartsFromItsKey() {
    assertThat(json(apply("SET a = :one, b = #k", null).item()))
        .isEqualTo("{\"pk\":{\"S\":\"k\"},\"a\":{\"N\":\"1\"},\"b\":{\"S\":\"k\"}}");
    // REMOVE below a missing attribute is no error for an item that does not exist yet.
    assertThat(json(apply("REMOVE x.y", null).item())).isEqualTo("{\"pk\":{\"S\":\"k\"}}");
  }

  @Test
  void theResultNamesWhatWasWrittenForReturnValues() {
    Map<String, AttributeValue> before =
        item(
            "{\"pk\":{\"S\":\"k\"},\"a\":{\"N\":\"1\"},\"m\":{\"M\":{\"x\":{\"N\":\"1\"},\"y\":{\"N\":\"2\"}}},\"c\":{\"S\":\"c\"}}");
    Update.Result r =
        Expressions.parseUpdate(
                "SET a = a + :one, m.x = :two REMOVE c ADD n :one",
                placeholders(null, "{\":one\":{\"N\":\"1\"},\":two\":{\"N\":\"2\"}}"))
            .apply(before, KEY);
    assertThat(r.updatedAttributes()).containsExactly("a", "m", "c", "n");
    assertThat(json(r.updatedOld(before)))
        .isEqualTo("{\"a\":{\"N\":\"1\"},\"m\":{\"M\":{\"x\":{\"N\":\"1\"}}},\"c\":{\"S\":\"c\"}}");
    assertThat(json(r.updatedNew()))
        .isEqualTo("{\"a\":{\"N\":\"2\"},\"m\":{\"M\":{\"x\":{\"N\":\"2\"}}},\"n\":{\"N\":\"1\"}}");
  }

  @ParameterizedTest(name = "{0} on {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "SET pk = :one | {} | One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key",
        "REMOVE #k.x | {} | One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key",
        "SET a = gone | {} | The provided expression refers to an attribute that does not exist in the item",
        "SET a = gone + :one | {} | The provided expression refers to an attribute that does not exist in the item",
        "SET a = b + :one | {\"b\":{\"S\":\"x\"}} | An operand in the update expression has an incorrect data type",
        "SET a = list_append(b, :l) | {\"b\":{\"S\":\"x\"}} | An operand in the update expression has an incorrect data type",
        "ADD b :one | {\"b\":{\"S\":\"x\"}} | An operand in the update expression has an incorrect data type",
        "ADD b :ns | {\"b\":{\"SS\":[\"x\"]}} | An operand in the update expression has an incorrect data type",
        "ADD b :l | {} | Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: LIST",
        "DELETE b :ns | {\"b\":{\"SS\":[\"x\"]}} | An operand in the update expression has an incorrect data type",
        "SET a.b = :one | {\"a\":{\"S\":\"x\"}} | The document path provided in the update expression is invalid for update",
        "SET c.c = :one | {} | The document path provided in the update expression is invalid for update",
        "SET a[0] = :one | {\"a\":{\"S\":\"x\"}} | The document path provided in the update expression is invalid for update",
        "SET a[1].b = :one | {\"a\":{\"L\":[]}} | The document path provided in the update expression is invalid for update",
        "REMOVE a.c | {\"a\":{\"S\":\"x\"}} | The document path provided in the update expression is invalid for update",
        "REMOVE c.c | {} | The document path provided in the update expression is invalid for update",
        "SET a = :big + :one | {} | Number overflow. Attempting to store a number with magnitude larger than supported range",
        "SET a = :max + :max | {} | Number overflow. Attempting to store a number with magnitude larger than supported range",
      })
  void applyRefusesWithDynamoDbsMessages(String expression, String before, String message) {
    Map<String, AttributeValue> current = item(before);
    current.putAll(KEY);
    assertThatThrownBy(
            () ->
                Expressions.parseUpdate(expression, placeholders("{\"#k\":\"pk\"}", VALUES))
                    .apply(current, KEY))
        .hasMessage(message);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "SET a = :one SET b = :two | The \"SET\" section can only be used once in an update expression;",
        "SET a = :one REMOVE b SET c = :two | The \"SET\" section can only be used once in an update expression;",
        "SET a = :one REMOVE a | Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a]",
        "SET a = :one, a.b = :two | Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a, b]",
        "SET a[1][1] = :one, a[1] = :two | Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a, [1], [1]], path two: [a, [1]]",
        "SET a.b = :one, a[1] = :two | Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [a, b], path two: [a, [1]]",
        "SET a = f(b) | Invalid function name; function: f",
        "SET a = size(b) | Invalid function name; function: size",
        "SET a = list_append(:one) | Incorrect number of operands for operator or function; operator or function: list_append, number of operands: 1",
        "SET a = list_append(:l, :s) | Incorrect operand type for operator or function; operator or function: list_append, operand type: S",
        "SET a = list_append(list_append(:l, :l), :l) | The function is not allowed to be used this way in an expression; function: list_append",
        "SET a = if_not_exists(:one, :two) | Operator or function requires a document path; operator or function: if_not_exists",
        "SET a = :s + :one | Incorrect operand type for operator or function; operator or function: +, operand type: S",
        "ADD a :s | Incorrect operand type for operator or function; operator: ADD, operand type: STRING",
        "DELETE a :one | Incorrect operand type for operator or function; operator: DELETE, operand type: NUMBER",
        "SET name = :one | Attribute name is a reserved keyword; reserved keyword: name",
        "SET a = :nope | An expression attribute value used in expression is not defined; attribute value: :nope",
        "SET #nope = :one | An expression attribute name used in the document path is not defined; attribute name: #nope",
        "SET | Syntax error; token: \"<EOF>\", near: \"SET\"",
        "SET a | Syntax error; token: \"<EOF>\", near: \"a\"",
        "SET a = | Syntax error; token: \"<EOF>\", near: \"=\"",
        "SET a = :one + | Syntax error; token: \"<EOF>\", near: \"+\"",
        "SET a = :one + :two + :one | Syntax error; token: \"+\", near: \":two + :one\"",
        "SET a = if_not_exists(a, :one + :two) | Syntax error; token: \"+\", near: \":one + :two\"",
        "SET :one = :two | Syntax error; token: \":one\", near: \"SET :one =\"",
        "SET _a = :one | Syntax error; token: \"_\", near: \"SET _a\"",
        "SET a[:one] = :two | Syntax error; token: \":one\", near: \"[:one]\"",
        "HELLO a = :one | Syntax error; token: \"HELLO\", near: \"HELLO a\"",
        "ADD a b | Syntax error; token: \"b\", near: \"a b\"",
        "REMOVE a = :one | Syntax error; token: \"=\", near: \"a = :one\"",
        "SET a = :one, | Syntax error; token: \"<EOF>\", near: \",\"",
        "SET a = :one / :two | Syntax error; token: \"/\", near: \":one / :two\"",
      })
  void parseRefusesWithDynamoDbsMessages(String expression, String message) {
    assertThatThrownBy(() -> Expressions.parseUpdate(expression, placeholders(null, VALUES)))
        .hasMessage("Invalid UpdateExpression: " + message);
  }

  @Test
  void updatesThatNestTooDeepAreRefused() {
    StringBuilder deep = new StringBuilder("{\":v\":");
    for (int i = 0; i < 31; i++) {
      deep.append("{\"M\":{\"n\":");
    }
    deep.append("{\"S\":\"x\"}").append("}}".repeat(31)).append('}');
    Placeholders p = placeholders(null, deep.toString());
    Update update = Expressions.parseUpdate("SET a = :v", p);
    update.apply(null, KEY);
    Update deeper = Expressions.parseUpdate("SET m.x = :v", placeholders(null, deep.toString()));
    assertThatThrownBy(() -> deeper.apply(item("{\"pk\":{\"S\":\"k\"},\"m\":{\"M\":{}}}"), KEY))
        .hasMessageStartingWith("Nesting Levels have exceeded supported limits");
  }
}
