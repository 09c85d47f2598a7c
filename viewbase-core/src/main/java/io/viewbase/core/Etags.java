package io.viewbase.core;

import io.viewbase.api.Value;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
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
  private static final byte[] PREFIX_BYTES = PREFIX.getBytes(StandardCharsets.US_ASCII);
  private static final DateTimeFormatter FORMAT =
      new DateTimeFormatterBuilder()
          .appendPattern("uuuu-MM-dd'T'HH:mm:ss")
          .appendFraction(ChronoField.NANO_OF_SECOND, 7, 7, true)
          .appendLiteral('Z')
          .toFormatter()
          .withZone(ZoneOffset.UTC);

  private Etags() {}

  static String of(long version) {
    byte[] out = new byte[PREFIX_BYTES.length + Value.DateTime.MAX_ISO_BYTES + SUFFIX.length()];
    System.arraycopy(PREFIX_BYTES, 0, out, 0, PREFIX_BYTES.length);
    int end =
        Value.DateTime.writeIso(
            Math.floorDiv(version, Value.DateTime.TICKS_PER_SECOND),
            (int) Math.floorMod(version, Value.DateTime.TICKS_PER_SECOND) * 100,
            true,
            out,
            PREFIX.length());
    out[end++] = '\'';
    out[end++] = '"';
    return new String(out, 0, end, StandardCharsets.ISO_8859_1);
  }

  /**
   * The version an ETag names, or empty if the text is not one of our ETags (it then matches
   * nothing). Read as Azure reads If-Match: {@code W/} in either case, and the time's colons
   * percent-encoded in either case or not at all.
   */
  static OptionalLong parse(String etag) {
    String text = etag.trim();
    if (text.length() < PREFIX.length() + SUFFIX.length()
        || !text.regionMatches(true, 0, PREFIX, 0, 2)
        || !text.startsWith(PREFIX.substring(2), 2)
        || !text.endsWith(SUFFIX)) {
      return OptionalLong.empty();
    }
    String time =
        text.substring(PREFIX.length(), text.length() - SUFFIX.length())
            .replace("%3A", ":")
            .replace("%3a", ":");
    try {
      Instant instant = FORMAT.parse(time, Instant::from);
      return OptionalLong.of(Value.DateTime.of(instant).ticks());
    } catch (DateTimeParseException | ArithmeticException e) {
      return OptionalLong.empty();
    }
  }
}
