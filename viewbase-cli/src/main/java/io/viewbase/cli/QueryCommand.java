package io.viewbase.cli;

import io.viewbase.api.Database;
import io.viewbase.api.ItemCursor;
import io.viewbase.api.Page;
import io.viewbase.api.Query;
import io.viewbase.api.QueryPlan;
import io.viewbase.api.Table;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * {@code viewbase query TABLE [PK]}: the items of one partition (optionally an id range or prefix),
 * or with no PK of the whole table (a scan).
 *
 * <p>Without {@code --all} it prints one page and, if there is more, the line {@code next:
 * --continuation <token>} on stderr, so stdout holds only items. With {@code --all} it follows
 * continuations and streams every item, a page in memory at a time.
 */
@Command(
    name = "query",
    mixinStandardHelpOptions = true,
    description = "List the items of a partition (or, without PK, of the whole table).")
final class QueryCommand extends DataCommand {
  @Parameters(index = "0", paramLabel = "TABLE", description = "The table (or view).")
  String table;

  @Parameters(
      index = "1",
      arity = "0..1",
      paramLabel = "PK",
      description = "The partition key; omit to scan the table.")
  String partitionKey;

  @Option(names = "--prefix", paramLabel = "P", description = "Only ids starting with P.")
  String prefix;

  @Option(names = "--from", paramLabel = "A", description = "Ids from A, inclusive.")
  String from;

  @Option(names = "--to", paramLabel = "B", description = "Ids up to B, exclusive.")
  String to;

  @Option(names = "--desc", description = "Highest id first.")
  boolean descending;

  @Option(
      names = "--select",
      paramLabel = "a,b",
      split = ",",
      description = "Only these properties.")
  List<String> select;

  @Option(
      names = "--filter",
      paramLabel = "EXPR",
      description = "An OData filter, e.g. \"age gt 30\".")
  String filter;

  @Option(
      names = "--limit",
      paramLabel = "N",
      defaultValue = "" + Query.DEFAULT_LIMIT,
      description = "Items per page, 1..1000 (default: ${DEFAULT-VALUE}).")
  int limit;

  @Option(
      names = "--continuation",
      paramLabel = "T",
      description = "Continue after the page that returned T.")
  String continuation;

  @Option(names = "--all", description = "Follow continuations: print every matching item.")
  boolean all;

  @Option(
      names = "--explain",
      description = "Print how the query would be answered (the plan), not the items.")
  boolean explain;

  @Override
  void run(Database db) {
    Table source = db.table(table);
    Query query = query();
    if (explain) {
      QueryPlan plan = source.explain(query);
      out().println("plan:   " + plan.kind() + " of " + plan.source());
      out().println("reads:  " + plan.description());
      out().println("why:    " + plan.reason());
      out().flush();
      return;
    }
    if (all) {
      try (ItemCursor items = source.cursor(query)) {
        output.items(out(), items);
      }
      return;
    }
    Page page = source.query(query);
    output.items(out(), page.items().iterator());
    if (page.hasMore()) {
      err().println("next: --continuation " + page.continuation());
      err().flush();
    }
  }

  private Query query() {
    if (partitionKey == null && (prefix != null || from != null || to != null || descending)) {
      throw new ParameterException(
          spec.commandLine(), "--prefix, --from, --to and --desc need a partition key (PK)");
    }
    Query query = partitionKey == null ? Query.all() : Query.partition(partitionKey);
    return query
        .withPrefix(prefix)
        .withRange(from, to)
        .descending(descending)
        .withSelect(select)
        .withFilter(filter)
        .withLimit(limit)
        .withContinuation(continuation);
  }
}
