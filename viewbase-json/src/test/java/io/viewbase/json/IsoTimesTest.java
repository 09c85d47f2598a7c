package io.viewbase.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Value;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class IsoTimesTest {
  private static final DateTimeFormatter REFERENCE =
      new DateTimeFormatterBuilder()
          .append(DateTimeFormatter.ISO_LOCAL_DATE)
          .appendLiteral('T')
          .appendPattern("HH:mm:ss")
          .appendFraction(ChronoField.NANO_OF_SECOND, 7, 9, true)
          .appendLiteral('Z')
          .toFormatter()
          .withZone(ZoneOffset.UTC);

  @Property(tries = 3000)
  void formatAgreesWithTheReferenceFormatterAndParsesBack(
      @ForAll @LongRange(min = -62_135_596_800L, max = 253_402_300_799L) long seconds,
      @ForAll @IntRange(min = 0, max = 999_999_999) int nanos,
      @ForAll boolean ticksOnly) {
    Instant instant = Instant.ofEpochSecond(seconds, ticksOnly ? nanos / 100 * 100 : nanos);
    String text = Value.DateTime.isoString(instant);
    assertThat(text).isEqualTo(REFERENCE.format(instant));
    assertThat(IsoTimes.parseInstant(text)).contains(instant);
  }

  @Test
  void formatWritesSevenDigitsForTicks() {
    assertThat(Value.DateTime.isoString(Instant.parse("2026-11-30T12:09:16.1234567Z")))
        .isEqualTo("2026-11-30T12:09:16.1234567Z");
    assertThat(Value.DateTime.isoString(Instant.parse("2026-11-30T12:09:16Z")))
        .isEqualTo("2026-11-30T12:09:16.0000000Z");
  }

  @Test
  void parseReadsBackTheExpandedYearsTheFormatterWrites() {
    for (String text :
        new String[] {
          "+10000-01-01T00:00:00.0000000Z",
          "-0001-12-31T23:59:59.1234567Z",
          "0000-01-01T00:00:00.0000000Z"
        }) {
      Instant instant = IsoTimes.parse(text);
      assertThat(instant).as(text).isNotNull();
      assertThat(Value.DateTime.isoString(instant)).isEqualTo(text);
    }
  }

  @Test
  void parseTakesAzuresFormsAndRefusesFieldsOutOfRange() {
    assertThat(IsoTimes.parse("2008-07-10T00:00:00"))
        .isEqualTo(Instant.parse("2008-07-10T00:00:00Z"));
    assertThat(IsoTimes.parse("2008-07-10")).isEqualTo(Instant.parse("2008-07-10T00:00:00Z"));
    assertThat(IsoTimes.parse("2008-07-10t02:00-02:30"))
        .isEqualTo(Instant.parse("2008-07-10T04:30:00Z"));
    assertThat(IsoTimes.parse("2008-07-10T00:00:00.1234567891Z"))
        .isEqualTo(Instant.parse("2008-07-10T00:00:00.123456789Z"));
    for (String bad :
        new String[] {
          "",
          "2008-7-10",
          "2008-07-10Z",
          "2008-07-10T25:00Z",
          "2008-07-10T00:60Z",
          "2008-07-10T00:00:60Z",
          "2008-07-10T00:00+18:01",
          "2008-07-10T00:00:00.Z",
          "10000-01-01T00:00Z",
          "+100-01-01T00:00Z",
          "2008-07-10T00:00Zjunk"
        }) {
      assertThat(IsoTimes.parse(bad)).as(bad).isNull();
    }
  }
}
