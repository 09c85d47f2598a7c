package io.viewbase.server.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Value;
import io.viewbase.server.dynamodb.model.AttributeValue;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TtlAttributeTest {
  private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");

  private static Value.DateTime expiry(AttributeValue v) {
    return TtlAttribute.expiry(v, NOW);
  }

  @Test
  void epochSecondsAreTheAbsoluteTimeToTheTick() {
    long in = NOW.plusSeconds(3600).getEpochSecond();
    assertThat(expiry(AttributeValue.N.of(in)))
        .isEqualTo(Value.DateTime.of(Instant.ofEpochSecond(in)));
    assertThat(expiry(new AttributeValue.N(new BigDecimal(in + ".12345678"))))
        .isEqualTo(Value.DateTime.of(Instant.ofEpochSecond(in, 123_456_700)));
    // a time already past still expires the item: at once
    assertThat(expiry(AttributeValue.N.of(NOW.getEpochSecond() - 60))).isNotNull();
  }

  @Test
  void valuesDynamoDbIgnoresGiveNoTime() {
    long fiveYearsAgo = NOW.minus(TtlAttribute.IGNORED_BEFORE).getEpochSecond();
    assertThat(expiry(AttributeValue.N.of(fiveYearsAgo))).isNotNull();
    assertThat(expiry(AttributeValue.N.of(fiveYearsAgo - 1))).isNull();
    assertThat(expiry(AttributeValue.N.of(-1))).isNull();
    assertThat(expiry(AttributeValue.N.of(TtlAttribute.MAX_SECONDS))).isNotNull();
    assertThat(expiry(AttributeValue.N.of(TtlAttribute.MAX_SECONDS + 1))).isNull();
    assertThat(expiry(AttributeValue.N.of(NOW.toEpochMilli()))).isNull(); // milliseconds
    assertThat(expiry(new AttributeValue.S(Long.toString(NOW.getEpochSecond())))).isNull();
    assertThat(expiry(null)).isNull();
    assertThat(TtlAttribute.IGNORED_BEFORE).isGreaterThan(Duration.ofDays(5 * 365));
  }

  @Test
  void timeIgnoresBoundsButNotTypes() {
    assertThat(TtlAttribute.time(AttributeValue.N.of(-1)))
        .isEqualTo(Value.DateTime.of(Instant.ofEpochSecond(-1)));
    assertThat(TtlAttribute.time(new AttributeValue.SS(java.util.Set.of("1")))).isNull();
    assertThat(TtlAttribute.time(new AttributeValue.L(List.of()))).isNull();
  }
}
