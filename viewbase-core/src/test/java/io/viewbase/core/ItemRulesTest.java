package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Limits;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ItemRulesTest {
  private static ItemRules withNameLimit(int characters) {
    Limits d = Limits.DEFAULT;
    return new ItemRules(
        new Limits(
            d.maxKeyBytes(),
            d.maxItemBytes(),
            d.maxProperties(),
            characters,
            d.maxNestingDepth(),
            d.maxPageSize()));
  }

  @Test
  void propertyNameOverALimitUnder64FailsWithInvalidPropertyNameNamingIt() {
    ViewbaseException e =
        catchThrowableOfType(
            () -> withNameLimit(10).checkProperties(Map.of("elevenchars", Value.of(1))),
            ViewbaseException.class);

    assertThat(e.code()).isEqualTo(ErrorCode.InvalidPropertyName);
    assertThat(e.getMessage()).contains("longer than 10 characters");
    assertThat(e.context()).containsEntry("property", "elevenchars");
  }

  @Test
  void longPropertyNameIsShortenedInTheErrorWithoutSplittingASurrogatePair() {
    String name = "x".repeat(63) + "😀" + "y".repeat(300);

    ViewbaseException e =
        catchThrowableOfType(
            () -> withNameLimit(255).checkProperties(Map.of(name, Value.of(1))),
            ViewbaseException.class);

    assertThat(e.code()).isEqualTo(ErrorCode.InvalidPropertyName);
    assertThat(e.context()).containsEntry("property", "x".repeat(63) + "…");
  }
}
