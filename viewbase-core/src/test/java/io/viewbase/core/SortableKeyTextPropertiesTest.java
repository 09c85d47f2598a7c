package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.viewbase.api.KeyText;
import io.viewbase.api.Limits;
import io.viewbase.api.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link KeyText#sortable} against independent reference orders: code points (UTF-8 bytes) for
 * strings, exact {@link BigDecimal} arithmetic for numbers of every type, unsigned bytes for
 * binaries. Renderings are compared as keys are stored, by their UTF-8 bytes (Java's {@code
 * String.compareTo} is UTF-16 order, which differs for supplementary characters), and must pass the
 * key rules of {@link ItemRules}.
 */
class SortableKeyTextPropertiesTest {
  /** The key rules, with room for keys joined from long renderings (a subnormal double's). */
  private static final ItemRules RULES =
      new ItemRules(
          new Limits(
              1 << 16,
              Limits.DEFAULT.maxItemBytes(),
              Limits.DEFAULT.maxProperties(),
              Limits.DEFAULT.maxPropertyNameLength(),
              Limits.DEFAULT.maxNestingDepth(),
              Limits.DEFAULT.maxPageSize()));

  @Property(tries = 20_000)
  void renderingsSortAsTheirValues(@ForAll("values") Value a, @ForAll("values") Value b) {
    String ra = KeyText.sortable(a);
    String rb = KeyText.sortable(b);
    int expected = reference(a, b);
    assertThat(compareUtf8(ra, rb)).as("%s vs %s: '%s' vs '%s'", a, b, ra, rb).isEqualTo(expected);
    assertThat(ra.equals(rb)).isEqualTo(expected == 0);
  }

  @Property(tries = 10_000)
  void joinedRenderingsSortAsTheTuple(
      @ForAll("values") Value a1,
      @ForAll("values") Value b1,
      @ForAll("values") Value a2,
      @ForAll("values") Value b2) {
    int first = reference(a1, a2);
    int expected = first != 0 ? first : reference(b1, b2);
    String k1 = KeyText.sortable(a1) + KeyText.sortable(b1);
    String k2 = KeyText.sortable(a2) + KeyText.sortable(b2);
    assertThat(compareUtf8(k1, k2))
        .as("(%s, %s) vs (%s, %s): '%s' vs '%s'", a1, b1, a2, b2, k1, k2)
        .isEqualTo(expected);
  }

  @Property(tries = 10_000)
  void noRenderingBeginsAnotherValuesRendering(
      @ForAll("values") Value a, @ForAll("values") Value b) {
    String ra = KeyText.sortable(a);
    String rb = KeyText.sortable(b);
    if (!ra.equals(rb)) {
      assertThat(ra.startsWith(rb) || rb.startsWith(ra)).as("'%s' and '%s'", ra, rb).isFalse();
    }
  }

  @Property(tries = 10_000)
  void everyRenderingAndJoinOfRenderingsIsAValidKey(
      @ForAll("values") Value a, @ForAll("values") Value b) {
    String joined = KeyText.sortable(a) + KeyText.sortable(b);
    assertThatCode(() -> RULES.checkKey("id", joined))
        .as("'%s'", joined)
        .doesNotThrowAnyException();
  }

  @Property(tries = 10_000)
  void aStringBeginsWithAPrefixExactlyWhenItsKeysBeginWithTheSortablePrefix(
      @ForAll("prefixPairs") List<String> pair, @ForAll("values") Value next) {
    String s = pair.get(0);
    String p = pair.get(1);
    String prefix = KeyText.sortablePrefix(Value.of(p));
    assertThat(KeyText.sortable(Value.of(s)).startsWith(prefix))
        .as("'%s' begins with '%s'", s, p)
        .isEqualTo(s.startsWith(p));
    assertThat((KeyText.sortable(Value.of(s)) + KeyText.sortable(next)).startsWith(prefix))
        .isEqualTo(s.startsWith(p));
    assertThat(KeyText.sortable(Value.of(p))).isEqualTo(prefix + KeyText.TERMINATOR);
  }

