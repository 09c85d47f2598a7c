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
}
