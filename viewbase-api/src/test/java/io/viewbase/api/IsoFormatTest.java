package io.viewbase.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
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

class IsoFormatTest {
  /** What the hand-written formatter must equal: java.time's ISO date, 7 to 9 fractional digits. */
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
  void isoStringAgreesWithTheReferenceFormatterOverEveryInstant(
      @ForAll @LongRange(min = -31_557_014_135_596_800L, max = 31_556_889_832_780_799L)
          long seconds,
      @ForAll @IntRange(min = 0, max = 999_999_999) int nanos,
      @ForAll boolean ticksOnly) {
    Instant instant = Instant.ofEpochSecond(seconds, ticksOnly ? nanos / 100 * 100 : nanos);

    assertThat(Value.DateTime.isoString(instant)).isEqualTo(REFERENCE.format(instant));
  }

  @Property(tries = 3000)
  void toIsoStringOfTicksIsTheReferenceWithSevenDigitsAndWriteIsoTheSameBytes(
      @ForAll @LongRange(min = -62_135_596_800L, max = 253_402_300_799L) long seconds,
      @ForAll @IntRange(min = 0, max = 9_999_999) int fraction,
      @ForAll boolean percentColons) {
    Value.DateTime t = new Value.DateTime(seconds * Value.DateTime.TICKS_PER_SECOND + fraction);
    String expected = REFERENCE.format(t.toInstant());

    assertThat(t.toIsoString()).isEqualTo(expected).hasSize(28);
    byte[] out = new byte[3 + Value.DateTime.MAX_ISO_BYTES];
    int end = t.writeIso(percentColons, out, 3);
    assertThat(new String(out, 3, end - 3, StandardCharsets.US_ASCII))
        .isEqualTo(percentColons ? expected.replace(":", "%3A") : expected);
  }

  @Test
  void yearsBeyondFourDigitsAreWrittenInTheExpandedForm() {
    assertThat(Value.DateTime.isoString(Instant.MAX))
        .isEqualTo("+1000000000-12-31T23:59:59.999999999Z");
    assertThat(Value.DateTime.isoString(Instant.MIN))
        .isEqualTo("-1000000000-01-01T00:00:00.0000000Z");
    assertThat(Value.DateTime.isoString(Instant.parse("+10000-01-01T00:00:00Z")))
        .isEqualTo("+10000-01-01T00:00:00.0000000Z");
    assertThat(Value.DateTime.isoString(Instant.parse("-0001-12-31T23:59:59Z")))
        .isEqualTo("-0001-12-31T23:59:59.0000000Z");
    assertThat(new Value.DateTime(Long.MAX_VALUE).toIsoString())
        .isEqualTo("+31197-09-14T02:48:05.4775807Z")
        .isEqualTo(REFERENCE.format(new Value.DateTime(Long.MAX_VALUE).toInstant()));
    assertThat(new Value.DateTime(Long.MIN_VALUE).toIsoString())
        .isEqualTo(REFERENCE.format(new Value.DateTime(Long.MIN_VALUE).toInstant()));
    byte[] out = new byte[Value.DateTime.MAX_ISO_BYTES];
    assertThat(Value.DateTime.writeIso(Instant.MAX.getEpochSecond(), 999_999_999, true, out, 0))
        .isEqualTo(Value.DateTime.MAX_ISO_BYTES);
  }

  @Test
  void fractionsFinerThanATickKeepTheirDigits() {
    assertThat(Value.DateTime.isoString(Instant.parse("2026-11-30T12:09:16.12345678Z")))
        .isEqualTo("2026-11-30T12:09:16.12345678Z");
    assertThat(Value.DateTime.isoString(Instant.parse("2026-11-30T12:09:16.123456789Z")))
        .isEqualTo("2026-11-30T12:09:16.123456789Z");
    assertThat(Value.DateTime.isoString(Instant.parse("2026-11-30T12:09:16Z")))
        .isEqualTo("2026-11-30T12:09:16.0000000Z");
  }
}
