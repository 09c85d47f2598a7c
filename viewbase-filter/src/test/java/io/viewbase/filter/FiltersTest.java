package io.viewbase.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The public surface of {@link Filters} beyond the data-file cases: limits, helpers, node
 * validation.
 */
class FiltersTest {

  @Test
  void parseWhenParenthesesNestDeeperThanTheLimitFailsWithInvalidFilterNotStackOverflow() {
    String deep = "(".repeat(10_000) + "a";
    assertInvalid(deep, "nested deeper than " + Filters.MAX_DEPTH, Filters.MAX_DEPTH);
  }

  @Test
  void parseWhenNotNestsDeeperThanTheLimitFailsWithInvalidFilter() {
    String deep = "not ".repeat(Filters.MAX_DEPTH + 1) + "a";
    assertInvalid(deep, "nested deeper than " + Filters.MAX_DEPTH, 4 * Filters.MAX_DEPTH);
  }

  @Test
  void parseAtExactlyTheDepthLimitSucceeds() {
    String text = "(".repeat(Filters.MAX_DEPTH) + "a eq 1" + ")".repeat(Filters.MAX_DEPTH);
    assertThat(Filters.parse(text)).isEqualTo(Filters.parse("a eq 1"));
  }

  @Test
  void parseWhenTextIsLongerThanTheLimitFailsWithInvalidFilter() {
    String text = "a eq '" + "x".repeat(Filters.MAX_LENGTH) + "'";
    assertInvalid(
        text, "filter longer than " + Filters.MAX_LENGTH + " characters", Filters.MAX_LENGTH);
  }

  @Test
  void parseWhenConditionsExceedTheLimitFailsAtTheFirstConditionTooMany() {
    String text = "a eq 1 or ".repeat(Filters.MAX_CONDITIONS) + "a eq 1";
    assertInvalid(
        text, "more than " + Filters.MAX_CONDITIONS + " conditions", 10 * Filters.MAX_CONDITIONS);
  }

  @Test
  void matchesOnTheLongestChainAllowedEvaluatesAndPrints() {
    String text = "a eq 1 or ".repeat(Filters.MAX_CONDITIONS - 1) + "a eq 2";
    Filter filter = Filters.parse(text);
    assertThat(Filters.matches(filter, "p", "i", null, Map.of("a", Value.of(2)))).isTrue();
    assertThat(Filters.matches(filter, "p", "i", null, Map.of("a", Value.of(3)))).isFalse();
    assertThat(Filters.print(filter)).isEqualTo(text);
  }

  /** Found by EntityFilterFuzzTest: an Arabic-Indic digit got past the check into HexFormat. */
  @Test
  void parseWhenABinaryLiteralHoldsANonAsciiDigitFailsWithInvalidFilter() {
    assertInvalid("G eq X'0\u06F0'", "malformed X literal", 7);
    assertInvalid("G eq binary'\u0660\u0661'", "malformed binary literal", 12);
  }

