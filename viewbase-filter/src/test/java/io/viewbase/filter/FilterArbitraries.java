package io.viewbase.filter;

import io.viewbase.api.Value;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

/**
 * Generators for the filter property tests: random ASTs and cheap filter-like text. They draw
 * straight from jqwik's {@link Random} (no shrinking) because jqwik's combinators cost about a
 * millisecond per recursive AST, and these tests run a hundred thousand tries each; a failure still
 * prints the seed and the failing sample.
 */
final class FilterArbitraries {
  /**
   * Names that stress the lexer: keyword prefixes, typed-literal prefixes, system names, Unicode.
   */
  private static final List<String> NAMES =
      List.of(
          "Age",
          "Name",
          "IsActive",
          "PartitionKey",
          "partitionKey",
          "RowKey",
          "id",
          "Timestamp",
          "_timestamp",
          "andy",
          "order",
          "notes",
          "eqx",
          "NaNa",
          "INFO",
          "X",
          "x",
          "datetime",
          "guid",
          "binary",
          "True",
          "AND",
          "_",
          "a1",
          "Straße",
          "日本",
          "nullable",
          "𝒳val");

  /**
   * Pieces of filter text, valid and broken, joined at random to make junk that is nearly a filter.
   */
  private static final List<String> PIECES =
      List.of(
          "Age",
          "Name",
          "PartitionKey",
          "eq",
          "ne",
          "gt",
          "ge",
          "lt",
          "le",
          "and",
          "or",
          "not",
          "(",
          ")",
          "((",
          "))",
          "'a'",
          "'",
          "''",
          "'it''s'",
          "3",
          "-",
          "-3",
          "3L",
          "3l",
          "1.5",
          "1e",
          "1e-5",
          "E",
          "L",
          ".",
          "2147483648",
          "9223372036854775808L",
          "1e999",
          "12.5M",
          "1m",
          "1e999M",
          "M",
          "datetime'",
          "datetime",
          "'2008-07-10T00:00:00Z'",
          "guid'",
          "c9da6455-213d-42c9-9a79-3e9149a57833",
          "X'",
          "binary'",
          "0a",
          "0a0",
          "true",
          "false",
          "null",
          "NaN",
          "INF",
          "-INF",
          "\"",
          "😀",
          "\uD800",
          "\uDC00",
          "\u0000",
          "\t",
          "\n",
          " ",
          "=",
          "&&",
          "$",
          "EQ",
          "And",
          "datetime'2008-07-10T00:00:00Z'",
          "X'0a'");

  private static final String[] SEPARATORS = {" ", " ", " ", "", "  "};
  private static final double[] SPECIAL_DOUBLES = {
    Double.NaN,
    Double.POSITIVE_INFINITY,
    Double.NEGATIVE_INFINITY,
    -0.0,
    0.0,
    Double.MIN_VALUE,
    Double.MAX_VALUE,
    -Double.MAX_VALUE,
    1e-5,
    0x1p63,
    9007199254740993.0
  };

  private FilterArbitraries() {}

  /** Strings mixing filter tokens and junk, up to 30 pieces. */
  static Arbitrary<String> filterishText() {
    return Arbitraries.randomValue(FilterArbitraries::filterishText);
  }

  /** Random filters up to depth 6 (at most 64 conditions). */
  static Arbitrary<Filter> filters() {
    return Arbitraries.randomValue(random -> filter(random, random.nextInt(7)));
  }

  static String filterishText(Random random) {
    StringBuilder sb = new StringBuilder();
    int pieces = random.nextInt(31);
    for (int i = 0; i < pieces; i++) {
      if (random.nextInt(7) == 0) {
        for (int n = random.nextInt(4); n > 0; n--) {
          sb.append((char) random.nextInt(Character.MAX_VALUE + 1));
        }
      } else {
        sb.append(PIECES.get(random.nextInt(PIECES.size())));
      }
      sb.append(SEPARATORS[random.nextInt(SEPARATORS.length)]);
    }
    return sb.toString();
  }

  static Filter filter(Random random, int depth) {
    int pick = random.nextInt(depth == 0 ? 10 : 13);
    return switch (pick) {
      case 10 -> new Filter.And(filter(random, depth - 1), filter(random, depth - 1));
      case 11 -> new Filter.Or(filter(random, depth - 1), filter(random, depth - 1));
      case 12 -> new Filter.Not(filter(random, depth - 1));
      case 9 -> new Filter.Constant(random.nextBoolean());
      case 8 -> new Filter.BoolProperty(name(random));
      default ->
          new Filter.Compare(name(random), Filter.Op.values()[random.nextInt(6)], literal(random));
    };
  }

  static String name(Random random) {
    if (random.nextBoolean()) {
      return NAMES.get(random.nextInt(NAMES.size()));
    }
    String alphabet = "abcxyzABCXYZ_0123456789éß";
    StringBuilder sb = new StringBuilder().append((char) ('a' + random.nextInt(26)));
    for (int n = random.nextInt(7); n > 0; n--) {
      sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    String name = sb.toString();
    return Names.isPropertyName(name) ? name : "p" + name;
  }

  static Value literal(Random random) {
    return switch (random.nextInt(11)) {
      case 0 -> new Value.Str(anyChars(random, random.nextInt(9)));
      case 1 -> new Value.Str(fromAlphabet(random, "'a ()\t", random.nextInt(7)));
      case 2 -> new Value.Bool(random.nextBoolean());
      case 3 ->
          new Value.Int32(random.nextBoolean() ? random.nextInt() : random.nextInt(200) - 100);
      case 4 ->
          new Value.Int64(random.nextBoolean() ? random.nextLong() : random.nextInt(200) - 100);
      case 5 ->
          new Value.Double(
              switch (random.nextInt(3)) {
                case 0 -> SPECIAL_DOUBLES[random.nextInt(SPECIAL_DOUBLES.length)];
                case 1 -> Double.longBitsToDouble(random.nextLong());
                default -> (random.nextDouble() - 0.5) * 1000;
              });
      case 6 ->
          new Value.DateTime(
              Literals.MIN_TICKS
                  + Math.floorMod(random.nextLong(), Literals.MAX_TICKS - Literals.MIN_TICKS + 1));
      case 7 -> new Value.Guid(new UUID(random.nextLong(), random.nextLong()));
      case 8 -> decimal(random);
      default -> {
        byte[] bytes = new byte[random.nextInt(7)];
        random.nextBytes(bytes);
        yield new Value.Binary(bytes);
      }
    };
  }

  /** A decimal of 1..100 digits, exponent -400..400, either sign, sometimes a small one. */
  static Value decimal(Random random) {
    int digits = random.nextBoolean() ? 1 + random.nextInt(3) : 1 + random.nextInt(100);
    StringBuilder sb = new StringBuilder(random.nextBoolean() ? "-" : "");
    sb.append((char) ('1' + random.nextInt(9)));
    for (int i = 1; i < digits; i++) {
      sb.append((char) ('0' + random.nextInt(10)));
    }
    int exponent = random.nextBoolean() ? random.nextInt(11) - 5 : random.nextInt(801) - 400;
    return Value.Decimal.parse(sb.append('E').append(exponent - digits + 1).toString());
  }

  private static String anyChars(Random random, int length) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < length; i++) {
      sb.append((char) random.nextInt(Character.MAX_VALUE + 1));
    }
    return sb.toString();
  }

  private static String fromAlphabet(Random random, String alphabet, int length) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < length; i++) {
      sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return sb.toString();
  }
}
