package io.viewbase.server;

import io.viewbase.api.ChangePage;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Table;
import io.viewbase.api.ViewbaseException;
import io.viewbase.json.ChangeJson;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * {@code GET /v1/tables/{table}/changes}: a page of the table's change feed ({@link
 * Table#changes}), long-polled without holding a thread ({@link ChangePolls}).
 *
 * <pre>
 * parameter | value                                            | default
 * ----------+--------------------------------------------------+--------------------
 * after     | the sequence to read after: 0 or more            | 0 (from the start)
 * limit     | 1..1000 entries                                  | 1000
 * wait      | how long to wait for the first entry when there  | 0s (answer at once)
 *           |   is none yet: a whole number of ms or s, unit   |
 *           |   required (500ms, 30s), at most 60s             |
 * </pre>
 *
 * A wait that runs out answers 200 with an empty page; so does a poll parked when the server stops
 * (the client polls again). The answer is {@link ChangeJson}'s page.
 */
final class ChangeEndpoint implements AutoCloseable {
  static final Set<String> PARAMETERS = Set.of("after", "limit", "wait");

  private final Database db;
  private final ChangePolls polls = new ChangePolls();

  ChangeEndpoint(Database db) {
    this.db = db;
  }

  /** What a request asks for, its parameters checked. */
  record Ask(long after, int limit, Duration waitFor) {}

  /** Serves the request on the calling thread, which waits with the poll (tests, embedders). */
  ApiResponse serve(Map<String, String> parameters, String table) {
    Ask ask = ask(parameters);
    return answer(db.table(table).changes(ask.after(), ask.limit(), ask.waitFor()));
  }

  /** Starts the poll; its page (or failure) completes on a poll thread. */
  CompletableFuture<ChangePage> start(Map<String, String> parameters, String table) {
    Ask ask = ask(parameters);
    return polls.poll(() -> db.table(table), ask.after(), ask.limit(), ask.waitFor());
  }

  static ApiResponse answer(ChangePage page) {
    return ApiResponse.json(200, ChangeJson.write(page));
  }

  static Ask ask(Map<String, String> p) {
    return new Ask(after(p.get("after")), limit(p.get("limit")), waitFor(p.get("wait")));
  }

  private static long after(String v) {
    if (v == null) {
      return 0;
    }
    long after = -1;
    if (isDigits(v, 19)) {
      try {
        after = Long.parseLong(v);
      } catch (NumberFormatException tooLarge) {
        after = -1;
      }
    }
    if (after < 0) {
      throw invalid("after", v, "after must be a sequence number, 0 or more");
    }
    return after;
  }

  private static int limit(String v) {
    if (v == null) {
      return ChangePage.MAX_LIMIT;
    }
    int limit = isDigits(v, 4) ? Integer.parseInt(v) : -1;
    if (limit < 1 || limit > ChangePage.MAX_LIMIT) {
      throw invalid("limit", v, "limit must be a whole number from 1 to " + ChangePage.MAX_LIMIT);
    }
    return limit;
  }

  /**
   * {@code 500ms} or {@code 30s}: the unit is required, as on the command line, since a bare number
   * could mean either and a wrong guess waits a thousand times too long or too short.
   */
  private static Duration waitFor(String v) {
    if (v == null) {
      return Duration.ZERO;
    }
    String message =
        "wait must be a whole number of milliseconds or seconds with its unit (500ms, 30s), at most "
            + Table.MAX_CHANGES_WAIT.toSeconds()
            + "s";
    Duration wait;
    if (v.endsWith("ms") && isDigits(v.substring(0, v.length() - 2), 6)) {
      wait = Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
    } else if (v.endsWith("s") && isDigits(v.substring(0, v.length() - 1), 6)) {
      wait = Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)));
    } else {
      throw invalid("wait", v, message);
    }
    if (wait.compareTo(Table.MAX_CHANGES_WAIT) > 0) {
      throw invalid("wait", v, message);
    }
    return wait;
  }

  private static boolean isDigits(String v, int maxLength) {
    if (v.isEmpty() || v.length() > maxLength) {
      return false;
    }
    for (int i = 0; i < v.length(); i++) {
      if (v.charAt(i) < '0' || v.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  private static ViewbaseException invalid(String parameter, String value, String message) {
    return ViewbaseException.of(
        ErrorCode.InvalidQuery, message, "parameter", parameter, "value", value);
  }

  /** Answers the parked polls and stops the poll threads. */
  @Override
  public void close() {
    polls.close();
  }
}