  @Property(tries = 5_000)
  void aBinaryBeginsWithAPrefixExactlyWhenItsKeysBeginWithTheSortablePrefix(
      @ForAll("binaries") byte[] b, @ForAll("binaries") byte[] p, @ForAll("values") Value next) {
    boolean begins = p.length <= b.length && Arrays.equals(Arrays.copyOf(b, p.length), p);
    String prefix = KeyText.sortablePrefix(Value.of(p));
    assertThat((KeyText.sortable(Value.of(b)) + KeyText.sortable(next)).startsWith(prefix))
        .isEqualTo(begins);
  }

  @Property(tries = 5_000)
  void keysAfterEveryKeyThatBeginsWithAStringStartAtItsPrefixAndTheCharacterAfterTheTerminator(
      @ForAll("strings") String s, @ForAll("values") Value other, @ForAll("values") Value next) {
    // the bound DynamoDB's "greater than s" needs when more renderings follow s
    String bound = KeyText.sortablePrefix(Value.of(s)) + (char) (KeyText.TERMINATOR + 1);
    String key = KeyText.sortable(other) + KeyText.sortable(next);
    boolean greater = reference(other, Value.of(s)) > 0;
    assertThat(compareUtf8(key, bound) >= 0)
        .as("'%s' vs bound '%s'", key, bound)
        .isEqualTo(greater);
  }

  @Property(tries = 2_000)
  void everyFiniteDoubleRendersBelowTheNextAndTheOthersDoNot(@ForAll double d) {
    String r = KeyText.sortable(Value.of(d));
    if (!Double.isFinite(d)) {
      assertThat(r).isNull();
      return;
    }
    assertThat(r).isNotNull();
    double up = Math.nextUp(d);
    if (Double.isFinite(up)) {
      assertThat(compareUtf8(r, KeyText.sortable(Value.of(up)))).isEqualTo(-1);
    }
    if (d == Math.rint(d) && Math.abs(d) < 0x1p63) {
      assertThat(r).isEqualTo(KeyText.sortable(Value.of((long) d)));
    }
  }

  @Provide
  Arbitrary<Value> values() {
    return Arbitraries.oneOf(
        strings().map(Value::of), binaries().map(Value::of), numbers(), numbers(), numbers());
  }