  @Test
  void parseOfNullFailsWithInvalidFilter() {
    assertThatThrownBy(() -> Filters.parse(null))
        .isInstanceOfSatisfying(
            ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.InvalidFilter));
  }

  @Test
  void parseErrorCarriesPositionExpectedAndFoundAsContext() {
    assertThatThrownBy(() -> Filters.parse("(Age eq 30 and Name eq 'x'"))
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e -> {
              assertThat(e.code().httpStatus()).isEqualTo(400);
              assertThat(e.getMessage()).isEqualTo("expected ')' at 26, found end of filter");
              assertThat(e.context())
                  .containsEntry("position", 26)
                  .containsEntry("expected", "')'")
                  .containsEntry("found", "end of filter");
            });
  }

  @Test
  void systemRecognisesAzureAndNativeNamesCaseSensitively() {
    assertThat(Filters.system("PartitionKey")).contains(SystemProperty.PARTITION_KEY);
    assertThat(Filters.system("partitionKey")).contains(SystemProperty.PARTITION_KEY);
    assertThat(Filters.system("RowKey")).contains(SystemProperty.ID);
    assertThat(Filters.system("id")).contains(SystemProperty.ID);
    assertThat(Filters.system("Timestamp")).contains(SystemProperty.TIMESTAMP);
    assertThat(Filters.system("_timestamp")).contains(SystemProperty.TIMESTAMP);
    assertThat(Filters.system("rowKey")).isEmpty();
    assertThat(Filters.system("ID")).isEmpty();
    assertThat(Filters.system(null)).isEmpty();
  }

  @Test
  void propertiesListsNamesAsWrittenInOrderOfFirstUse() {
    Filter filter =
        Filters.parse(
            "RowKey ge 'a' and (Age gt 3 or not IsActive) and Age lt 9 and id eq 'x' or true");
    assertThat(Filters.properties(filter)).containsExactly("RowKey", "Age", "IsActive", "id");
  }

  @Test
  void literalOnTheLeftIsNormalisedWithTheOperatorFlipped() {
    assertThat(Filters.parse("3 lt Age"))
        .isEqualTo(new Filter.Compare("Age", Filter.Op.GT, Value.of(3)));
    assertThat(Filters.parse("'k' ge RowKey"))
        .isEqualTo(new Filter.Compare("RowKey", Filter.Op.LE, Value.of("k")));
  }

  @Test
  void opFlippedAndNegatedAreInvolutions() {
    for (Filter.Op op : Filter.Op.values()) {
      assertThat(op.flipped().flipped()).isEqualTo(op);
      assertThat(op.negated().negated()).isEqualTo(op);
      assertThat(Filters.parse("a " + op.keyword() + " 1"))
          .isEqualTo(new Filter.Compare("a", op, Value.of(1)));
    }
  }

  @Test
  void compareWhenPropertyCannotBeWrittenIsRejected() {
    assertThatThrownBy(() -> new Filter.Compare("and", Filter.Op.EQ, Value.of(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Filter.Compare("first-name", Filter.Op.EQ, Value.of(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Filter.BoolProperty(""))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Filter.BoolProperty(null))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void compareWhenLiteralHasNoTextFormIsRejected() {
    assertThatThrownBy(() -> new Filter.Compare("a", Filter.Op.EQ, Value.nullValue()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Filter.Compare("a", Filter.Op.EQ, new Value.Obj(Map.of())))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> new Filter.Compare("a", Filter.Op.EQ, new Value.DateTime(Literals.MAX_TICKS + 1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Filter.Compare("a", Filter.Op.EQ, null))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void matchesReadsSystemNamesFromTheItemNotFromProperties() {
    Filter filter =
        Filters.parse(
            "PartitionKey eq 'p' and id eq 'i' and _timestamp eq datetime'2020-01-01T00:00:00Z'");
    Map<String, Value> properties = new HashMap<>();
    properties.put("PartitionKey", Value.of("other"));
    assertThat(Filters.matches(filter, "p", "i", Instant.parse("2020-01-01T00:00:00Z"), properties))
        .isTrue();
    assertThat(
            Filters.matches(
                filter, "other", "i", Instant.parse("2020-01-01T00:00:00Z"), properties))
        .isFalse();
  }

  @Test
  void matchesWithNullPropertiesTreatsEveryUserPropertyAsMissing() {
    assertThat(Filters.matches(Filters.parse("a ne 1"), "p", "i", null, null)).isFalse();
    assertThat(Filters.matches(Filters.parse("not (a eq 1)"), "p", "i", null, null)).isTrue();
  }

  @Test
  void testOnMissingOrNullNeverHolds() {
    for (Filter.Op op : Filter.Op.values()) {
      assertThat(Filters.test(null, op, Value.of(1))).isFalse();
      assertThat(Filters.test(Value.nullValue(), op, Value.of(1))).isFalse();
    }
  }

  @Test
  void compareStringsOrdersSupplementaryCharactersAboveTheBmp() {
    assertThat(Filters.compareStrings("\uFB00", "😀")).isNegative();
    assertThat("\uFB00".compareTo("😀")).as("UTF-16 order differs").isPositive();
    assertThat(Filters.compareStrings("a", "a")).isZero();
    assertThat(Filters.compareStrings("a", "ab")).isNegative();
  }

  private static void assertInvalid(String text, String message, int position) {
    assertThatThrownBy(() -> Filters.parse(text))
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.InvalidFilter);
              assertThat(e.getMessage()).contains(message);
              assertThat(e.context()).containsEntry("position", position);
            });
  }
}
