package io.viewbase.core;

import io.viewbase.api.Value;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatterBuilder;
import java.util.OptionalLong;

/**
 * ETags in Azure's form, {@code W/"datetime'2026-11-30T12%3A09%3A16.1234567Z'"}: the version's
 * timestamp with 7 fractional digits and percent-encoded colons. The same ETag serves the native
 * API and the Azure dialect, so an item read through one can be updated through the other.
 */
final class Etags {
  static final String ANY = "*";

  private static final String PREFIX = "W/\"datetime'";
  private static final String SUFFIX = "'\"";
  private static final DateTimeFormatter FORMAT = new DateTimeFormatterBuilder()
      .appendPattern("uuuu-MM-dd'T'HH:mm:ss")
      .appendFraction(ChronoField.NANO_OF_SECOND, 7, 7, true)
      .appendLiteral('Z')
      .toFormatter()
      .withZone(ZoneOffset.UTC);

  private Etags() {
  }

  /** Formats by hand: this runs for every item read, and DateTimeFormatter costs a microsecond. */
  static String of(long version) {
    long seconds = Math.floorDiv(version, Value.DateTime.TICKS_PER_SECOND);
    int fraction = (int) Math.floorMod(version, Value.DateTime.TICKS_PER_SECOND);
    LocalDateTime t = LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC);
    StringBuilder sb = new StringBuilder(PREFIX.length() + 36);
    sb.append(PREFIX);
    pad(sb, t.getYear(), 4).append('-');
    pad(sb, t.getMonthValue(), 2).append('-');
    pad(sb, t.getDayOfMonth(), 2).append('T');
    pad(sb, t.getHour(), 2).append("%3A");
    pad(sb, t.getMinute(), 2).append("%3A");
    pad(sb, t.getSecond(), 2).append('.');
    pad(sb, fraction, 7).append('Z');
    return sb.append(SUFFIX).toString();
  }

  private static StringBuilder pad(StringBuilder sb, int value, int width) {
    String digits = Integer.toString(value);
    for (int i = digits.length(); i < width; i++) {
      sb.append('0');
    }
    return sb.append(digits);
  }

  /** The version an ETag names, or empty if the text is not one of our ETags (it then matches nothing). */
  static OptionalLong parse(String etag) {
    String text = etag.trim();
    if (!text.startsWith(PREFIX) || !text.endsWith(SUFFIX)) {
      return OptionalLong.empty();
    }
    String time = text.substring(PREFIX.length(), text.length() - SUFFIX.length()).replace("%3A", ":");
    try {
      Instant instant = FORMAT.parse(time, Instant::from);
      return OptionalLong.of(Value.DateTime.of(instant).ticks());
    } catch (DateTimeParseException | ArithmeticException e) {
      return OptionalLong.empty();
    }
  }
}
