package io.viewbase.server.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.dynamodb.DynamoDbTable.AttributeType;
import io.viewbase.server.dynamodb.DynamoDbTable.KeyAttribute;
import io.viewbase.server.dynamodb.DynamoDbTable.KeySchema;
import io.viewbase.server.dynamodb.model.AttributeValue;
import io.viewbase.server.dynamodb.model.KeyOrder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DynamoDbKeysTest {
  private static DynamoDbTable table(AttributeType hash, AttributeType range) {
    KeySchema key =
        new KeySchema(
            new KeyAttribute("pk", hash), range == null ? null : new KeyAttribute("sk", range));
    return new DynamoDbTable(
        "t",
        "t",
        key,
        Map.of(),
        List.of(),
        List.of(),
        DynamoDbTable.PAY_PER_REQUEST,
        null,
        Instant.EPOCH,
        null,
        null,
        null,
        false,
        Map.of(),
        "id",
        null);
  }

  @Test
  void aStringKeyIsItsOwnTextAndATableWithoutSortKeyHasTheEmptyId() {
    DynamoDbKeys.Identity id =
        DynamoDbKeys.identity(
            table(AttributeType.S, null),
            Map.of("pk", new AttributeValue.S("user#1"), "other", new AttributeValue.S("x")));

    assertThat(id).isEqualTo(new DynamoDbKeys.Identity("user#1", ""));
  }

  @Test
  void numberAndBinarySortKeysSortAsDynamoDbSortsThem() {
    Random random = new Random(42);
    List<AttributeValue> numbers = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      numbers.add(
          AttributeValue.N.parse(
              (random.nextBoolean() ? "-" : "")
                  + random.nextInt(100000)
                  + "."
                  + random.nextInt(1000)));
    }
    assertSortedAlike(numbers);
    List<AttributeValue> binaries = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      byte[] b = new byte[1 + random.nextInt(4)];
      random.nextBytes(b);
      binaries.add(new AttributeValue.B(b));
    }
    assertSortedAlike(binaries);
  }

  /** Ids (compared as Viewbase compares them, by code point) sort as the values do. */
  private static void assertSortedAlike(List<AttributeValue> values) {
    List<AttributeValue> byValue = new ArrayList<>(values);
    byValue.sort(KeyOrder.COMPARATOR);
    List<AttributeValue> byId = new ArrayList<>(values);
    byId.sort(Comparator.comparing(DynamoDbKeys::id, DynamoDbKeysTest::byCodePoint));
    for (int i = 0; i < values.size(); i++) {
      assertThat(KeyOrder.compare(byId.get(i), byValue.get(i))).as("position " + i).isZero();
    }
  }

  private static int byCodePoint(String a, String b) {
    return Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray());
  }

  @Test
  void aMissingOrMistypedKeyIsRefusedAsDynamoDbRefusesIt() {
    DynamoDbTable t = table(AttributeType.S, AttributeType.N);

    assertThatThrownBy(() -> DynamoDbKeys.identity(t, Map.of("pk", new AttributeValue.S("a"))))
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.ValidationFailure);
              assertThat(e.getMessage())
                  .isEqualTo("The provided key element does not match the schema");
            });
    assertThatThrownBy(
            () ->
                DynamoDbKeys.identity(
                    t, Map.of("pk", new AttributeValue.S("a"), "sk", new AttributeValue.S("1"))))
        .hasMessage(
            "One or more parameter values were invalid: Type mismatch for key sk expected: N"
                + " actual: S");
  }

  /**
   * A multi-attribute key's joined renderings, as a global index's view keys hold them ({@link
   * DynamoDbKeys#globalPartitionKey}, the {@code {r1|key}{r2|key}} of its ids), sort as the tuples
   * of values do and never render two tuples alike: strings with low characters (the terminator and
   * the escapes), '~', characters past U+FFFF, and prefixes of one another, numbers and binaries.
   */
  @Test
  void multiAttributeKeysJoinedSortAsTheirTuplesAndNeverCollide() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    String[] pieces = {"", "a", "ab", " ", "!", "\u0000", "~", "\u007f", "\uD83D\uDE00", "z", "é"};
    KeySchema key =
        new KeySchema(
            List.of(
                new KeyAttribute("s", AttributeType.S),
                new KeyAttribute("n", AttributeType.N),
                new KeyAttribute("b", AttributeType.B)),
            List.of());
    List<Map<String, AttributeValue>> tuples = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      StringBuilder text = new StringBuilder(pieces[1 + random.nextInt(pieces.length - 1)]);
      for (int j = random.nextInt(3); j > 0; j--) {
        text.append(pieces[random.nextInt(pieces.length)]);
      }
      byte[] bytes = new byte[1 + random.nextInt(2)];
      random.nextBytes(bytes);
      tuples.add(
          Map.of(
              "s",
              new AttributeValue.S(text.toString()),
              "n",
              AttributeValue.N.parse((random.nextBoolean() ? "-" : "") + random.nextInt(20)),
              "b",
              new AttributeValue.B(bytes)));
    }
    Comparator<Map<String, AttributeValue>> byTuple =
        Comparator.<Map<String, AttributeValue>, AttributeValue>comparing(
                t -> t.get("s"), KeyOrder.COMPARATOR)
            .thenComparing(t -> t.get("n"), KeyOrder.COMPARATOR)
            .thenComparing(t -> t.get("b"), KeyOrder.COMPARATOR);
    for (int i = 0; i + 1 < tuples.size(); i++) {
      Map<String, AttributeValue> a = tuples.get(i);
      Map<String, AttributeValue> b = tuples.get(i + 1);
      int joined =
          KeyOrder.compareUtf8(
              DynamoDbKeys.globalPartitionKey(key, a), DynamoDbKeys.globalPartitionKey(key, b));
      assertThat(Integer.signum(joined))
          .as("seed " + seed + ": " + a + " against " + b)
          .isEqualTo(Integer.signum(byTuple.compare(a, b)));
    }
    // the two tuples that plain strings joined would confuse
    assertThat(
            DynamoDbKeys.globalPartitionKey(
                new KeySchema(
                    List.of(
                        new KeyAttribute("x", AttributeType.S),
                        new KeyAttribute("y", AttributeType.S)),
                    List.of()),
                Map.of("x", new AttributeValue.S("o"), "y", new AttributeValue.S("tt"))))
        .isNotEqualTo(
            DynamoDbKeys.globalPartitionKey(
                new KeySchema(
                    List.of(
                        new KeyAttribute("x", AttributeType.S),
                        new KeyAttribute("y", AttributeType.S)),
                    List.of()),
                Map.of("x", new AttributeValue.S("ot"), "y", new AttributeValue.S("t"))));
  }
}
