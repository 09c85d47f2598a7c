package io.viewbase.storage.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StoreOptionsTest {
  private static final Set<String> KNOWN =
      Set.of("b.size", "b.count", "b.timeout", "b.mode", "b.name");

  private static StoreOptions given(String name, String value) {
    return StoreOptions.of(new StoreConfig(null, false, Map.of(name, value)), "b", KNOWN);
  }

  private static StoreOptions none() {
    return StoreOptions.of(new StoreConfig(null, false, Map.of()), "b", KNOWN);
  }

  @Test
  void ofWithAnUnknownOptionOfTheBackendFailsNamingItAndTheKnownOnes() {
    assertThatExceptionOfType(StoreOptionException.class)
        .isThrownBy(() -> given("b.sise", "1"))
        .withMessage(
            "unknown option b.sise; the b backend knows [b.count, b.mode, b.name, b.size, b.timeout]")
        .satisfies(e -> assertThat(e.option()).isEqualTo("b.sise"));
  }

  @Test
  void ofLeavesOtherBackendsOptionsAlone() {
    assertThat(given("other.thing", "x").text("b.name", "dflt")).isEqualTo("dflt");
  }

  @Test
  void sizeReadsBytesAndPowersOf1024InAnyCase() {
    assertThat(given("b.size", "4096").size("b.size", "1")).isEqualTo(4096);
    assertThat(given("b.size", " 16K ").size("b.size", "1")).isEqualTo(16L << 10);
    assertThat(given("b.size", "128m").size("b.size", "1")).isEqualTo(128L << 20);
    assertThat(given("b.size", "2g").size("b.size", "1")).isEqualTo(2L << 30);
    assertThat(none().size("b.size", "64m")).isEqualTo(64L << 20);
  }

  @Test
  void sizeThatIsNotOneFailsNamingTheOptionAndTheValueAsGiven() {
    for (String bad : List.of("lots", "-1", "1t", "", "9223372036854775807g")) {
      assertThatExceptionOfType(StoreOptionException.class)
          .isThrownBy(() -> given("b.size", bad).size("b.size", "1"))
          .withMessage("b.size must be a size such as 134217728 or 128m, not '" + bad + "'")
          .satisfies(e -> assertThat(e.option()).isEqualTo("b.size"));
    }
  }

  @Test
  void numberOutsideItsRangeOrNotWholeFailsNamingTheRange() {
    assertThat(given("b.count", " 7 ").number("b.count", "1", 0, 64)).isEqualTo(7);
    for (String bad : List.of("65", "-1", "1.5", "many")) {
      assertThatExceptionOfType(StoreOptionException.class)
          .isThrownBy(() -> given("b.count", bad).number("b.count", "1", 0, 64))
          .withMessage("b.count must be a whole number from 0 to 64, not '" + bad + "'");
    }
  }

  @Test
  void durationReadsMillisecondsSecondsAndMinutesWithinItsRange() {
    Duration min = Duration.ofMillis(1);
    Duration max = Duration.ofHours(1);
    assertThat(given("b.timeout", "500ms").duration("b.timeout", "1s", min, max))
        .isEqualTo(Duration.ofMillis(500));
    assertThat(given("b.timeout", "10S").duration("b.timeout", "1s", min, max))
        .isEqualTo(Duration.ofSeconds(10));
    assertThat(given("b.timeout", "60m").duration("b.timeout", "1s", min, max))
        .isEqualTo(Duration.ofHours(1));
    assertThat(given("b.timeout", "250").duration("b.timeout", "1s", min, max))
        .isEqualTo(Duration.ofMillis(250));
    for (String bad : List.of("forever", "0", "61m", "-5s", "99999999999999999m")) {
      assertThatExceptionOfType(StoreOptionException.class)
          .isThrownBy(() -> given("b.timeout", bad).duration("b.timeout", "1s", min, max))
          .withMessage(
              "b.timeout must be a duration from 1ms to 60m such as 500ms, 10s or 1m, not '"
                  + bad
                  + "'");
    }
  }

  @Test
  void choiceIsOneOfItsNamesInAnyCase() {
    assertThat(given("b.mode", " ZSTD").choice("b.mode", "none", List.of("zstd", "none")))
        .isEqualTo("zstd");
    assertThatExceptionOfType(StoreOptionException.class)
        .isThrownBy(() -> given("b.mode", "lz4").choice("b.mode", "none", List.of("zstd", "none")))
        .withMessage("b.mode must be zstd or none, not 'lz4'");
    assertThatExceptionOfType(StoreOptionException.class)
        .isThrownBy(() -> given("b.mode", "x").choice("b.mode", "a", List.of("a", "b", "c")))
        .withMessage("b.mode must be a, b or c, not 'x'");
  }

  @Test
  void nonBlankRefusesBlankText() {
    assertThat(given("b.name", " dc1 ").nonBlank("b.name", "x")).isEqualTo("dc1");
    assertThatExceptionOfType(StoreOptionException.class)
        .isThrownBy(() -> given("b.name", "  ").nonBlank("b.name", "x"))
        .withMessage("b.name must not be empty");
  }
}
