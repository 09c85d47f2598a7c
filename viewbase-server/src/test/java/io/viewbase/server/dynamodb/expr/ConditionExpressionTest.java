package io.viewbase.server.dynamodb.expr;

import static io.viewbase.server.dynamodb.expr.Items.item;
import static io.viewbase.server.dynamodb.expr.Items.placeholders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConditionExpressionTest {
  private static final String ITEM =
      "{\"pk\":{\"S\":\"k\"},\"n\":{\"N\":\"5\"},\"s\":{\"S\":\"hello\"},\"b\":{\"B\":\"AQID\"},"
          + "\"t\":{\"BOOL\":true},\"z\":{\"NULL\":true},\"ss\":{\"SS\":[\"x\",\"y\"]},"
          + "\"ns\":{\"NS\":[\"1\",\"2\"]},\"l\":{\"L\":[{\"N\":\"1\"},{\"S\":\"two\"},"
          + "{\"M\":{\"deep\":{\"S\":\"v\"}}}]},\"m\":{\"M\":{\"a\":{\"M\":{\"b\":{\"N\":\"7\"}}},"
          + "\"dot.ted\":{\"S\":\"d\"}}},\"size\":{\"N\":\"1\"}}";

  private static final String VALUES =
      "{\":five\":{\"N\":\"5.0\"},\":six\":{\"N\":\"6\"},\":one\":{\"N\":\"1\"},"
          + "\":two\":{\"N\":\"2\"},\":seven\":{\"N\":\"7\"},\":hello\":{\"S\":\"hello\"},"
          + "\":he\":{\"S\":\"he\"},\":ell\":{\"S\":\"ell\"},\":x\":{\"S\":\"x\"},"
          + "\":fivestr\":{\"S\":\"5\"},\":b1\":{\"B\":\"AQ==\"},\":b2\":{\"B\":\"Ag==\"},"
          + "\":ssyx\":{\"SS\":[\"y\",\"x\"]},\":tS\":{\"S\":\"S\"},\":tSS\":{\"S\":\"SS\"},"
          + "\":tN\":{\"S\":\"N\"},\":true\":{\"BOOL\":true},\":null\":{\"NULL\":true},"
          + "\":two_s\":{\"S\":\"two\"},\":v\":{\"S\":\"v\"},\":deep\":{\"M\":{\"deep\":{\"S\":\"v\"}}},"
          + "\":d\":{\"S\":\"d\"},\":three\":{\"N\":\"3\"}}";

  private static final String NAMES = "{\"#m\":\"m\",\"#dot\":\"dot.ted\",\"#size\":\"size\"}";

  private static boolean test(String expression) {
    return Expressions.parseCondition(expression, placeholders(NAMES, VALUES)).test(item(ITEM));
  }

  @ParameterizedTest(name = "{0} is {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "n = :five | true",
        "n = :six | false",
        "n = :fivestr | false",
        "n <> :fivestr | true",
        "n <> :five | false",
        "gone = :five | false",
        "gone <> :five | true",
        "n < :six | true",
        "n <= :five | true",
        "n > :six | false",
        "n >= :five | true",
        ":six > n | true",
        "s < :x | true",
        "s > :he | true",
        "n < :fivestr | false",
        "n > :fivestr | false",
        "t < :true | false",
        "b > :b1 | true",
        "b < :b2 | true",
        "ss = :ssyx | true",
        "n BETWEEN :one AND :six | true",
        "n BETWEEN :six AND :seven | false",
        "s BETWEEN :he AND :x | true",
        "n IN (:one, :two, :five) | true",
        "n IN (:one, :two) | false",
        "gone IN (:one) | false",
        "attribute_exists(n) | true",
        "attribute_exists(gone) | false",
        "attribute_not_exists(gone) | true",
        "attribute_exists(m.a.b) | true",
        "attribute_exists(m.a.c) | false",
        "attribute_exists(l[2].deep) | true",
        "attribute_exists(l[3]) | false",
        "attribute_exists(s[0]) | false",
        "attribute_exists(#m.#dot) | true",
        "attribute_exists(#dot) | false",
        "#m.#dot = :d | true",
        "attribute_type(ss, :tSS) | true",
        "attribute_type(n, :tN) | true",
        "attribute_type(n, :tS) | false",
        "attribute_type(gone, :tS) | false",
        "begins_with(s, :he) | true",
        "begins_with(s, :ell) | false",
        "begins_with(b, :b1) | true",
        "begins_with(b, :b2) | false",
        "contains(s, :ell) | true",
        "contains(s, :x) | false",
        "contains(ss, :x) | true",
        "contains(ns, :two) | true",
        "contains(ns, :x) | false",
        "contains(l, :two_s) | true",
        "contains(l, :one) | true",
        "contains(l, :deep) | true",
        "contains(l, :v) | false",
        "contains(b, :b2) | true",
        "contains(n, :five) | false",
        "size(s) = :five | true",
        "size(ss) = :two | true",
        "size(l) = :three | true",
        "size(m) = :two | true",
        "size(b) = :three | true",
        "size(n) = :one | false",
        "size(gone) = :one | false",
        "size(s) > :one | true",
        "#size = :one | true",
        "NOT n = :five | false",
        "NOT (n = :five) | false",
        "n = :five AND s = :hello | true",
        "n = :six OR s = :hello | true",
        "n = :six OR s = :x AND n = :five | false",
        "(n = :six OR s = :hello) AND n = :five | true",
        "NOT n = :six AND NOT s = :x | true",
        "n = :six OR NOT s = :x | true",
        "(n) = :five | true",
        "((n = :five) AND (s = :hello)) | true",
        "n=:five | true",
        "n = :five and s = :hello | true",
        "n = :five oR s = :x | true",
        "z = :null | true",
        "t = :true | true",
      })
  void conditionsEvaluateAsDynamoDbDefinesThem(String expression, boolean expected) {
    assertThat(test(expression)).isEqualTo(expected);
  }

  @Test
  void whitespaceOfAnyKindSeparatesTokens() {
    assertThat(test(" \tn\r\n=\n:five  ")).isTrue();
  }

  @Test
  void anAbsentItemIsEmpty() {
    Condition c = Expressions.parseCondition("attribute_not_exists(pk)", Placeholders.none());
    assertThat(c.test(java.util.Map.of())).isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "n = | Syntax error; token: \"<EOF>\", near: \"=\"",
        "n = = :five | Syntax error; token: \"=\", near: \"= = :five\"",
        "n | Syntax error; token: \"<EOF>\", near: \"n\"",
        "n :five | Syntax error; token: \":five\", near: \"n :five\"",
        "n == :five | Syntax error; token: \"=\", near: \"== :five\"",
        "_n = :five | Syntax error; token: \"_\", near: \"_n\"",
        "a-b = :five | Syntax error; token: \"-\", near: \"a-b\"",
        "n = :five AND | Syntax error; token: \"<EOF>\", near: \"AND\"",
        "(n = :five | Syntax error; token: \"<EOF>\", near: \":five\"",
        "n = :five) | Syntax error; token: \")\", near: \":five)\"",
        "n BETWEEN :one | Syntax error; token: \"<EOF>\", near: \":one\"",
        "n IN :one | Syntax error; token: \":one\", near: \"IN :one\"",
        "n IN () | Syntax error; token: \")\", near: \"()\"",
        "a[x] = :five | Syntax error; token: \"x\", near: \"[x]\"",
        "a[-1] = :five | Syntax error; token: \"-\", near: \"[-1\"",
        "a. = :five | Syntax error; token: \"=\", near: \". = :five\"",
        "(n = :five) = :six | Syntax error; token: \"=\", near: \") = :six\"",
        "n = :five s = :hello | Syntax error; token: \"s\", near: \":five s =\"",
        "AND = :five | Syntax error; token: \"AND\", near: \"AND =\"",
        "n @ :five | Syntax error; token: \"@\", near: \"n @ :five\"",
        "# = :five | Syntax error; token: \"#\", near: \"# =\"",
      })
  void syntaxErrorsNameTheTokenAndWhatIsNearIt(String expression, String message) {
    assertThatThrownBy(() -> test(expression))
        .isInstanceOfSatisfying(
            ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.InvalidInput))
        .hasMessage("Invalid ConditionExpression: " + message);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "foo(n) | Invalid function name; function: foo",
        "Size(n) = :one | Invalid function name; function: Size",
        "size(n) | The function is not allowed to be used this way in an expression; function: size",
        "attribute_exists(n) = :one | The function is not allowed to be used this way in an expression; function: attribute_exists",
        "contains(attribute_exists(n), :x) | The function is not allowed to be used this way in an expression; function: attribute_exists",
        "attribute_exists(n, s) | Incorrect number of operands for operator or function; operator or function: attribute_exists, number of operands: 2",
        "size(n, s) = :one | Incorrect number of operands for operator or function; operator or function: size, number of operands: 2",
        "attribute_exists(:one) | Operator or function requires a document path; operator or function: attribute_exists",
        "attribute_type(n, :one) | Incorrect operand type for operator or function; operator or function: attribute_type, operand type: N",
        "attribute_type(n, :hello) | Invalid attribute type name found; type: hello, valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}",
        "begins_with(n, :one) | Incorrect operand type for operator or function; operator or function: begins_with, operand type: N",
        "size(:one) = :one | Incorrect operand type for operator or function; operator or function: size, operand type: N",
        "n = n | The first operand must be distinct from the remaining operands for this operator or function; operator: =, first operand: [n]",
        "contains(m.a, m.a) | The first operand must be distinct from the remaining operands for this operator or function; operator: contains, first operand: [m, a]",
        "n BETWEEN :six AND :one | The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {N:6}, upper bound operand: AttributeValue: {N:1}",
        "n BETWEEN :one AND :x | The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: AttributeValue: {N:1}, upper bound operand: AttributeValue: {S:x}",
        "((n = :one)) | The expression has redundant parentheses;",
        "((n)) = :one | The expression has redundant parentheses;",
        "name = :one | Attribute name is a reserved keyword; reserved keyword: name",
        "m.Size = :one | Attribute name is a reserved keyword; reserved keyword: Size",
        "#nope = :one | An expression attribute name used in the document path is not defined; attribute name: #nope",
        "n = :nope | An expression attribute value used in expression is not defined; attribute value: :nope",
        "foo(name) | Invalid function name; function: foo",
        "name = :nope | Attribute name is a reserved keyword; reserved keyword: name",
        "((n = :nope)) | The expression has redundant parentheses;",
      })
  void meaningErrorsAreReportedMostImportantFirst(String expression, String message) {
    assertThatThrownBy(() -> test(expression))
        .hasMessage("Invalid ConditionExpression: " + message);
  }

  @Test
  void filterExpressionErrorsNameTheirParameter() {
    assertThatThrownBy(() -> Expressions.parseFilter("n =", Placeholders.none()))
        .hasMessage("Invalid FilterExpression: Syntax error; token: \"<EOF>\", near: \"=\"");
    assertThatThrownBy(() -> Expressions.parseFilter(" ", Placeholders.none()))
        .hasMessage("Invalid FilterExpression: The expression can not be empty;");
  }

  @Test
  void expressionsAreBoundedAsDynamoDbBoundsThem() {
    String big = "a" + "0".repeat(4096) + " = :v";
    assertThatThrownBy(() -> Expressions.parseFilter(big, Placeholders.none()))
        .hasMessage(
            "Invalid FilterExpression: Expression size has exceeded the maximum allowed size;"
                + " expression size: "
                + big.length());
    String within = "a = :v" + " OR a = :v".repeat(149);
    Placeholders v = placeholders(null, "{\":v\":{\"N\":\"1\"}}");
    Expressions.parseFilter(within, v);
    String beyond = within + " OR a = :v";
    assertThatThrownBy(() -> Expressions.parseFilter(beyond, v))
        .hasMessage(
            "Invalid FilterExpression: The expression contains too many operators; operator"
                + " count: 301");
    String in100 = "a IN (" + ":v, ".repeat(99) + ":v)";
    Expressions.parseFilter(in100, v);
    String in101 = "a IN (" + ":v, ".repeat(100) + ":v)";
    assertThatThrownBy(() -> Expressions.parseFilter(in101, v))
        .hasMessage(
            "Invalid FilterExpression: The IN operator is provided with too many operands; number"
                + " of operands: 101");
    String deep = "(".repeat(2000) + "a = :v" + ")".repeat(2000);
    assertThatThrownBy(() -> Expressions.parseFilter(deep, v))
        .hasMessage(
            "Invalid FilterExpression: The expression is nested too deeply; the maximum is 100"
                + " levels");
    String nested = "(a = :v AND ".repeat(100) + "a = :v" + ")".repeat(100);
    Expressions.parseFilter(nested, v);
    assertThatThrownBy(() -> Expressions.parseFilter("(a = :v AND " + nested + ")", v))
        .hasMessageContaining("nested too deeply");
    String nots = "NOT ".repeat(400) + "a = :v";
    assertThatThrownBy(() -> Expressions.parseFilter(nots, v))
        .hasMessageContaining("nested too deeply");
  }

  @Test
  void placeholdersAreMarkedUsedAcrossExpressions() {
    Placeholders p =
        placeholders("{\"#a\":\"a\",\"#b\":\"b\"}", "{\":x\":{\"N\":\"1\"},\":y\":{\"N\":\"2\"}}");
    Expressions.parseFilter("#a = :x", p);
    assertThatThrownBy(p::checkAllUsed)
        .hasMessage("Value provided in ExpressionAttributeNames unused in expressions: keys: {#b}");
    Expressions.parseProjection("#b", p);
    assertThatThrownBy(p::checkAllUsed)
        .hasMessage(
            "Value provided in ExpressionAttributeValues unused in expressions: keys: {:y}");
    Expressions.parseCondition("attribute_exists(a) OR a = :y", p);
    p.checkAllUsed();
    assertThat(p.usedNames()).containsExactly("#a", "#b");
    assertThat(p.usedValues()).containsExactly(":x", ":y");
  }

  @Test
  void attributesAreTheTopLevelNamesReadInTheirOrder() {
    Condition c =
        Expressions.parseCondition(
            "#m.a.b = :seven AND (size(l[2].deep) > :one OR NOT attribute_exists(#dot))"
                + " AND n BETWEEN :one AND :six AND s IN (:hello, :x) AND contains(ss, :x)"
                + " AND begins_with(s, :he) AND attribute_type(z, :tN) AND m.a <> :five",
            placeholders(NAMES, VALUES));
    assertThat(c.attributes()).containsExactly("m", "l", "dot.ted", "n", "s", "ss", "z");
  }
}
