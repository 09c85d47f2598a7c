package io.viewbase.json;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Optional;

/**
 * ISO-8601 times as clients send them, read once for every interface: item timestamps, datetime
 * values (through {@link EdmTypes}) and the Azure dialect's values and SAS times. They are written
 * by {@link io.viewbase.api.Value.DateTime#isoString}, and everything it writes reads back.
 *
 * <pre>
 * part      | accepted
 * ----------+----------------------------------------------------------------------------------
 * date      | yyyy-MM-dd; a year beyond 0000..9999 with its sign (+10000, -0001), 4 to 9 digits
 * time      | optional: 'T' (or 't') then HH:mm, optionally :ss, optionally '.' and 1 or more
 *           | digits (past the ninth they are cut: a datetime value keeps 7, a timestamp 9)
 * zone      | 'Z' (or 'z'), an offset ±hh:mm up to 18:00, or none: UTC (as Azure reads
 *           | 2008-07-10T00:00:00); a bare date is midnight UTC
 * </pre>
 *
 * Fields out of range (month 13, February 30, 24:00, second 60) make the text no time.
 */
final class IsoTimes {
  private IsoTimes() {}

  /** A system timestamp (up to nanoseconds); empty if the text is not one. */
  static Optional<Instant> parseInstant(String text) {
    return Optional.ofNullable(parse(text));
  }

  /**
   * The instant the text names, to the nanosecond, or null if it is not a time as the table says.
   */
  static Instant parse(String text) {
    Cursor c = new Cursor(text);
    try {
      int year = c.year();
      c.expect('-');
      int month = c.digits(2);
      c.expect('-');
      int day = c.digits(2);
      long epochDay = LocalDate.of(year, month, day).toEpochDay();
      int hour = 0;
      int minute = 0;
      int second = 0;
      int nanos = 0;
      int offsetSeconds = 0;
      if (c.more()) {
        if (c.peek() != 'T' && c.peek() != 't') {
          return null;
        }
        c.pos++;
        hour = c.digits(2);
        c.expect(':');
        minute = c.digits(2);
        if (c.more() && c.peek() == ':') {
          c.pos++;
          second = c.digits(2);
          if (c.more() && c.peek() == '.') {
            c.pos++;
            nanos = c.fraction();
          }
        }
        offsetSeconds = c.offset();
      }
      if (c.more() || hour > 23 || minute > 59 || second > 59) {
        return null;
      }
      return Instant.ofEpochSecond(
          epochDay * 86_400L + hour * 3600L + minute * 60L + second - offsetSeconds, nanos);
    } catch (DateTimeException | IndexOutOfBoundsException | NumberFormatException e) {
      return null;
    }
  }

  /** A reader over the characters of a time; a mismatch is a NumberFormatException. */
  private static final class Cursor {
    private final String s;
    private int pos;

    Cursor(String s) {
      this.s = s;
    }

    boolean more() {
      return pos < s.length();
    }

    char peek() {
      return s.charAt(pos);
    }

    void expect(char ch) {
      if (s.charAt(pos) != ch) {
        throw new NumberFormatException("expected " + ch);
      }
      pos++;
    }

    /** Four digits, or a sign and 4 to 9 (ISO-8601's expanded years). */
    int year() {
      char sign = peek();
      if (sign != '+' && sign != '-') {
        return digits(4);
      }
      pos++;
      int start = pos;
      long v = 0;
      while (more() && isDigit(peek()) && pos - start < 9) {
        v = v * 10 + (s.charAt(pos++) - '0');
      }
      if (pos - start < 4) {
        throw new NumberFormatException("a signed year has at least 4 digits");
      }
      return (int) (sign == '-' ? -v : v);
    }

    int digits(int n) {
      int v = 0;
      for (int i = 0; i < n; i++) {
        char ch = s.charAt(pos++);
        if (!isDigit(ch)) {
          throw new NumberFormatException("expected a digit");
        }
        v = v * 10 + (ch - '0');
      }
      return v;
    }

    /**
     * One or more digits of a fraction of a second, in nanoseconds; digits past the ninth are cut.
     */
    int fraction() {
      int digits = 0;
      int nanos = 0;
      while (more() && isDigit(peek())) {
        if (digits < 9) {
          nanos = nanos * 10 + (peek() - '0');
        }
        digits++;
        pos++;
      }
      if (digits == 0) {
        throw new NumberFormatException("a '.' without digits");
      }
      for (int i = digits; i < 9; i++) {
        nanos *= 10;
      }
      return nanos;
    }

    /** 'Z', ±hh:mm (at most 18:00) or nothing, as seconds east of UTC. */
    int offset() {
      if (!more()) {
        return 0;
      }
      char z = peek();
      if (z == 'Z' || z == 'z') {
        pos++;
        return 0;
      }
      if (z != '+' && z != '-') {
        throw new NumberFormatException("expected a zone");
      }
      pos++;
      int hours = digits(2);
      expect(':');
      int minutes = digits(2);
      int seconds = hours * 3600 + minutes * 60;
      if (minutes > 59 || seconds > 18 * 3600) {
        throw new NumberFormatException("offset out of range");
      }
      return z == '+' ? seconds : -seconds;
    }

    private static boolean isDigit(char ch) {
      return ch >= '0' && ch <= '9';
    }
  }
}
