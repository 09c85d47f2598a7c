package io.viewbase.server;

import io.viewbase.api.Stability;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The {@code Date} header every dialect answers with: HTTP's fixed-length date ({@code Tue, 01 Dec
 * 2026 08:52:28 GMT}, RFC 9110's IMF-fixdate), as Azure and DynamoDB write it. {@link
 * DateTimeFormatter#RFC_1123_DATE_TIME} writes days 1-9 with one digit, which the Azure SDK refuses
 * to parse quickly (and logs as an error on every response). Formatted once per second: every
 * answer carries one, and a formatter costs a point read ~2% of its CPU.
 */
@Stability(Stability.Level.INTERNAL)
public final class HttpDate {
  private static final DateTimeFormatter FORMAT =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.ENGLISH);

  private record Formatted(String text, long epochSecond) {}

  private static volatile Formatted last = new Formatted("", Long.MIN_VALUE);

  private HttpDate() {}

  /** An epoch second as an HTTP date. */
  public static String format(long epochSecond) {
    return FORMAT.format(
        ZonedDateTime.ofInstant(Instant.ofEpochSecond(epochSecond), ZoneOffset.UTC));
  }

  /** The system clock's current second as an HTTP date. */
  public static String now() {
    return now(System.currentTimeMillis() / 1000);
  }

  /** {@code clock}'s current second as an HTTP date. */
  public static String now(Clock clock) {
    return now(Math.floorDiv(clock.millis(), 1000L));
  }

  private static String now(long second) {
    Formatted cached = last;
    if (cached.epochSecond == second) {
      return cached.text;
    }
    String text = format(second);
    last = new Formatted(text, second);
    return text;
  }
}
