package io.viewbase.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KeyTextTest {
  @Test
  void ofPadsIntegersAfterTheSignAndOtherTextOnlyThroughPad() {
    assertThat(KeyText.of(Value.of(42), 6)).isEqualTo("42");
    assertThat(KeyText.of(Value.of(-42), 6)).isEqualTo("-00042");
    assertThat(KeyText.of(new Value.Int32(-42), 0)).isEqualTo("-42");
    assertThat(KeyText.pad(new StringBuilder("k#"), "42", 6)).hasToString("k#000042");
    assertThat(KeyText.pad(new StringBuilder(), "-00042", 6)).hasToString("-00042");
    assertThat(KeyText.pad(new StringBuilder(), "toolong", 3)).hasToString("toolong");
  }

  @Test
  void ofIsNullForValuesWithoutKeyText() {
    for (Value none :
        List.of(
            Value.nullValue(),
            Value.of(new byte[] {1}),
            new Value.Obj(Map.of()),
            new Value.Arr(List.of()))) {
      assertThat(KeyText.of(none, 0)).as(none.toString()).isNull();
    }
    assertThat(KeyText.of(null, 0)).isNull();
  }

  @Test
  void ofWritesADecimalInPlainTextPaddedAfterItsSign() {
    assertThat(KeyText.of(Value.of(new BigDecimal("12.50")), 0)).isEqualTo("12.5");
    assertThat(KeyText.of(Value.of(new BigDecimal("1E+2")), 0)).isEqualTo("100");
    assertThat(KeyText.of(Value.of(new BigDecimal("-0.001")), 0)).isEqualTo("-0.001");
    assertThat(KeyText.of(Value.of(new BigDecimal("0.000")), 0)).isEqualTo("0");
    assertThat(KeyText.of(Value.of(new BigDecimal("-12.5")), 8)).isEqualTo("-00012.5");
    assertThat(KeyText.of(Value.of(new BigDecimal("1E+400")), 0)).hasSize(401);
  }

  @Test
  void sortableRendersTheDocumentedText() {
    assertThat(KeyText.sortable(Value.of("user#123"))).isEqualTo("user#123 ");
    assertThat(KeyText.sortable(Value.of(""))).isEqualTo(" ");
    assertThat(KeyText.sortable(Value.of("a b"))).isEqualTo("a!`b ");
    assertThat(KeyText.sortable(Value.of("!~\u0000\u007f\u009f"))).isEqualTo("!a~@!@~A~a ");
    assertThat(KeyText.sortable(Value.of("😀"))).isEqualTo("😀 ");
    assertThat(KeyText.sortable(Value.of(new byte[] {0x0a, (byte) 0xff}))).isEqualTo("!#0aff ");
    assertThat(KeyText.sortable(Value.of(new byte[0]))).isEqualTo("!# ");
    assertThat(KeyText.sortable(Value.of(new BigDecimal("12.5")))).isEqualTo("!>502125 ");
    assertThat(KeyText.sortable(Value.of(1))).isEqualTo("!>5011 ");
    assertThat(KeyText.sortable(Value.of(100L))).isEqualTo("!>5031 ");
    assertThat(KeyText.sortable(Value.of(0.001))).startsWith("!>4981").endsWith(" ");
    assertThat(KeyText.sortable(Value.of(new BigDecimal("0.001")))).isEqualTo("!>4981 ");
    assertThat(KeyText.sortable(Value.of(-12.5))).isEqualTo("!<497874~");
    assertThat(KeyText.sortable(Value.of(-1))).isEqualTo("!<4988~");
    assertThat(KeyText.sortable(Value.of(0))).isEqualTo("!=");
    assertThat(KeyText.sortable(Value.of(-0.0))).isEqualTo("!=");
  }

  @Test
  void sortableRendersEqualNumbersOfEveryTypeAlike() {
    String five = KeyText.sortable(Value.of(5));
    assertThat(KeyText.sortable(Value.of(5L))).isEqualTo(five);
    assertThat(KeyText.sortable(Value.of(5.0))).isEqualTo(five);
    assertThat(KeyText.sortable(Value.of(new BigDecimal("5.000")))).isEqualTo(five);
    assertThat(KeyText.sortable(Value.of(new BigDecimal("5E0")))).isEqualTo(five);
    assertThat(KeyText.sortable(Value.of(Long.MIN_VALUE)))
        .isEqualTo(KeyText.sortable(Value.of(new BigDecimal(Long.MIN_VALUE))));
    // 0.1 as a double is not the decimal 0.1: it is a little more, and renders so
    assertThat(KeyText.sortable(Value.of(0.1)))
        .isEqualTo(KeyText.sortable(Value.of(new BigDecimal(0.1))))
        .isGreaterThan(KeyText.sortable(Value.of(new BigDecimal("0.1"))));
  }

  @Test
  void sortableCoversEveryFiniteDoubleAndTheDecimalBounds() {
    for (double d : new double[] {Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_VALUE, 1e308}) {
      assertThat(KeyText.sortable(Value.of(d))).as("%s", d).isNotNull();
    }
    assertThat(KeyText.sortable(Value.of(Double.MIN_VALUE))).hasSizeLessThan(780);
    assertThat(KeyText.sortable(Value.of(new BigDecimal("1E-400")))).isEqualTo("!>1011 ");
    assertThat(KeyText.sortable(Value.of(new BigDecimal("9.99E+400")))).isEqualTo("!>901999 ");
  }

  @Test
  void sortableIsNullForValuesWithoutOrderOrKeys() {
    for (Value none :
        List.of(
            Value.of(Double.NaN),
            Value.of(Double.POSITIVE_INFINITY),
            Value.of(Double.NEGATIVE_INFINITY),
            Value.of(true),
            Value.of(java.time.Instant.EPOCH),
            Value.of(java.util.UUID.randomUUID()),
            Value.nullValue(),
            new Value.Obj(Map.of()),
            new Value.Arr(List.of()))) {
      assertThat(KeyText.sortable(none)).as(none.toString()).isNull();
    }
    assertThat(KeyText.sortable(null)).isNull();
  }

  @Test
  void sortablePrefixIsTheRenderingWithoutItsTerminatorForStringsAndBinaries() {
    assertThat(KeyText.sortablePrefix(Value.of("us er"))).isEqualTo("us!`er");
    assertThat(KeyText.sortablePrefix(Value.of(new byte[] {1}))).isEqualTo("!#01");
    assertThat(KeyText.sortablePrefix(Value.of(5))).isNull();
    assertThat(KeyText.sortablePrefix(null)).isNull();
    assertThat(KeyText.TERMINATOR).isEqualTo(' ');
  }
}
