package io.viewbase.filter;

import io.viewbase.api.Value;
import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.Objects;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text forms of the typed literals: how a {@code datetime'…'}, {@code guid'…'} or {@code X'…'}
 * body reads, and how every literal value is written back in canonical form. Parsing methods return
 * null when the body is malformed; the lexer turns that into an error that knows the position.
 */
final class Literals {
  /**
   * 0001-01-01T00:00:00Z in ticks from the Unix epoch: the earliest datetime a filter can write.
   */
  static final long MIN_TICKS = -62_135_596_800L * Value.DateTime.TICKS_PER_SECOND;

  /** 9999-12-31T23:59:59.9999999Z in ticks from the Unix epoch: the latest. */
  static final long MAX_TICKS = 253_402_300_800L * Value.DateTime.TICKS_PER_SECOND - 1;

  private static final Pattern DATETIME =
      Pattern.compile(
          "(\\d{4})-(\\d{2})-(\\d{2})T(\\d{2}):(\\d{2})(?::(\\d{2})(?:\\.(\\d{1,7}))?)?(Z|[+-]\\d{2}:\\d{2})?");
  private static final Pattern GUID =
      Pattern.compile(
          "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
  private static final HexFormat HEX = HexFormat.of();

  private Literals() {}

  /**
   * Rejects a literal an AST node cannot carry: null, Null, objects, arrays, datetimes outside
   * 0001..9999.
   */
  static void requireWritable(Value literal) {
    Objects.requireNonNull(literal, "literal");
    switch (literal.type()) {
      case STRING, BOOLEAN, INT32, INT64, DOUBLE, DECIMAL, GUID, BINARY -> {}
      case DATETIME -> {
        long ticks = ((Value.DateTime) literal).ticks();
        if (ticks < MIN_TICKS || ticks > MAX_TICKS) {
          throw new IllegalArgumentException(
              "a datetime literal must lie in years 0001..9999: " + literal);
        }
      }
      default ->
          throw new IllegalArgumentException("a filter has no literal of type " + literal.type());
    }
  }

  /**
   * A datetime body: {@code yyyy-MM-ddTHH:mm[:ss[.f{1,7}]]} then {@code Z}, an offset {@code
   * ±hh:mm}, or nothing (UTC, as Azure's documentation writes them).
   */
  static Value.DateTime parseDateTime(String body) {
    Matcher m = DATETIME.matcher(body);
    if (!m.matches()) {
      return null;
    }
    try {
      LocalDateTime local =
          LocalDateTime.of(
              Integer.parseInt(m.group(1)),
              Integer.parseInt(m.group(2)),
              Integer.parseInt(m.group(3)),
              Integer.parseInt(m.group(4)),
              Integer.parseInt(m.group(5)),
              m.group(6) == null ? 0 : Integer.parseInt(m.group(6)));
      ZoneOffset offset =
          m.group(8) == null || m.group(8).equals("Z") ? ZoneOffset.UTC : ZoneOffset.of(m.group(8));
      long fraction = 0;
      if (m.group(7) != null) {
        String digits = (m.group(7) + "000000").substring(0, 7);
        fraction = Long.parseLong(digits);
      }
      long ticks = local.toEpochSecond(offset) * Value.DateTime.TICKS_PER_SECOND + fraction;
      return ticks < MIN_TICKS || ticks > MAX_TICKS || local.getYear() < 1
          ? null
          : new Value.DateTime(ticks);
    } catch (DateTimeException e) {
      return null;
    }
  }

  /** A guid body: the canonical 8-4-4-4-12 hex form, either case. */
  static Value.Guid parseGuid(String body) {
    return GUID.matcher(body).matches() ? new Value.Guid(UUID.fromString(body)) : null;
  }

  /**
   * A binary body: an even number of ASCII hex digits, either case (empty is an empty value). Not
   * {@link Character#digit}, which also takes other scripts' digits ('۰') that {@link HexFormat}
   * then refuses with an exception.
   */
  static Value.Binary parseBinary(String body) {
    if (body.length() % 2 != 0) {
      return null;
    }
    for (int i = 0; i < body.length(); i++) {
      if (!HexFormat.isHexDigit(body.charAt(i))) {
        return null;
      }
    }
    return new Value.Binary(HEX.parseHex(body));
  }

  /** The canonical text of a literal; parsing it gives an equal value back. */
  static String print(Value literal) {
    return switch (literal.type()) {
      case STRING -> "'" + ((Value.Str) literal).value().replace("'", "''") + "'";
      case BOOLEAN -> Boolean.toString(((Value.Bool) literal).value());
      case INT32 -> Integer.toString(((Value.Int32) literal).value());
      case INT64 -> ((Value.Int64) literal).value() + "L";
      case DOUBLE -> printDouble(((Value.Double) literal).value());
      case DECIMAL -> ((Value.Decimal) literal).text() + "M";
      case DATETIME -> "datetime'" + printDateTime(((Value.DateTime) literal).ticks()) + "'";
      case GUID -> "guid'" + ((Value.Guid) literal).value() + "'";
      case BINARY -> "X'" + HEX.formatHex(((Value.Binary) literal).value()) + "'";
      default ->
          throw new IllegalArgumentException("a filter has no literal of type " + literal.type());
    };
  }

  /**
   * Java's shortest round-tripping form, which always has a '.' or an exponent, so it reads back as
   * a double.
   */
  private static String printDouble(double d) {
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "INF" : "-INF";
    }
    return Double.toString(d);
  }

  /** {@code yyyy-MM-ddTHH:mm:ss[.fffffff]Z}, the fraction without trailing zeros. */
  static String printDateTime(long ticks) {
    String text =
        new Value.DateTime(ticks)
            .toIsoString(); // yyyy-MM-ddTHH:mm:ss.fffffffZ: literals lie in 0001..9999
    int end = text.length() - 1;
    while (text.charAt(end - 1) == '0') {
      end--;
    }
    if (text.charAt(end - 1) == '.') {
      end--;
    }
    return text.substring(0, end) + "Z";
  }
}
