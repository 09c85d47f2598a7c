package io.viewbase.json;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.chrono.IsoChronology;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.util.Optional;

/**
 * ISO-8601 UTC times as Azure writes them: {@code 2026-11-30T12:00:00.1234567Z}, seven fractional
 * digits (100 ns ticks). Parsing accepts 0..7 fractional digits (9 for system timestamps), an
 * optional seconds field and a {@code Z} or {@code ±hh:mm} offset.
 */
final class IsoTimes {
  private static final DateTimeFormatter TICKS_FORMAT = new DateTimeFormatterBuilder()
      .append(DateTimeFormatter.ISO_LOCAL_DATE)
      .appendLiteral('T')
      .appendPattern("HH:mm:ss")
      .appendFraction(ChronoField.NANO_OF_SECOND, 7, 9, true)
      .appendLiteral('Z')
      .toFormatter()
      .withZone(ZoneOffset.UTC);

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

  /**
   * Seven fractional digits, or up to nine when the instant is finer than a tick. Written by hand: it
   * runs for every item written out, and DateTimeFormatter costs about a microsecond.
   */
  static String format(Instant instant) {
    LocalDateTime t = LocalDateTime.ofEpochSecond(instant.getEpochSecond(), 0, ZoneOffset.UTC);
    int year = t.getYear();
    if (year < 0 || year > 9999) {
      return TICKS_FORMAT.format(instant);
    }
    int nanos = instant.getNano();
    StringBuilder sb = new StringBuilder(30);
    pad(sb, year, 4).append('-');
    pad(sb, t.getMonthValue(), 2).append('-');
    pad(sb, t.getDayOfMonth(), 2).append('T');
    pad(sb, t.getHour(), 2).append(':');
    pad(sb, t.getMinute(), 2).append(':');
    pad(sb, t.getSecond(), 2).append('.');
    if (nanos % 100 == 0) {
      pad(sb, nanos / 100, 7);
    } else if (nanos % 10 == 0) {
      pad(sb, nanos / 10, 8);
    } else {
      pad(sb, nanos, 9);
    }
    return sb.append('Z').toString();
  }

  private static StringBuilder pad(StringBuilder sb, int value, int width) {
    String digits = Integer.toString(value);
    for (int i = digits.length(); i < width; i++) {
      sb.append('0');
    }
    return sb.append(digits);
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
