package io.viewbase.cli;

import io.viewbase.api.Database;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code viewbase expire TABLE}: sweeps a table now, removing every item whose time-to-live ran out
 * (with its view entries), and prints how many it removed. The background sweeper does the same at
 * its own rate; this one is not rate-limited ({@code docs/ttl.md}).
 */
@Command(
    name = "expire",
    mixinStandardHelpOptions = true,
    description = "Sweep a table now: remove its expired items and print how many.")
final class ExpireCommand extends DataCommand {
  @Parameters(index = "0", paramLabel = "TABLE", description = "The table name.")
  String table;

  @Override
  void run(Database db) {
    output.expired(out(), table, db.expire(table));
  }
}
