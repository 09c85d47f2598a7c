package io.viewbase.server.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.api.ViewbaseException;
import java.time.Clock;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A shard iterator reads back only as issued: any other text is refused, whatever it decodes to.
 */
class ShardIteratorsTest {
  private static final String ARN = "arn:aws:dynamodb:us-east-1:000000000000:table/T/stream/L";

  @Test
  void anIteratorAlteredInItsLastCharacterIsRefused() {
    try (Database db = Viewbase.open(OpenOptions.inMemory())) {
      ShardIterators iterators = new ShardIterators(db, Clock.systemUTC());
      int checked = 0;
      // Table names of several lengths: some encodings end in a character with unused bits, whose
      // alteration a lenient decoder would not see.
      for (int n = 1; n <= 6; n++) {
        ShardIterators.Position p =
            new ShardIterators.Position("T".repeat(n), "id", "L", 7, Instant.now());
        String good = iterators.issue(ARN, p);
        assertThat(iterators.read(good).after()).isEqualTo(7);
        for (char c : new char[] {'A', 'B', 'C', 'D'}) {
          if (good.charAt(good.length() - 1) == c) {
            continue;
          }
          String altered = good.substring(0, good.length() - 1) + c;
          assertThatThrownBy(() -> iterators.read(altered))
              .isInstanceOfSatisfying(
                  ViewbaseException.class,
                  e -> assertThat(e.code()).isEqualTo(ErrorCode.ValidationFailure));
          checked++;
        }
      }
      assertThat(checked).isGreaterThan(0);
    }
  }
}
