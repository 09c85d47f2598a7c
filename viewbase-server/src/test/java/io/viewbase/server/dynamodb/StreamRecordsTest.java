package io.viewbase.server.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.server.dynamodb.DynamoDbTable.AttributeType;
import io.viewbase.server.dynamodb.model.AttributeValue;
import java.math.BigDecimal;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class StreamRecordsTest {
  @Test
  void keyValuesReadBackFromTheirKeyText() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    List<String> numbers =
        List.of(
            "0",
            "1",
            "-1",
            "12.5",
            "-12.5",
            "100",
            "0.001",
            "-0.000000000000000000000000000000000001",
            "12345678901234567890123456789012345678",
            "9.99E+125",
            "-1E-130");
    for (String text : numbers) {
      AttributeValue n = AttributeValue.N.parse(text);
      assertThat(StreamRecords.keyValue(AttributeType.N, DynamoDbKeys.keyText(n)))
          .as(text)
          .isEqualTo(n);
    }
    for (int i = 0; i < 1000; i++) {
      BigDecimal d = new BigDecimal(random.nextLong()).scaleByPowerOfTen(random.nextInt(60) - 30);
      AttributeValue n = new AttributeValue.N(d);
      assertThat(StreamRecords.keyValue(AttributeType.N, DynamoDbKeys.keyText(n)))
          .as("seed %d, %s", seed, d)
          .isEqualTo(n);
      byte[] bytes = new byte[random.nextInt(8) + 1];
      random.nextBytes(bytes);
      AttributeValue b = new AttributeValue.B(bytes);
      assertThat(StreamRecords.keyValue(AttributeType.B, DynamoDbKeys.keyText(b)))
          .as("seed %d", seed)
          .isEqualTo(b);
    }
    assertThat(StreamRecords.keyValue(AttributeType.S, "a b"))
        .isEqualTo(new AttributeValue.S("a b"));
    assertThat(StreamRecords.keyValue(AttributeType.N, "not key text")).isNull();
    assertThat(StreamRecords.keyValue(AttributeType.B, "!>5011 ")).isNull();
  }

  @Test
  void sequenceNumbersAreTwentyOneDigitsAndReadBack() {
    assertThat(StreamNames.sequenceNumber(42)).isEqualTo("100000000000000000042");
    assertThat(StreamNames.feedSequence("100000000000000000042")).hasValue(42);
    assertThat(StreamNames.feedSequence("100000000000000000000")).isEmpty();
    assertThat(StreamNames.feedSequence("42")).isEmpty();
    assertThat(StreamNames.feedSequence("1000000000000000000x2")).isEmpty();
    assertThat(StreamNames.feedSequence(StreamNames.sequenceNumber(Long.MAX_VALUE)))
        .hasValue(Long.MAX_VALUE);
    assertThat(StreamNames.feedSequence("900000000000000000000000")).isEmpty();
  }

  @Test
  void streamArnsNameTheirTableAndLabel() {
    assertThat(
            StreamNames.parse(
                "arn:aws:dynamodb:eu-west-1:123456789012:table/my.table-1/stream/2026-01-01T00:00:00.000"))
        .hasValue(new StreamNames.Arn("my.table-1", "2026-01-01T00:00:00.000"));
    assertThat(StreamNames.parse("arn:aws:dynamodb:eu-west-1:1:table/t1x")).isEmpty();
    assertThat(StreamNames.parse("arn:aws:s3:eu-west-1:1:table/abc/stream/x")).isEmpty();
    assertThat(StreamNames.parse("arn:aws:dynamodb:eu-west-1:1:table/a/stream/x")).isEmpty();
  }
}
