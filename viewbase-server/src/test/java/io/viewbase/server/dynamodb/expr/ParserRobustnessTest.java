package io.viewbase.server.dynamodb.expr;

import static io.viewbase.server.dynamodb.expr.Items.item;
import static io.viewbase.server.dynamodb.expr.Items.placeholders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.dynamodb.model.AttributeValue;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Whatever the text, the parsers answer with a result or an InvalidInput refusal, never another
 * exception, and in time linear in the text.
 */
class ParserRobustnessTest {
  private static final String[] FRAGMENTS = {
    "a",
    "b",
    "#n",
    "#m",
    ":v",
    ":w",
    ":l",
    "(",
    ")",
    "[",
    "]",
    "0",
    "1",
    "7",
    ".",
    ",",
    "=",
    "<>",
    "<",
    "<=",
    ">",
    ">=",
    "AND",
    "OR",
    "NOT",
    "BETWEEN",
    "IN",
    "SET",
    "REMOVE",
    "ADD",
    "DELETE",
    "size",
    "attribute_exists",
    "attribute_not_exists",
    "attribute_type",
    "begins_with",
    "contains",
    "if_not_exists",
    "list_append",
    "+",
    "-",
    "@",
    "_",
    "#",
    ":",
    " ",
    "name",
    "é"
  };

  private static final Map<String, AttributeValue> ITEM =
      item(
          "{\"pk\":{\"S\":\"k\"},\"a\":{\"N\":\"1\"},\"b\":{\"L\":[{\"M\":{}}]},"
              + "\"n\":{\"M\":{\"x\":{\"SS\":[\"q\"]}}}}");
  private static final Map<String, AttributeValue> KEY = item("{\"pk\":{\"S\":\"k\"}}");

  private static Placeholders placeholdersForFuzz() {
    return placeholders(
        "{\"#n\":\"n\",\"#m\":\"m\"}",
        "{\":v\":{\"N\":\"1\"},\":w\":{\"SS\":[\"q\"]},\":l\":{\"L\":[]}}");
  }

  /** Runs every grammar over the text, evaluating what parses. */
  private static void exercise(String text) {
    attempt(text, t -> Expressions.parseCondition(t, placeholdersForFuzz()).test(ITEM));
    attempt(text, t -> Expressions.parseFilter(t, placeholdersForFuzz()).test(Map.of()));
    attempt(text, t -> Expressions.parseKeyCondition(t, placeholdersForFuzz(), "pk", "a"));
    attempt(text, t -> Expressions.parseUpdate(t, placeholdersForFuzz()).apply(ITEM, KEY));
    attempt(text, t -> Expressions.parseUpdate(t, placeholdersForFuzz()).apply(null, KEY));
    attempt(text, t -> Expressions.parseProjection(t, placeholdersForFuzz()).apply(ITEM));
  }

  private static void attempt(String text, Consumer<String> work) {
    try {
      work.accept(text);
    } catch (ViewbaseException e) {
      assertThat(e.code()).as("text: %s", text).isEqualTo(ErrorCode.InvalidInput);
    }
  }

  @Test
  void randomTokenSoupIsRefusedOnlyWithInvalidInput() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    assertTimeoutPreemptively(
        Duration.ofSeconds(60),
        () -> {
          for (int i = 0; i < 20_000; i++) {
            StringBuilder text = new StringBuilder();
            for (int n = random.nextInt(12); n >= 0; n--) {
              text.append(FRAGMENTS[random.nextInt(FRAGMENTS.length)]);
              if (random.nextInt(3) > 0) {
                text.append(' ');
              }
            }
            String t = text.toString();
            try {
              exercise(t);
            } catch (AssertionError | RuntimeException e) {
              throw new AssertionError("seed " + seed + ", text: " + t, e);
            }
          }
        },
        "seed " + seed);
  }

  @Test
  void randomCharactersAreRefusedOnlyWithInvalidInput() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    String alphabet = "ab#:v()[]0.,=<>+- _\t\u00e9\ud83d\ude00\u0000\"'";
    for (int i = 0; i < 20_000; i++) {
      StringBuilder text = new StringBuilder();
      for (int n = random.nextInt(16); n >= 0; n--) {
        text.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      String t = text.toString();
      try {
        exercise(t);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError("seed " + seed + ", text: " + t, e);
      }
    }
  }

  @Test
  void adversarialTextOfTheLargestSizeIsHandledQuickly() {
    String[] texts = {
      "(".repeat(4096),
      "(".repeat(2000) + "a = :v" + ")".repeat(2000),
      "NOT ".repeat(1000) + "a = :v",
      "a" + ".a".repeat(2000) + " = :v",
      "a" + "[0]".repeat(1300) + " = :v",
      "a IN (" + ":v,".repeat(1300) + ":v)",
      "a = :v" + " AND a = :v".repeat(370),
      "SET " + "a = :v, ".repeat(500) + "b = :v",
      "SET a = " + "if_not_exists(a, ".repeat(250) + ":v" + ")".repeat(250),
      "SET a = " + "list_append(".repeat(400) + ":l" + ", :l)".repeat(400),
      "size(".repeat(800) + "a" + ")".repeat(800) + " = :v",
      "a, ".repeat(1300) + "a",
      "a" + ".b".repeat(30) + ", a" + ".c".repeat(30),
      "attribute_exists(" + "(".repeat(1000) + "a" + ")".repeat(1000) + ")",
    };
    for (String text : texts) {
      assertTimeoutPreemptively(
          Duration.ofSeconds(2),
          () -> exercise(text),
          () -> "text starting " + text.substring(0, 40));
    }
  }
}
