package io.viewbase.cli;

import io.viewbase.api.Database;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code viewbase table create|drop NAME}: the lifecycle of a table. */
@Command(
    name = "table",
    mixinStandardHelpOptions = true,
    description = "Create or drop a table.",
    subcommands = {TableCommand.Create.class, TableCommand.Drop.class})
final class TableCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Missing subcommand: create or drop");
  }

  @Command(
      name = "create",
      mixinStandardHelpOptions = true,
      description =
          "Create a table; prints its description. Names: a letter, then 2-62 letters or digits.")
  static final class Create extends DataCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "The table name.")
    String name;

    @Override
    void run(Database db) {
      output.tables(out(), List.of(db.createTable(name)));
    }
  }

  @Command(
      name = "drop",
      mixinStandardHelpOptions = true,
      description = "Drop a table and all its items.")
  static final class Drop extends DataCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "The table name.")
    String name;

    @Override
    void run(Database db) {
      db.dropTable(name);
    }
  }
}
