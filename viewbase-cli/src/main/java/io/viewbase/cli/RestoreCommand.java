package io.viewbase.cli;

import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.TableInfo;
import io.viewbase.api.VerifyReport;
import io.viewbase.api.ViewStatus;
import io.viewbase.storage.spi.StoredBackup;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code viewbase restore --from DIR --data D [--backup ID]}: restores a backup that {@code
 * viewbase backup} wrote into a new data directory, offline, then opens it once and verifies every
 * view against its source. The latest backup unless {@code --backup} names one.
 *
 * <pre>
 * found                                          | exit
 * -----------------------------------------------+-----
 * restored, every ready view without drift       | 0
 * restored, a view drifted                       | 3 (as verify)
 * D not empty (a database, a server's), no such  | 1, nothing written
 *   backup, a file failing its checksum          |
 * </pre>
 *
 * A view that was still building when the backup was taken resumes its backfill when D opens; it is
 * reported as building, not verified.
 */
@Command(
    name = "restore",
    mixinStandardHelpOptions = true,
    description =
        "Restore a backup into a new data directory (no server may run on it), then open it and"
            + " verify every view.")
final class RestoreCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--from",
      required = true,
      paramLabel = "DIR",
      description = "The backup directory ('viewbase backup --to DIR').")
  Path from;

  @Option(
      names = "--data",
      required = true,
      paramLabel = "D",
      description = "The data directory to restore into: new or empty.")
  Path data;

  @Option(
      names = "--backup",
      paramLabel = "ID",
      description =
          "The backup to restore (see 'viewbase backup --list DIR'); default: the latest.")
  Long backup;

  @Option(
      names = "--no-verify",
      description =
          "Open the restored database to check it, but do not verify its views (on a large"
              + " database verify reads every view and its source).")
  boolean noVerify;

  @Override
  public Integer call() {
    StoredBackup restored;
    try {
      restored =
          Backups.provider()
              .restore(from, backup == null ? OptionalLong.empty() : OptionalLong.of(backup), data);
    } catch (RuntimeException failure) {
      throw Backups.translate(failure);
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println(
        "restored backup "
            + restored.id()
            + " of "
            + from.toAbsolutePath().normalize()
            + " (taken "
            + restored.created()
            + ", "
            + restored.sizeBytes()
            + " bytes) into "
            + data.toAbsolutePath().normalize());
    out.flush();
    return check(out);
  }

  /** Opens the restored database and verifies every view that is ready (unless --no-verify). */
  private int check(PrintWriter out) {
    long drift = 0;
    try (Database db = DataDirectory.open(OpenOptions.at(data))) {
      int tables = 0;
      for (TableInfo info : db.listTables()) {
        if (!TableInfo.VIEW.equals(info.kind())) {
          tables++;
          continue;
        }
        if (noVerify) {
          out.println("view " + info.name() + ": not verified (--no-verify)");
          continue;
        }
        ViewStatus status = db.viewStatus(info.name());
        if (!ViewStatus.READY.equals(status.state())) {
          out.println("view " + info.name() + ": " + status.state() + ", not verified");
          continue;
        }
        VerifyReport report = db.verifyView(info.name(), false);
        drift += report.drift();
        out.println(
            "view "
                + info.name()
                + ": checked "
                + report.checked()
                + ", drift "
                + report.drift()
                + (report.drift() > 0 ? " (run 'viewbase verify " + info.name() + "')" : ""));
      }
      out.println("tables: " + tables);
    }
    out.flush();
    return drift > 0 ? VerifyCommand.DRIFT : 0;
  }
}
