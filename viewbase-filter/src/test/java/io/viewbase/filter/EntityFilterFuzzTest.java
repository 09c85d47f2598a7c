package io.viewbase.filter;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.time.Instant;
import java.util.Map;

/**
 * Coverage-guided fuzzing of the entity {@code $filter} parser (native dialect). The contract for
 * any text: {@link Filters#parse} either returns a filter or throws {@link ViewbaseException} with
 * {@link ErrorCode#InvalidFilter} (400) and nothing else; a parsed filter prints to text that
 * parses back to the same tree, lists its properties and evaluates on an item without throwing.
 * Each input is bounded in time by the fuzz run's per-input timeout (the module's surefire {@code
 * fuzz} execution). Committed inputs, findings included, replay in every build from {@code
 * EntityFilterFuzzTestInputs/}.
 */
class EntityFilterFuzzTest {
  static final Map<String, Value> ITEM =
      Map.of(
          "Name", Value.of("ada"),
          "Age", Value.of(36),
          "Big", Value.of(1L << 40),
          "Score", Value.of(2.5),
          "On", Value.of(true),
          "Nothing", Value.Null.INSTANCE);

  @DictionaryEntries({
    " eq ",
    " ne ",
    " gt ",
    " ge ",
    " lt ",
    " le ",
    " and ",
    " or ",
    "not ",
    "(",
    ")",
    "'",
    "''",
    "datetime'",
    "guid'",
    "X'",
    "binary'",
    "true",
    "false",
    "null",
    "L",
    "M",
    "1E308",
    "-",
    ".",
    "partitionKey",
    "id",
    "timestamp",
    "$id",
    "_etag"
  })
  @FuzzTest(maxDuration = "3s")
  void parseEitherReturnsAFilterOrFailsWithInvalidFilter(FuzzedDataProvider data) {
    check(data.consumeRemainingAsString(), FilterDialect.NATIVE);
  }

  /** The contract of one text in one dialect; shared with the table-name target. */
  static Filter check(String text, FilterDialect dialect) {
    Filter f;
    try {
      f = Filters.parse(text, dialect);
    } catch (ViewbaseException e) {
      assertThat(e.code()).as("error code for %s", text).isEqualTo(ErrorCode.InvalidFilter);
      assertThat(e.getMessage()).isNotBlank();
      return null;
    }
    String printed = Filters.print(f);
    assertThat(Filters.parse(printed)).as("print of %s reparses as %s", text, printed).isEqualTo(f);
    Filters.properties(f);
    Filters.matches(f, "pk", "row", Instant.EPOCH, ITEM);
    return f;
  }
}
