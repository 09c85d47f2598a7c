package io.viewbase.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import org.junit.jupiter.api.Test;

class PropertyNameTest {
  private static ViewbaseException refusal(String name, boolean topLevel, int maxLength) {
    return catchThrowableOfType(
        () -> PropertyName.check(name, topLevel, maxLength), ViewbaseException.class);
  }

  @Test
  void checkRefusesReservedNamesOnlyAtTheTopLevel() {
    for (String reserved : List.of("_x", "_etag", "partitionKey", "id")) {
      assertThat(PropertyName.isReserved(reserved)).as(reserved).isTrue();
      assertThat(refusal(reserved, true, 255).code())
          .as(reserved)
          .isEqualTo(ErrorCode.InvalidPropertyName);
      assertThatCode(() -> PropertyName.check(reserved, false, 255))
          .as(reserved)
          .doesNotThrowAnyException();
    }
    assertThat(PropertyName.isReserved("x_")).isFalse();
    assertThat(PropertyName.isReserved("Id")).isFalse();
  }

  @Test
  void checkRefusesEmptyNamesAnnotationsControlsAndLoneSurrogatesAtEveryLevel() {
    for (String bad : List.of("", "a@b", "tab\tname", "\u007f", "lone\ud800", "\udc00x")) {
      for (boolean topLevel : List.of(true, false)) {
        assertThat(refusal(bad, topLevel, 255).code())
            .as(bad)
            .isEqualTo(ErrorCode.InvalidPropertyName);
      }
    }
    assertThatCode(() -> PropertyName.check("$id😀é", true, 255)).doesNotThrowAnyException();
  }

  @Test
  void checkLengthUnderALimitBelow64NamesTheWholePropertyAndTheLimit() {
    ViewbaseException e = refusal("elevenchars", true, 10);

    assertThat(e.getMessage()).contains("longer than 10 characters");
    assertThat(e.context())
        .containsEntry("property", "elevenchars")
        .containsEntry("length", 11)
        .containsEntry("maxPropertyNameLength", 10);
  }

  @Test
  void shortenedKeeps64CharactersWithoutSplittingASurrogatePair() {
    assertThat(PropertyName.shortened("x".repeat(64))).isEqualTo("x".repeat(64));
    assertThat(PropertyName.shortened("x".repeat(65))).isEqualTo("x".repeat(64) + "…");
    assertThat(PropertyName.shortened("x".repeat(63) + "😀" + "y")).isEqualTo("x".repeat(63) + "…");
  }
}
