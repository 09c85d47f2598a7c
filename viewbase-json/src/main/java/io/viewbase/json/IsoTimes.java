package io.viewbase.json;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.chrono.IsoChronology;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.util.Optional;

/**
 * ISO-8601 UTC times as Azure writes them, read back: {@code 2026-11-30T12:00:00.1234567Z}. Parsing
 * accepts 0..7 fractional digits (9 for system timestamps), an optional seconds field and a {@code Z}
 * or {@code ±hh:mm} offset. They are written by {@link io.viewbase.api.Value.DateTime#isoString}.
 */
final class IsoTimes {
  private static final DateTimeFormatter TICKS_PARSE = parser(7);
  private static final DateTimeFormatter NANOS_PARSE = parser(9);

  private IsoTimes() {
  }

  private static DateTimeFormatter parser(int maxFraction) {
    return new DateTimeFormatterBuilder()
        .parseCaseInsensitive()
        .append(DateTimeFormatter.ISO_LOCAL_DATE)
        .appendLiteral('T')
        .appendValue(ChronoField.HOUR_OF_DAY, 2).appendLiteral(':')
        .appendValue(ChronoField.MINUTE_OF_HOUR, 2)
        .optionalStart().appendLiteral(':').appendValue(ChronoField.SECOND_OF_MINUTE, 2)
        .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 1, maxFraction, true).optionalEnd()
        .optionalEnd()
        .appendOffset("+HH:MM", "Z")
        .toFormatter()
        .withChronology(IsoChronology.INSTANCE)
        .withResolverStyle(ResolverStyle.STRICT);
  }

  /** A datetime property value: at most 7 fractional digits; empty if the text is not one. */
  static Optional<Instant> parseTicks(String text) {
    return parse(TICKS_PARSE, text);
  }

  /** A system timestamp (up to nanoseconds); empty if the text is not one. */
  static Optional<Instant> parseInstant(String text) {
    return parse(NANOS_PARSE, text);
  }

  private static Optional<Instant> parse(DateTimeFormatter format, String text) {
    try {
      return Optional.of(OffsetDateTime.parse(text, format).toInstant());
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
