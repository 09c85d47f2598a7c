package io.viewbase.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Page;
import io.viewbase.api.Query;
import io.viewbase.api.Value;
import io.viewbase.api.Viewbase;
import io.viewbase.api.ViewbaseException;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Coverage-guided fuzzing of continuation tokens, the one codec behind the native API's {@code
 * continuation} parameter and the Azure dialect's {@code NextPartitionKey} (both hand the token to
 * {@code Table.query} as is). The input picks a query and a token: fuzzed text, or a genuine token
 * of that query with fuzzed edits (bytes replaced, cut, appended). The contract: the query returns
 * a page or fails with {@link ErrorCode#InvalidContinuation} (400) and nothing else; a genuine,
 * unedited token resumes where its page stopped. Inputs replay from {@code
 * ContinuationTokenFuzzTestInputs/}.
 */
class ContinuationTokenFuzzTest {
  private static final Query[] QUERIES = {
    Query.all().withLimit(2),
    Query.partition("acme").withLimit(3),
    Query.all().withFilter("age gt 31").withLimit(1),
    Query.partition("acme").withPrefix("p").withLimit(2)
  };

  static Database db;
  static String[] tokens = new String[QUERIES.length];

  @BeforeAll
  static void start() {
    db = Viewbase.open(OpenOptions.inMemory());
    db.createTable("People");
    db.createTable("Other");
    for (int i = 0; i < 8; i++) {
      db.table("People").upsert(Item.of("acme", "p" + i, Map.of("age", Value.of(30 + i))));
      db.table("Other").upsert(Item.of("acme", "p" + i, Map.of("age", Value.of(30 + i))));
    }
    for (int i = 0; i < QUERIES.length; i++) {
      tokens[i] = db.table("People").query(QUERIES[i]).continuation();
    }
  }

  @AfterAll
  static void stop() {
    db.close();
  }

  @FuzzTest(maxDuration = "3s")
  void queryResumesOrFailsWithInvalidContinuation(FuzzedDataProvider data) {
    int q = data.consumeInt(0, QUERIES.length - 1);
    String table = data.consumeBoolean() ? "People" : "Other";
    String token;
    boolean genuine = false;
    switch (data.consumeInt(0, 3)) {
      case 0 -> token = data.consumeRemainingAsString();
      case 1 -> {
        char[] chars = tokens[q].toCharArray();
        int edits = data.consumeInt(0, 4);
        for (int i = 0; i < edits; i++) {
          chars[data.consumeInt(0, chars.length - 1)] = data.consumeChar();
        }
        token = new String(chars);
        genuine = edits == 0 && table.equals("People");
      }
      case 2 -> token = tokens[q].substring(0, data.consumeInt(0, tokens[q].length()));
      default -> token = tokens[q] + data.consumeRemainingAsString();
    }
    try {
      Page page = db.table(table).query(QUERIES[q].withContinuation(token));
      if (genuine) {
        Page first = db.table("People").query(QUERIES[q]);
        assertThat(page.items()).doesNotContainAnyElementsOf(first.items());
      }
    } catch (ViewbaseException e) {
      assertThat(e.code()).as("for token %s", token).isEqualTo(ErrorCode.InvalidContinuation);
    }
  }
}
