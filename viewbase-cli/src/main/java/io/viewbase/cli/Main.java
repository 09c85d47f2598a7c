package io.viewbase.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code viewbase} command line: a server ({@code serve}) and the commands that read and write
 * tables and items, either through a running server or directly on a data directory.
 *
 * <p>Exit codes: 0 success, 1 a failed operation ({@code error: <Code>: <message>} on stderr; also
 * a view whose backfill failed), 2 a usage error, 3 {@code verify} found drift it did not repair.
 */
@Command(
    name = "viewbase",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "A database for JSON items addressed by partition key and id.",
    subcommands = {
      ServeCommand.class,
      TablesCommand.class,
      TableCommand.class,
      PutCommand.class,
      MergeCommand.class,
      GetCommand.class,
      DeleteCommand.class,
      QueryCommand.class,
      ChangesCommand.class,
      BatchCommand.class,
      ImportCommand.class,
      ExportCommand.class,
      ViewCommand.class,
      VerifyCommand.class,
      ExpireCommand.class,
      KeyCommand.class,
      BackupCommand.class,
      RestoreCommand.class,
      ClassArchiveTraining.class,
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Bare {@code viewbase} prints the list of commands. */
  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  public static void main(String[] args) {
    quietLoggingUnlessServing(args);
    System.exit(commandLine().execute(args));
  }

  /** The configured command line, writing to the given streams; tests run commands through this. */
  public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
    return commandLine().setOut(out).setErr(err);
  }

  static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new Main());
    ErrorReporter errors = new ErrorReporter();
    cli.setExecutionExceptionHandler(errors);
    cli.setParameterExceptionHandler(errors);
    cli.setCaseInsensitiveEnumValuesAllowed(true);
    // "@item.json" is a body file of put/merge (as in curl -d @file), not a picocli argument file.
    cli.setExpandAtFiles(false);
    return cli;
  }

  /**
   * The engine and RocksDB log at info level on open and close. That belongs in a server's log, but
   * would bury the one line of output of a data command, so only {@code serve} logs at info. Set
   * before any logger exists ({@link Logging} reads it); a level the user set with -D wins.
   */
  private static void quietLoggingUnlessServing(String[] args) {
    String level = args.length > 0 && args[0].equals("serve") ? "info" : "warn";
    if (System.getProperty(Logging.LEVEL) == null) {
      System.setProperty(Logging.LEVEL, level);
    }
  }
}
