package io.viewbase.cli;

import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A duration flag's value: a whole number and its unit, {@code ms}, {@code s}, {@code m}, {@code h}
 * or {@code d} ({@code 500ms}, {@code 30s}, {@code 2m}, {@code 7d}), the units the Cassandra
 * durations of {@code --cassandra-option} take, and days for a change feed's retention, a ttl or a
 * history view's retention. The unit is required: a bare {@code 30} could mean seconds or
 * milliseconds, and a wrong guess is a timeout a thousand times off.
 */
final class DurationConverter implements ITypeConverter<Duration> {
  @Override
  public Duration convert(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    int digits = 0;
    while (digits < t.length() && Character.isDigit(t.charAt(digits))) {
      digits++;
    }
    String unit = t.substring(digits);
    if (digits == 0 || digits > 12) {
      throw new TypeConversionException(
          "'" + text + "' is not a duration such as 500ms, 30s or 2m");
    }
    long n = Long.parseLong(t.substring(0, digits));
    return switch (unit) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      case "h" -> Duration.ofHours(n);
      case "d" -> Duration.ofDays(n);
      default ->
          throw new TypeConversionException(
              "'" + text + "' needs a unit: ms, s, m, h or d (as in 500ms, 30s, 2m, 7d)");
    };
  }
}
