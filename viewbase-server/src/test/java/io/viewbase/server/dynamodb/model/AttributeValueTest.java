package io.viewbase.server.dynamodb.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class AttributeValueTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "1.50, 1.5",
    "+1.5, 1.5",
    ".5, 0.5",
    "0000.50, 0.5",
    "1E+2, 100",
    "1e2, 100",
    "-1.5e1, -15",
    "-0, 0",
    "0e1000, 0",
    "0.000, 0",
    "1., 1",
    "-17.4E37, -174000000000000000000000000000000000000",
    "12345678901234567890123456789012345678, 12345678901234567890123456789012345678",
    "1234567890123456789012345678901234567800000, 1234567890123456789012345678901234567800000",
    "0.00012345678901234567890123456789012345678, 0.00012345678901234567890123456789012345678",
    "9.9999999999999999999999999999999999999E+125, "
        + "999999999999999999999999999999999999990000000000000000000000000000000000000000000000000"
        + "000000000000000000000000000000000000000",
  })
  void numberParseGivesTheCanonicalText(String text, String canonical) {
    assertThat(AttributeValue.N.parse(text).text()).isEqualTo(canonical);
  }

  @Test
  void numberAtTheSmallestMagnitudeIsPlainText() {
    assertThat(AttributeValue.N.parse("1E-130").text()).isEqualTo("0." + "0".repeat(129) + "1");
    assertThat(AttributeValue.N.parse("-1E-130").text()).isEqualTo("-0." + "0".repeat(129) + "1");
    assertThat(AttributeValue.N.parse("1e125").text()).isEqualTo("1" + "0".repeat(125));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "1e126 | Number overflow. Attempting to store a number with magnitude larger than supported range",
        "-1e126 | Number overflow. Attempting to store a number with magnitude larger than supported range",
        "11e125 | Number overflow. Attempting to store a number with magnitude larger than supported range",
        "1e99999999999999999999 | Number overflow. Attempting to store a number with magnitude larger than supported range",
        "1e-131 | Number underflow. Attempting to store a number with magnitude smaller than supported range",
        "0.9e-130 | Number underflow. Attempting to store a number with magnitude smaller than supported range",
        "-1e-99999999999999999999 | Number underflow. Attempting to store a number with magnitude smaller than supported range",
        "123456789012345678901234567890123456789 | Attempting to store more than 38 significant digits in a Number",
        "-1.23456789012345678901234567890123456789 | Attempting to store more than 38 significant digits in a Number",
        "b | The parameter cannot be converted to a numeric value: b",
        "NaN | The parameter cannot be converted to a numeric value: NaN",
        "Infinity | The parameter cannot be converted to a numeric value: Infinity",
        "' 1' | The parameter cannot be converted to a numeric value:  1",
        "'1 ' | 'The parameter cannot be converted to a numeric value: 1 '",
        ". | The parameter cannot be converted to a numeric value: .",
        "- | The parameter cannot be converted to a numeric value: -",
        "1e | The parameter cannot be converted to a numeric value: 1e",
        "1e+ | The parameter cannot be converted to a numeric value: 1e+",
        "1.2.3 | The parameter cannot be converted to a numeric value: 1.2.3",
        "0x10 | The parameter cannot be converted to a numeric value: 0x10",
        "++1 | The parameter cannot be converted to a numeric value: ++1",
      })
  void numberParseRefusesWithDynamoDbsMessage(String text, String message) {
    assertThatThrownBy(() -> AttributeValue.N.parse(text))
        .isInstanceOfSatisfying(
            ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.InvalidInput))
        .hasMessage(message);
  }

  @Test
  void numberParseOfEmptyTextNamesNoValue() {
    assertThatThrownBy(() -> AttributeValue.N.parse(""))
        .hasMessage("The parameter cannot be converted to a numeric value");
  }

  @Test
  void numberParseOfAMillionZerosIsQuickAndExact() {
    String zeros = "0".repeat(1_000_000);
    assertThat(AttributeValue.N.parse(zeros + "1.5" + zeros).text()).isEqualTo("1.5");
    assertThatThrownBy(() -> AttributeValue.N.parse("1" + zeros))
        .hasMessageStartingWith("Number overflow");
  }

  @Test
  void numbersEqualByValue() {
    assertThat(AttributeValue.N.parse("1.50")).isEqualTo(AttributeValue.N.parse("15e-1"));
    assertThat(AttributeValue.N.parse("1.50").hashCode())
        .isEqualTo(AttributeValue.N.parse("1.5").hashCode());
    assertThat(new AttributeValue.N(new BigDecimal("100")))
        .isEqualTo(AttributeValue.N.parse("1E2"));
    assertThat(new AttributeValue.N(new BigDecimal("-0.000"))).isEqualTo(AttributeValue.N.of(0));
  }

  @Test
  void numberFromArithmeticIsCheckedLikeText() {
    BigDecimal big = new BigDecimal("9e125");
    assertThatThrownBy(() -> new AttributeValue.N(big.add(big)))
        .hasMessageStartingWith("Number overflow");
    assertThatThrownBy(() -> new AttributeValue.N(new BigDecimal("1e50").add(BigDecimal.ONE)))
        .hasMessage("Attempting to store more than 38 significant digits in a Number");
  }

  /** Any number in range, written in exponent form, reads back as its plain canonical text. */
  @Test
  void randomNumbersRoundTripThroughTheirCanonicalText() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (int i = 0; i < 2000; i++) {
      int digits = 1 + random.nextInt(38);
      BigInteger unscaled = new BigInteger(digits * 4, random);
      if (unscaled.signum() == 0) {
        continue;
      }
      if (random.nextBoolean()) {
        unscaled = unscaled.negate();
      }
      BigDecimal value = new BigDecimal(unscaled, random.nextInt(300) - 150);
      long adjusted = (long) value.precision() - value.scale() - 1;
      if (value.stripTrailingZeros().precision() > 38 || adjusted > 125 || adjusted < -130) {
        continue;
      }
      String context = "seed " + seed + ", value " + value;
      AttributeValue.N n = AttributeValue.N.parse(value.toString());
      assertThat(n.value().compareTo(value)).as(context).isZero();
      assertThat(n.text()).as(context).isEqualTo(value.stripTrailingZeros().toPlainString());
      assertThat(AttributeValue.N.parse(n.text())).as(context).isEqualTo(n);
      assertThat(AttributeValue.N.parse(value.toEngineeringString())).as(context).isEqualTo(n);
    }
  }

  @Test
  void binaryEqualsByContentAndCopiesItsBytes() {
    byte[] bytes = {1, 2, 3};
    AttributeValue.B b = new AttributeValue.B(bytes);
    bytes[0] = 9;
    assertThat(b).isEqualTo(new AttributeValue.B(new byte[] {1, 2, 3}));
    assertThat(b.hashCode()).isEqualTo(new AttributeValue.B(new byte[] {1, 2, 3}).hashCode());
    b.value()[0] = 9;
    assertThat(b.value()).containsExactly(1, 2, 3);
    assertThat(b.base64()).isEqualTo("AQID");
  }

  @Test
  void binaryOrderIsUnsigned() {
    AttributeValue.B low = new AttributeValue.B(new byte[] {0x7f});
    AttributeValue.B high = new AttributeValue.B(new byte[] {(byte) 0x80});
    assertThat(low.compareTo(high)).isNegative();
    assertThat(
            new AttributeValue.B(new byte[] {1}).compareTo(new AttributeValue.B(new byte[] {1, 0})))
        .isNegative();
  }

  @Test
  void setsEqualIgnoringOrder() {
    assertThat(AttributeValue.SS.of("a", "b")).isEqualTo(AttributeValue.SS.of("b", "a"));
    assertThat(new AttributeValue.NS(Set.of(new BigDecimal("1.0"), new BigDecimal("2"))))
        .isEqualTo(new AttributeValue.NS(Set.of(new BigDecimal("2.00"), BigDecimal.ONE)));
    Set<AttributeValue.B> ab = new LinkedHashSet<>();
    ab.add(new AttributeValue.B(new byte[] {1}));
    ab.add(new AttributeValue.B(new byte[] {2}));
    List<AttributeValue.B> reversed = new java.util.ArrayList<>(ab);
    java.util.Collections.reverse(reversed);
    Set<AttributeValue.B> ba = new LinkedHashSet<>(reversed);
    assertThat(new AttributeValue.BS(ab)).isEqualTo(new AttributeValue.BS(ba));
  }

  @Test
  void emptySetsAreRefusedWithDynamoDbsMessages() {
    assertThatThrownBy(() -> new AttributeValue.SS(Set.of()))
        .hasMessage("One or more parameter values were invalid: An string set  may not be empty");
    assertThatThrownBy(() -> new AttributeValue.NS(Set.of()))
        .hasMessage("One or more parameter values were invalid: An number set  may not be empty");
    assertThatThrownBy(() -> new AttributeValue.BS(Set.of()))
        .hasMessage("One or more parameter values were invalid: Binary sets should not be empty");
  }

  @ParameterizedTest
  @ValueSource(strings = {"S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS"})
  void everyTypeNamesItsDescriptor(String type) {
    AttributeValue value =
        switch (type) {
          case "S" -> new AttributeValue.S("");
          case "N" -> AttributeValue.N.of(1);
          case "B" -> new AttributeValue.B(new byte[0]);
          case "BOOL" -> AttributeValue.Bool.TRUE;
          case "NULL" -> AttributeValue.Null.INSTANCE;
          case "M" -> new AttributeValue.M(java.util.Map.of());
          case "L" -> new AttributeValue.L(List.of());
          case "SS" -> AttributeValue.SS.of("a");
          case "NS" -> new AttributeValue.NS(Set.of(BigDecimal.ONE));
          default -> new AttributeValue.BS(Set.of(new AttributeValue.B(new byte[] {1})));
        };
    assertThat(value.type()).isEqualTo(type);
  }
}
