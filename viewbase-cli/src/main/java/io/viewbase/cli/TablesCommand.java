package io.viewbase.cli;

import io.viewbase.api.Database;
import picocli.CommandLine.Command;

/** {@code viewbase tables}: lists tables and views, ordered by name. */
@Command(name = "tables", mixinStandardHelpOptions = true, description = "List tables and views.")
final class TablesCommand extends DataCommand {
  @Override
  void run(Database db) {
    output.tables(out(), db.listTables());
  }
}
