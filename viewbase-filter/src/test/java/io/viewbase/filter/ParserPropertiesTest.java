package io.viewbase.filter;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The parser under random input: it fails only with InvalidFilter (never another exception, never a
 * stack overflow), and printing any filter then parsing the text gives the same filter back.
 */
class ParserPropertiesTest {

  @Property(tries = 100_000)
  void parseOfRandomTextEitherRoundTripsOrFailsWithInvalidFilter(
      @ForAll("filterishText") String text) {
    assertParsesOrFailsCleanly(text);
  }

  @Property(tries = 100_000)
  void parseOfPrintedRandomFilterGivesTheSameFilter(@ForAll("filters") Filter filter) {
    String text = Filters.print(filter);
    assertThat(Filters.parse(text)).as(text).isEqualTo(filter);
  }

  @Property(tries = 20_000)
  void parseOfATruncatedPrintedFilterFailsOnlyWithInvalidFilter(
      @ForAll("filters") Filter filter, @ForAll @IntRange(min = 0, max = 1000) int cut) {
    String text = Filters.print(filter);
    assertParsesOrFailsCleanly(text.substring(0, Math.min(cut, text.length())));
  }

  @Provide
  Arbitrary<String> filterishText() {
    return FilterArbitraries.filterishText();
  }

  @Provide
  Arbitrary<Filter> filters() {
    return FilterArbitraries.filters();
  }

  private static void assertParsesOrFailsCleanly(String text) {
    Filter filter;
    try {
      filter = Filters.parse(text);
    } catch (ViewbaseException e) {
      assertThat(e.code()).as(e.getMessage()).isEqualTo(ErrorCode.InvalidFilter);
      assertThat((Integer) e.context().get("position"))
          .as(e.getMessage())
          .isBetween(0, text.length());
      assertThat(e.getMessage()).contains(" at " + e.context().get("position"));
      return;
    }
    assertThat(Filters.parse(Filters.print(filter))).as(text).isEqualTo(filter);
  }
}
