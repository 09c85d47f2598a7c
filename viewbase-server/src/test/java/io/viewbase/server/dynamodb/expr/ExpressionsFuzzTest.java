package io.viewbase.server.dynamodb.expr;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.dynamodb.model.AttributeValue;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * Coverage-guided fuzzing of DynamoDB's expression parser: condition, filter, key condition, update
 * and projection expressions over a fixed set of placeholders. The first byte picks the kind, the
 * rest is the expression. The contract for any text: the parse returns, or throws {@link
 * ViewbaseException} with a client-error code (400 ValidationException on the wire), and so does
 * the check that every placeholder was used; any other exception is a finding. Inputs replay from
 * {@code ExpressionsFuzzTestInputs/}.
 */
class ExpressionsFuzzTest {
  private static final Map<String, String> NAMES = Map.of("#n", "name", "#k", "pk", "#s", "sk");
  private static final Map<String, AttributeValue> VALUES =
      Map.of(
          ":s", new AttributeValue.S("x"),
          ":n", new AttributeValue.N(BigDecimal.ONE),
          ":l", new AttributeValue.L(List.of(new AttributeValue.S("a"))),
          ":m", new AttributeValue.M(Map.of("a", new AttributeValue.N(BigDecimal.TEN))),
          ":b", new AttributeValue.B(new byte[] {1, 2}));

  @DictionaryEntries({
    "#n",
    "#k",
    "#s",
    ":s",
    ":n",
    ":l",
    ":m",
    ":b",
    " AND ",
    " OR ",
    "NOT ",
    " BETWEEN ",
    " IN ",
    "(",
    ")",
    "[",
    "]",
    ".",
    ",",
    "=",
    "<>",
    "<",
    "<=",
    ">",
    ">=",
    "attribute_exists(",
    "attribute_not_exists(",
    "attribute_type(",
    "begins_with(",
    "contains(",
    "size(",
    "SET ",
    "REMOVE ",
    "ADD ",
    "DELETE ",
    "if_not_exists(",
    "list_append(",
    " + ",
    " - ",
    "pk",
    "sk"
  })
  @FuzzTest(maxDuration = "3s")
  void parseReturnsOrFailsWithAClientError(FuzzedDataProvider data) {
    int kind = data.consumeInt(0, 4);
    String text = data.consumeRemainingAsString();
    Placeholders placeholders = new Placeholders(NAMES, VALUES);
    try {
      switch (kind) {
        case 0 -> Expressions.parseCondition(text, placeholders);
        case 1 -> Expressions.parseFilter(text, placeholders);
        case 2 -> Expressions.parseKeyCondition(text, placeholders, "pk", "sk");
        case 3 -> Expressions.parseUpdate(text, placeholders);
        default -> Expressions.parseProjection(text, placeholders);
      }
      placeholders.checkAllUsed();
    } catch (ViewbaseException e) {
      assertThat(e.code().isClientError()).as("%s is a client error", e.code()).isTrue();
      assertThat(e.getMessage()).isNotBlank();
    }
  }
}
