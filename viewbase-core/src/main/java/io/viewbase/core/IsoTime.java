package io.viewbase.core;

import io.viewbase.api.Value;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/** UTC times as ISO-8601 text with Azure's 7 fractional digits, formatted by hand (hot paths). */
final class IsoTime {
  private static final int[] TEN_TO_THE = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000};

  private IsoTime() {
  }

  static String format(long ticks) {
    return append(new StringBuilder(28), ticks, ":").toString();
  }

  /** Appends {@code 2026-11-30T12:09:16.1234567Z}, with {@code colon} between the time fields. */
  static StringBuilder append(StringBuilder sb, long ticks, String colon) {
    long seconds = Math.floorDiv(ticks, Value.DateTime.TICKS_PER_SECOND);
    int fraction = (int) Math.floorMod(ticks, Value.DateTime.TICKS_PER_SECOND);
    LocalDateTime t = LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC);
    pad(sb, t.getYear(), 4).append('-');
    pad(sb, t.getMonthValue(), 2).append('-');
    pad(sb, t.getDayOfMonth(), 2).append('T');
    pad(sb, t.getHour(), 2).append(colon);
    pad(sb, t.getMinute(), 2).append(colon);
    pad(sb, t.getSecond(), 2).append('.');
    return pad(sb, fraction, 7).append('Z');
  }

  /**
   * {@code value} in at least {@code width} digits, zero-padded. Digit by digit, without
   * Integer.toString's string: this runs seven times for every ETag written.
   */
  private static StringBuilder pad(StringBuilder sb, int value, int width) {
    if (value < 0 || value >= TEN_TO_THE[width]) {
      // a year beyond 9999 or before 0: rare, the general path
      String digits = Integer.toString(value);
      for (int i = digits.length(); i < width; i++) {
        sb.append('0');
      }
      return sb.append(digits);
    }
    int end = sb.length() + width;
    sb.setLength(end);
    for (int i = end - 1; i >= end - width; i--) {
      sb.setCharAt(i, (char) ('0' + value % 10)); // by a constant: the JIT multiplies, no division
      value /= 10;
    }
    return sb;
  }
}