  /**
   * Strings that meet every case of the escape: the escaped low and high characters, the escape
   * characters themselves, the terminator, characters either side of them, U+E000..U+FFFF and
   * supplementary characters (where UTF-16 order differs), drawn from small sets so that prefixes
   * and equal strings are frequent.
   */
  @Provide
  Arbitrary<String> strings() {
    Arbitrary<Integer> special =
        Arbitraries.of(
            0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x40, 0x41, 0x61, 0x7D, 0x7E, 0x7F, 0x80,
            0x9F, 0xA0, 0xFF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF);
    Arbitrary<Integer> any =
        Arbitraries.oneOf(
                Arbitraries.integers().between(0, 0xFF),
                Arbitraries.integers().between(0x100, 0xFFFF),
                Arbitraries.integers().between(0x10000, 0x10FFFF))
            .filter(cp -> cp < 0xD800 || cp > 0xDFFF);
    return Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(3, special), net.jqwik.api.Tuple.of(1, any))
        .list()
        .ofMaxSize(5)
        .map(SortableKeyTextPropertiesTest::fromCodePoints);
  }

  /** A string and, mostly, one of its prefixes (else another string). */
  @Provide
  Arbitrary<List<String>> prefixPairs() {
    return Combinators.combine(strings(), strings(), Arbitraries.integers().between(0, 5))
        .as(
            (s, other, cut) -> {
              if (cut == 5) {
                return List.of(s, other);
              }
              int[] cps = s.codePoints().toArray();
              int n = Math.min(cut, cps.length);
              return List.of(s, fromCodePoints(Arrays.stream(cps, 0, n).boxed().toList()));
            });
  }

  @Provide
  Arbitrary<byte[]> binaries() {
    return Arbitraries.oneOf(
            Arbitraries.of(
                (byte) 0,
                (byte) 1,
                (byte) 0x0f,
                (byte) 0x10,
                (byte) 0x7f,
                (byte) 0x80,
                (byte) 0xff),
            Arbitraries.bytes())
        .array(byte[].class)
        .ofMaxSize(4);
  }

  /**
   * Numbers of every type, mixed: equal values in several types (5, 5L, 5.0, 5.000M), decimals of
   * up to 38 digits across DynamoDB's exponents and of up to 100 across Viewbase's, negatives and
   * zero (-0.0 too), random and extreme doubles and longs.
   */
  @Provide
  Arbitrary<Value> numbers() {
    Arbitrary<Long> small = Arbitraries.longs().between(-12, 12);
    return Arbitraries.oneOf(
        small.map(l -> Value.of((int) (long) l)),
        small.map(Value::of),
        small.map(l -> Value.of((double) l)),
        small.map(l -> Value.of(BigDecimal.valueOf(l).setScale(3))),
        small.map(l -> Value.of(BigDecimal.valueOf(l, 1))),
        small.map(l -> Value.of(l / 8.0)),
        Arbitraries.integers().map(Value::of),
        Arbitraries.longs().map(Value::of),
        Arbitraries.of(Long.MIN_VALUE, Long.MAX_VALUE, 1L << 53, (1L << 53) + 1).map(Value::of),
        Arbitraries.doubles().map(Value::of),
        Arbitraries.longs().map(Double::longBitsToDouble).filter(Double::isFinite).map(Value::of),
        Arbitraries.of(
                -0.0,
                0.1,
                1e308,
                -1e308,
                Double.MAX_VALUE,
                Double.MIN_VALUE,
                -Double.MIN_VALUE,
                Double.MIN_NORMAL,
                0x1p63,
                9007199254740993.0)
            .map(Value::of),
        decimals(38, -130, 125),
        decimals(100, -400, 400),
        Arbitraries.of(
                "0.1",
                "-0.1",
                "1E-130",
                "9.9999999999999999999999999999999999999E+125",
                "-9.9999999999999999999999999999999999999E+125",
                "1E-400",
                "-9.99E+400")
            .map(t -> Value.of(new BigDecimal(t))));
  }

  private static Arbitrary<Value> decimals(int maxDigits, int minExponent, int maxExponent) {
    return Combinators.combine(
            Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(maxDigits),
            Arbitraries.integers().between(minExponent, maxExponent),
            Arbitraries.of(1, -1))
        .as(
            (digits, exponent, sign) -> {
              BigInteger unscaled = new BigInteger(digits);
              int precision = unscaled.signum() == 0 ? 1 : unscaled.toString().length();
              return Value.of(
                  new BigDecimal(
                      sign < 0 ? unscaled.negate() : unscaled, precision - 1 - exponent));
            });
  }

  /**
   * The reference order: in one key position of mixed types, the empty string first, then binaries,
   * numbers and the other strings ({@link KeyText#sortable}'s documented choice).
   */
  private static int reference(Value a, Value b) {
    int ra = rank(a);
    int rb = rank(b);
    if (ra != rb) {
      return Integer.compare(ra, rb);
    }
    return switch (ra) {
      case 0 -> 0;
      case 1 ->
          Integer.signum(
              Arrays.compareUnsigned(((Value.Binary) a).value(), ((Value.Binary) b).value()));
      case 2 -> Integer.signum(exact(a).compareTo(exact(b)));
      default ->
          Integer.signum(
              Arrays.compareUnsigned(
                  ((Value.Str) a).value().getBytes(StandardCharsets.UTF_8),
                  ((Value.Str) b).value().getBytes(StandardCharsets.UTF_8)));
    };
  }

  private static int rank(Value v) {
    if (v instanceof Value.Str s) {
      return s.value().isEmpty() ? 0 : 3;
    }
    return v instanceof Value.Binary ? 1 : 2;
  }

  private static BigDecimal exact(Value v) {
    return switch (v.type()) {
      case INT32 -> BigDecimal.valueOf(((Value.Int32) v).value());
      case INT64 -> BigDecimal.valueOf(((Value.Int64) v).value());
      case DOUBLE -> new BigDecimal(((Value.Double) v).value());
      case DECIMAL -> ((Value.Decimal) v).value();
      default -> throw new IllegalArgumentException(v.toString());
    };
  }

  private static int compareUtf8(String a, String b) {
    return Integer.signum(
        Arrays.compareUnsigned(
            a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
  }

  private static String fromCodePoints(List<Integer> codePoints) {
    StringBuilder sb = new StringBuilder();
    codePoints.forEach(sb::appendCodePoint);
    return sb.toString();
  }
}
