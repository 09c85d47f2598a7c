package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class EtagsTest {

  @Property(tries = 2000)
  void parseOfAnEtagReturnsItsVersion(
      @ForAll @LongRange(min = 0, max = 2_000_000_000_000_000_00L) long version) {
    assertThat(Etags.parse(Etags.of(version))).isEqualTo(OptionalLong.of(version));
  }

  @Test
  void ofFormatsLikeAzure() {
    // 2026-11-30T12:09:16.1234567Z
    long version = 1_796_040_556L * 10_000_000L + 1_234_567L;
    assertThat(Etags.of(version)).isEqualTo("W/\"datetime'2026-11-30T12%3A09%3A16.1234567Z'\"");
  }

  @Test
  void parseReadsTheWeakPrefixInEitherCaseAndColonsEncodedInEitherCaseOrNot() {
    long version = 1_796_040_556L * 10_000_000L + 1_234_567L;
    for (String same :
        new String[] {
          "w/\"datetime'2026-11-30T12%3A09%3A16.1234567Z'\"",
          "W/\"datetime'2026-11-30T12%3a09%3a16.1234567Z'\"",
          "W/\"datetime'2026-11-30T12:09:16.1234567Z'\""
        }) {
      assertThat(Etags.parse(same)).as(same).isEqualTo(OptionalLong.of(version));
    }
  }

  @Test
  void parseOfForeignTextIsEmpty() {
    assertThat(Etags.parse("W/")).isEmpty();
    assertThat(Etags.parse("\"datetime'2026-11-30T12%3A09%3A16.1234567Z'\"")).isEmpty();
    assertThat(Etags.parse("\"abc\"")).isEmpty();
    assertThat(Etags.parse("W/\"datetime'not-a-date'\"")).isEmpty();
    assertThat(Etags.parse("")).isEmpty();
  }
}
