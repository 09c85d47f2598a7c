package io.viewbase.cli;

import io.viewbase.api.Change;
import io.viewbase.api.ChangePage;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Table;
import io.viewbase.api.ViewbaseException;
import io.viewbase.json.ChangeJson;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code viewbase changes TABLE}: the table's change feed as JSON Lines, one entry per line ({@code
 * GET /v1/tables/{t}/changes}'s entries), flushed line by line.
 *
 * <p>Without {@code --follow} it prints one page after {@code --after} and, if the feed holds more,
 * {@code next: --after N} on stderr. With {@code --follow} it long-polls until interrupted
 * (Ctrl-C), each poll asking after the last entry printed; while the server cannot be reached or is
 * restarting it says so on stderr and tries again every second from that same position, so nothing
 * printed is printed twice and nothing is skipped.
 *
 * <pre>
 * failure while following                                      | then
 * -------------------------------------------------------------+----------------------------
 * StorageUnreachable, Timeout, ShuttingDown, ServerBusy,       | warning on stderr, retry
 *   WriteConflict (the server is away, restarting or busy)     |   after the last printed
 * anything else (ChangesExpired, ChangeFeedDisabled, ...)      | error, exit 1
 * </pre>
 */
@Command(
    name = "changes",
    mixinStandardHelpOptions = true,
    description = "Print a table's change feed, one JSON entry per line; --follow keeps reading.")
final class ChangesCommand extends DataCommand {
  /** How long one poll of --follow waits for an entry before asking again. */
  static final Duration POLL = Duration.ofSeconds(30);

  private static final Duration RETRY = Duration.ofSeconds(1);
  private static final Set<ErrorCode> TRANSIENT =
      EnumSet.of(
          ErrorCode.StorageUnreachable,
          ErrorCode.Timeout,
          ErrorCode.ShuttingDown,
          ErrorCode.ServerBusy,
          ErrorCode.WriteConflict);

  @Parameters(index = "0", paramLabel = "TABLE", description = "The table.")
  String table;

  @Option(
      names = "--after",
      paramLabel = "N",
      defaultValue = "0",
      description = "Print the entries after sequence N (default: ${DEFAULT-VALUE}, the start).")
  long after;

  @Option(
      names = "--limit",
      paramLabel = "N",
      defaultValue = "" + ChangePage.MAX_LIMIT,
      description = "Entries per page, 1..1000 (default: ${DEFAULT-VALUE}).")
  int limit;

  @Option(
      names = "--follow",
      description = "Keep printing entries as they commit, until interrupted (Ctrl-C).")
  boolean follow;

  @Override
  void run(Database db) {
    Table t = db.table(table);
    if (!follow) {
      ChangePage page = t.changes(after, limit);
      print(page.changes());
      if (page.next() < page.latest()) {
        err().println("next: --after " + page.next());
        err().flush();
      }
      return;
    }
    follow(t);
  }

  private void follow(Table t) {
    long position = after;
    boolean away = false;
    while (!Thread.currentThread().isInterrupted()) {
      ChangePage page;
      try {
        page = t.changes(position, limit, POLL);
      } catch (ViewbaseException e) {
        if (Thread.currentThread().isInterrupted()) {
          return;
        }
        if (!TRANSIENT.contains(e.code())) {
          throw e;
        }
        if (!away) {
          err()
              .println(
                  "warning: "
                      + e.code()
                      + ": "
                      + e.getMessage()
                      + "; retrying every "
                      + RETRY.toSeconds()
                      + "s after sequence "
                      + position);
          err().flush();
          away = true;
        }
        if (!pause()) {
          return;
        }
        continue;
      }
      if (away) {
        err().println("resumed after sequence " + position);
        err().flush();
        away = false;
      }
      print(page.changes());
      position = page.next();
    }
  }

  /** Sleeps before a retry; false if interrupted meanwhile. */
  private static boolean pause() {
    try {
      Thread.sleep(RETRY.toMillis());
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private void print(List<Change> changes) {
    PrintWriter out = out();
    if (output.format == OutputFormat.json) {
      for (Change c : changes) {
        out.println(new String(ChangeJson.write(c), StandardCharsets.UTF_8));
        out.flush();
      }
      return;
    }
    if (changes.isEmpty()) {
      return;
    }
    List<List<String>> rows = new ArrayList<>();
    for (Change c : changes) {
      rows.add(
          List.of(
              Long.toString(c.sequence()),
              ChangeJson.kindName(c.kind()),
              c.partitionKey(),
              c.id(),
              c.etag() == null ? "" : c.etag(),
              c.transaction() + "+" + c.transactionSize()));
    }
    TextTable.of(List.of("sequence", "kind", "partitionKey", "id", "etag", "transaction"), rows)
        .print(out);
    out.flush();
  }
}
