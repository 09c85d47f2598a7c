package io.viewbase.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The same text read in the native and the Azure dialect: which names are system, which stored. */
class FilterDialectTest {
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void parseInAzureReadsIdPartitionKeyAndUnderscoreNamesAsEscapedUserProperties() {
    Filter f =
        Filters.parse(
            "id eq 'x' and partitionKey eq 'p' and _timestamp gt 3 and _flag", FilterDialect.AZURE);

    assertThat(Filters.properties(f))
        .containsExactly("$id", "$partitionKey", "$_timestamp", "$_flag");
    assertThat(Filters.properties(f))
        .allSatisfy(name -> assertThat(Filters.system(name)).isEmpty());
  }

  @Test
  void parseInNativeReadsIdPartitionKeyAndTimestampAsSystem() {
    Filter f =
        Filters.parse(
            "id eq 'x' and partitionKey eq 'p' and _timestamp gt datetime'2020-01-01T00:00:00Z'");

    assertThat(Filters.properties(f)).containsExactly("id", "partitionKey", "_timestamp");
    assertThat(Filters.matches(f, "p", "x", T, Map.of())).isTrue();
  }

  @Test
  void parseInAzureKeepsPartitionKeyRowKeyAndTimestampSystem() {
    Filter f =
        Filters.parse(
            "PartitionKey eq 'p' and RowKey eq 'r' and Timestamp gt datetime'2020-01-01T00:00:00Z'",
            FilterDialect.AZURE);

    assertThat(Filters.matches(f, "p", "r", T, Map.of())).isTrue();
    assertThat(Filters.matches(f, "p", "other", T, Map.of())).isFalse();
  }

  @Test
  void matchesOfAnAzureIdFilterReadsTheStoredUserPropertyNotTheItemsId() {
    Filter f = Filters.parse("id eq 'user-7'", FilterDialect.AZURE);

    assertThat(Filters.matches(f, "p", "row-1", T, Map.of("$id", Value.of("user-7")))).isTrue();
    assertThat(Filters.matches(f, "p", "user-7", T, Map.of())).isFalse();
  }

  @Test
  void parseInAzureReadsCapitalisedTrueAndFalseAsBooleansAndNativeAsProperties() {
    Filter azure =
        Filters.parse("IsActive eq True or False or not (Done ne False)", FilterDialect.AZURE);
    Filter lower =
        Filters.parse("IsActive eq true or false or not (Done ne false)", FilterDialect.AZURE);

    assertThat(azure).isEqualTo(lower);
    assertThat(Filters.parse("True", FilterDialect.AZURE)).isEqualTo(new Filter.Constant(true));
    assertThat(Filters.parse("True")).isEqualTo(new Filter.BoolProperty("True"));
  }

  @Test
  void printOfAnAzureFilterIsNativeTextWithTheSameMeaning() {
    Filter azure = Filters.parse("id eq 'x' or (_n gt 2 and RowKey ge 'a')", FilterDialect.AZURE);

    String text = Filters.print(azure);

    assertThat(text).isEqualTo("$id eq 'x' or $_n gt 2 and RowKey ge 'a'");
    assertThat(Filters.parse(text)).isEqualTo(azure);
  }

  @Test
  void parseInNativeAcceptsDollarNamesAsUserProperties() {
    Filter f = Filters.parse("$id eq 'x' and a$b");

    assertThat(Filters.properties(f)).containsExactly("$id", "a$b");
    assertThat(Filters.matches(f, "p", "i", T, Map.of("$id", Value.of("x"), "a$b", Value.of(true))))
        .isTrue();
  }

  @Test
  void parseInAzureOfADollarNameFailsWithInvalidFilterAtTheDollar() {
    assertThatThrownBy(() -> Filters.parse("Age gt 3 and $id eq 'x'", FilterDialect.AZURE))
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.InvalidFilter);
              assertThat(e.getMessage()).contains("unexpected character '$' at 13");
            });
  }

  @Test
  void storedNameAndWrittenNameAreInversesInAzureAndIdentitiesInNative() {
    for (String name :
        new String[] {"id", "partitionKey", "_x", "_timestamp", "Name", "RowKey", "ID"}) {
      String stored = FilterDialect.AZURE.storedName(name);
      assertThat(FilterDialect.AZURE.writtenName(stored)).isEqualTo(name);
      assertThat(FilterDialect.NATIVE.storedName(name)).isEqualTo(name);
      assertThat(FilterDialect.NATIVE.writtenName(name)).isEqualTo(name);
    }
    assertThat(FilterDialect.AZURE.storedName("id")).isEqualTo("$id");
    assertThat(FilterDialect.AZURE.storedName("ID")).isEqualTo("ID");
    assertThat(FilterDialect.AZURE.writtenName("$other")).isEqualTo("$other");
  }

  @Test
  void parseInAzureRefusesDecimalLiteralsWhichNativeReads() {
    assertThat(Filters.print(Filters.parse("Price eq 12.50M"))).isEqualTo("Price eq 12.5M");
    assertThatThrownBy(() -> Filters.parse("Price eq 12.5M", FilterDialect.AZURE))
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.InvalidFilter);
              assertThat(e.context()).containsEntry("position", 9);
            })
        .hasMessageContaining("a decimal literal is not part of Azure's filter language")
        .hasMessageContaining("write 12.5 for a Double");
  }
}
