package io.viewbase.json;

import io.viewbase.api.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

/** Decimals across {@link Value.Decimal}'s bounds: 1..100 digits, exponents -400..400, signs. */
final class DecimalArbitraries {
  private DecimalArbitraries() {}

  static Arbitrary<Value> decimals() {
    Arbitrary<String> digits =
        Arbitraries.oneOf(
            Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(100),
            Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(4));
    Arbitrary<Integer> exponents =
        Arbitraries.oneOf(
            Arbitraries.integers().between(-400, 400), Arbitraries.integers().between(-5, 5));
    return net.jqwik.api.Combinators.combine(digits, exponents, Arbitraries.of(1, -1))
        .as(
            (d, exponent, sign) -> {
              BigInteger unscaled = new BigInteger(d);
              int precision = unscaled.toString().length();
              return Value.of(
                  new BigDecimal(
                      sign < 0 ? unscaled.negate() : unscaled, precision - 1 - exponent));
            });
  }
}
