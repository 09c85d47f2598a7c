package io.viewbase.server.azure;

import io.viewbase.api.Value;
import io.viewbase.json.EdmTypes;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * Times as Azure Tables writes and reads them: {@code 2026-11-30T12:00:00.1234567Z} for values and
 * Timestamps (seven fractional digits, so a Timestamp matches its ETag byte for byte), RFC 1123 for
 * the {@code Date} headers clients send ({@link io.viewbase.server.HttpDate} writes the answers'),
 * and the ISO forms clients send in Edm.DateTime values and SAS tokens.
 */
final class AzureTimes {
  private static final long TICKS = Value.DateTime.TICKS_PER_SECOND;

  /** Edm.DateTime's range on Azure: 1601-01-01 to 9999-12-31. */
  private static final long MIN_SECOND = LocalDate.of(1601, 1, 1).toEpochDay() * 86_400L;

  private static final long MAX_SECOND = LocalDate.of(10_000, 1, 1).toEpochDay() * 86_400L;

  /** The last Date header parsed: most requests in a second carry the same one. */
  private static volatile CachedDate lastParsed = new CachedDate("", 0);

  private record CachedDate(String text, long epochSecond) {}

  private AzureTimes() {}

  /**
   * A time as Azure writes it, with exactly seven fractional digits (finer instants are cut to a
   * tick).
   */
  static String format(Instant instant) {
    return Value.DateTime.of(instant).toIsoString();
  }

  /**
   * An Edm.DateTime value as clients send it, read as viewbase-json's {@link EdmTypes#dateTime}
   * reads every datetime ({@code yyyy-MM-ddTHH:mm[:ss[.f…]]} then {@code Z}, an offset or nothing,
   * or a bare date; cut to 100 ns ticks); null if the text is not such a time or lies outside
   * Azure's range.
   */
  static Value.DateTime parseValue(String text) {
    Value.DateTime t = EdmTypes.dateTime(text);
    return t != null && inRange(t) ? t : null;
  }

  /** Whether a datetime lies in Azure's range, 1601-01-01 to 9999-12-31. */
  static boolean inRange(Value.DateTime t) {
    return t.ticks() >= MIN_SECOND * TICKS && t.ticks() < MAX_SECOND * TICKS;
  }

  /**
   * A SAS or access-policy time ({@code 2026-01-01T00:00:00Z}, fractions and offsets allowed, or a
   * date); null if malformed.
   */
  static Instant parseInstant(String text) {
    Value.DateTime t = parseValue(text);
    return t == null ? null : t.toInstant();
  }

  /** The epoch second of an RFC 1123 date header, or {@code Long.MIN_VALUE} if it is not one. */
  static long parseHttpDate(String text) {
    CachedDate cached = lastParsed;
    if (cached.text.equals(text)) {
      return cached.epochSecond;
    }
    try {
      long second = ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toEpochSecond();
      lastParsed = new CachedDate(text, second);
      return second;
    } catch (DateTimeParseException e) {
      return Long.MIN_VALUE;
    }
  }
}
