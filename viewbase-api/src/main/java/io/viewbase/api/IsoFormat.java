package io.viewbase.api;

/**
 * UTC times as ISO-8601 text the way Azure Tables writes them, {@code
 * 2026-11-30T12:09:16.1234567Z}: the one formatter behind item timestamps, datetime values, ETags
 * and view keys, in every module.
 *
 * <pre>
 * part      | written
 * ----------+------------------------------------------------------------------------------------
 * year      | 4 digits for 0000..9999; beyond, ISO-8601's expanded form: '+' and 5+ digits, or '-'
 *           | and 4+ digits (as java.time writes them, so the native API's reader reads them back)
 * fraction  | 7 digits (100 ns ticks); 8 or 9 only when the instant is finer than a tick
 * colons    | ':' or, in an ETag, "%3A"
 * </pre>
 *
 * Written digit by digit into a byte array, with no object in between: it runs for every item a
 * server writes out (the timestamp, each datetime value, the ETag), and {@code DateTimeFormatter}
 * costs about a microsecond there. The calendar is computed from the epoch day directly (H.
 * Hinnant's civil-from-days), so no {@code LocalDateTime} is made either.
 */
final class IsoFormat {
  /**
   * The most bytes {@link #write} writes: an 11-character year, "%3A" colons, 9 fractional digits.
   */
  static final int MAX_LENGTH = 11 + 6 + 1 + 3 * 2 + 2 * 3 + 1 + 9 + 1;

  private static final long SECONDS_PER_DAY = 86_400;

  private IsoFormat() {}

  static String format(long epochSecond, int nanos) {
    byte[] out = new byte[MAX_LENGTH];
    int end = write(epochSecond, nanos, false, out, 0);
    return new String(out, 0, end, java.nio.charset.StandardCharsets.ISO_8859_1);
  }

  /**
   * Writes the time at {@code at} in {@code out} (which has {@link #MAX_LENGTH} bytes free there)
   * and returns the index after it.
   */
  static int write(long epochSecond, int nanos, boolean percentColons, byte[] out, int at) {
    long epochDay = Math.floorDiv(epochSecond, SECONDS_PER_DAY);
    int secondOfDay = (int) Math.floorMod(epochSecond, SECONDS_PER_DAY);
    // civil from days: March-based years of 400-year eras, so February's length needs no table
    long z = epochDay + 719_468;
    long era = Math.floorDiv(z, 146_097);
    int dayOfEra = (int) (z - era * 146_097);
    int yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
    int dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
    int monthIndex = (5 * dayOfYear + 2) / 153;
    int day = dayOfYear - (153 * monthIndex + 2) / 5 + 1;
    int month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
    long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);

    int p = year(year, out, at);
    out[p++] = '-';
    p = pad(month, 2, out, p);
    out[p++] = '-';
    p = pad(day, 2, out, p);
    out[p++] = 'T';
    p = pad(secondOfDay / 3600, 2, out, p);
    p = colon(percentColons, out, p);
    p = pad(secondOfDay / 60 % 60, 2, out, p);
    p = colon(percentColons, out, p);
    p = pad(secondOfDay % 60, 2, out, p);
    out[p++] = '.';
    if (nanos % 100 == 0) {
      p = pad(nanos / 100, 7, out, p);
    } else if (nanos % 10 == 0) {
      p = pad(nanos / 10, 8, out, p);
    } else {
      p = pad(nanos, 9, out, p);
    }
    out[p++] = 'Z';
    return p;
  }

  private static int year(long year, byte[] out, int p) {
    if (year >= 0 && year <= 9999) {
      return pad((int) year, 4, out, p);
    }
    // rare: java.time's expanded years (SignStyle.EXCEEDS_PAD), at most 10 digits for an Instant
    out[p++] = (byte) (year < 0 ? '-' : '+');
    long magnitude = Math.abs(year);
    int digits = 4;
    for (long bound = 10_000; digits < 19 && magnitude >= bound; bound *= 10) {
      digits++;
    }
    for (int i = p + digits - 1; i >= p; i--) {
      out[i] = (byte) ('0' + magnitude % 10);
      magnitude /= 10;
    }
    return p + digits;
  }

  private static int colon(boolean percent, byte[] out, int p) {
    if (!percent) {
      out[p] = ':';
      return p + 1;
    }
    out[p] = '%';
    out[p + 1] = '3';
    out[p + 2] = 'A';
    return p + 3;
  }

  /**
   * {@code value} (0 or more) in exactly {@code width} digits; by a constant, so the JIT
   * multiplies.
   */
  private static int pad(int value, int width, byte[] out, int p) {
    for (int i = p + width - 1; i >= p; i--) {
      out[i] = (byte) ('0' + value % 10);
      value /= 10;
    }
    return p + width;
  }
}
