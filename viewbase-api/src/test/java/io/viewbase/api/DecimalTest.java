package io.viewbase.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DecimalTest {
  @Test
  void decimalsEqualByNumericValue() {
    assertThat(Value.of(new BigDecimal("1.50"))).isEqualTo(Value.of(new BigDecimal("1.5")));
    assertThat(Value.of(new BigDecimal("1.50")).hashCode())
        .isEqualTo(Value.of(new BigDecimal("1.5")).hashCode());
    assertThat(Value.of(new BigDecimal("100"))).isEqualTo(Value.of(new BigDecimal("1E+2")));
    assertThat(Value.of(new BigDecimal("0.000"))).isEqualTo(Value.of(BigDecimal.ZERO));
    assertThat(Value.of(new BigDecimal("1.5"))).isNotEqualTo(Value.of(1.5));
    assertThat(((Value.Decimal) Value.of(new BigDecimal("12.500"))).value())
        .isEqualTo(new BigDecimal("12.5"));
    assertThat(Value.of(new BigDecimal("12.5")).type().edmName()).isEqualTo("Edm.Decimal");
  }

  @Test
  void textIsPlainWithoutTrailingZeros() {
    assertThat(Value.Decimal.parse("1.5E+3").text()).isEqualTo("1500");
    assertThat(Value.Decimal.parse("-1e-3").text()).isEqualTo("-0.001");
    assertThat(Value.Decimal.parse("+007.50").text()).isEqualTo("7.5");
    assertThat(Value.Decimal.parse(".5").text()).isEqualTo("0.5");
    assertThat(Value.Decimal.parse("5.").text()).isEqualTo("5");
    assertThat(Value.Decimal.parse("-0.0").text()).isEqualTo("0");
    assertThat(Value.Decimal.parse("12.5")).hasToString("Decimal[12.5]");
  }

  @Test
  void parseTakesDynamoDbsExtremes() {
    String digits38 = "9".repeat(38);
    assertThat(Value.Decimal.parse(digits38).text()).isEqualTo(digits38);
    assertThat(Value.Decimal.parse("1E-130").text()).isEqualTo("0." + "0".repeat(129) + "1");
    assertThat(Value.Decimal.parse("9.9999999999999999999999999999999999999E+125").value())
        .isEqualTo(new BigDecimal("9.9999999999999999999999999999999999999E+125"));
    assertThat(Value.Decimal.parse("-1E-400").text()).hasSize(403);
    assertThat(Value.Decimal.parse("9".repeat(100) + "E+300")).isNotNull();
  }

  @Test
  void parseRefusesTextThatIsNoNumber() {
    for (String text :
        new String[] {"", "-", ".", "1e", "1e+", "1.2.3", " 1", "1 ", "0x10", "NaN"}) {
      assertThatThrownBy(() -> Value.Decimal.parse(text))
          .as("'%s'", text)
          .isInstanceOf(ViewbaseException.class)
          .hasMessageContaining("digits with an optional sign");
    }
  }

  @Test
  void parseRefusesAbsurdExponentsQuickly() {
    for (String text :
        new String[] {"1E999999999", "1E-999999999", "1E99999999999999", "1E+401", "1E-401"}) {
      // only the parse is timed: expanding such a number would take minutes, so a bound far above
      // a loaded machine's pauses still catches it
      long start = System.nanoTime();
      Throwable thrown = catchThrowable(() -> Value.Decimal.parse(text));
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .as(text)
          .isLessThan(Duration.ofSeconds(10));
      assertThat(thrown)
          .as(text)
          .isInstanceOfSatisfying(
              ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.InvalidValue))
          .hasMessageContaining("exponent lies in -400..400");
    }
  }

  @Test
  void decimalsBeyondTheBoundsAreRefused() {
    assertThatThrownBy(() -> Value.Decimal.parse("1".repeat(101)))
        .hasMessageContaining("at most 100 significant digits");
    assertThatThrownBy(() -> Value.Decimal.parse("1".repeat(1025)))
        .hasMessageContaining("longer than 1024 characters");
    assertThatThrownBy(
            () -> new Value.Decimal(new BigDecimal(BigInteger.TEN.pow(100_000), 100_000)))
        .hasMessageContaining("at most 100 significant digits");
    assertThatThrownBy(() -> new Value.Decimal(null)).isInstanceOf(NullPointerException.class);
    // trailing zeros do not count
    assertThat(Value.Decimal.parse("1." + "0".repeat(500)).text()).isEqualTo("1");
  }
}
