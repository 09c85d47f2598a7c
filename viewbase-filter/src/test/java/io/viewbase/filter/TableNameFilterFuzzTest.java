package io.viewbase.filter;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Value;
import java.util.Map;

/**
 * Coverage-guided fuzzing of Query Tables' {@code $filter}: the entity language in Azure's dialect
 * tested on one string property, {@code TableName} (how the Azure dialect's table listing uses it).
 * The contract: parse returns a filter or fails with {@link ErrorCode#InvalidFilter} only; a parsed
 * filter round-trips through its native print and evaluates on a table name without throwing.
 * Inputs replay from {@code TableNameFilterFuzzTestInputs/}.
 */
class TableNameFilterFuzzTest {
  private static final String[] NAMES = {"users", "Users2", "a", "z" + "9".repeat(62)};

  @DictionaryEntries({
    "TableName",
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
    "true",
    "false",
    "PartitionKey",
    "RowKey",
    "Timestamp",
    "_x",
    "id"
  })
  @FuzzTest(maxDuration = "3s")
  void parseOnTableNamesReturnsAFilterOrFailsWithInvalidFilter(FuzzedDataProvider data) {
    Filter f = EntityFilterFuzzTest.check(data.consumeRemainingAsString(), FilterDialect.AZURE);
    if (f != null) {
      for (String name : NAMES) {
        Filters.matches(f, null, null, null, Map.of("TableName", Value.of(name)));
      }
    }
  }
}
