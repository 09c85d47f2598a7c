package io.viewbase.cli;

import io.viewbase.api.Database;
import io.viewbase.api.VerifyReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code viewbase verify NAME [--repair]}: compares every entry of a view with a recomputation from
 * its source and prints the report on stdout.
 *
 * <pre>
 * found                      | exit
 * ---------------------------+-----
 * no drift                   | 0
 * drift, repaired (--repair) | 0
 * drift, not repaired        | 3   (so a script can tell drift from a failure, which is 1)
 * </pre>
 */
@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    description = "Compare a view with its source; report missing, extra and different entries.")
final class VerifyCommand extends DataCommand {
  static final int DRIFT = 3;

  @Parameters(index = "0", paramLabel = "NAME", description = "The view name.")
  String name;

  @Option(
      names = "--repair",
      description =
          "Repair the drift found (write missing and different entries, delete extra ones).")
  boolean repair;

  @Override
  void run(Database db) {
    VerifyReport report = db.verifyView(name, repair);
    output.report(out(), report);
    if (report.drift() > 0) {
      err()
          .println(
              (report.repaired() ? "repaired: " : "drift: ")
                  + report.drift()
                  + " entries of view "
                  + name
                  + " differed from the source (missing "
                  + report.missing()
                  + ", extra "
                  + report.extra()
                  + ", different "
                  + report.different()
                  + ")"
                  + (report.repaired() ? "" : "; run with --repair to repair them"));
      err().flush();
    }
    exitWith(exitCode(report));
  }

  static int exitCode(VerifyReport report) {
    return report.drift() > 0 && !report.repaired() ? DRIFT : 0;
  }
}
