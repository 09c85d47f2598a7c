package io.viewbase.cli;

import io.viewbase.api.BackupInfo;
import io.viewbase.api.Database;
import io.viewbase.json.BackupInfoJson;
import io.viewbase.storage.spi.StoredBackup;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code viewbase backup --to DIR}: an online backup of the whole database into DIR while it serves
 * writes ({@code docs/operations.md}); {@code viewbase backup --list DIR}: the backups DIR holds.
 *
 * <pre>
 * options              | does
 * ---------------------+--------------------------------------------------------------------
 * --to DIR             | asks the running server to back up into DIR (on its machine; a
 *                      | relative DIR is made absolute here, for a server on this machine)
 * --to DIR --data D    | backs up the data directory D, opened here (no server may hold it)
 * --list DIR           | lists the backups in DIR, read here: no server or database is needed
 * --to and --list      | usage error; so is neither
 * </pre>
 */
@Command(
    name = "backup",
    mixinStandardHelpOptions = true,
    description = {
      "Back up the whole database into a directory while it runs (numbered backups that share"
          + " unchanged files), or list the backups a directory holds."
    })
final class BackupCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin DatabaseTarget target;

  @Mixin Output output;

  @Option(
      names = "--to",
      paramLabel = "DIR",
      description =
          "The backup directory, on the server's machine; created if absent. Later backups into"
              + " the same directory copy only the files that changed.")
  Path to;

  @Option(
      names = "--list",
      paramLabel = "DIR",
      description = "List the backups in DIR (read on this machine) instead of taking one.")
  Path list;

  @Override
  public Integer call() {
    if ((to == null) == (list == null)) {
      throw new ParameterException(
          spec.commandLine(), "give --to DIR to take a backup, or --list DIR to list them");
    }
    if (list != null) {
      if (target.server != null || target.data != null) {
        throw new ParameterException(
            spec.commandLine(), "--list reads DIR on this machine: it takes no --server or --data");
      }
      try {
        print(Backups.provider().backups(list));
      } catch (RuntimeException failure) {
        throw Backups.translate(failure);
      }
      return 0;
    }
    try (Database db = target.open()) {
      print(db.backup(to.toAbsolutePath().normalize()));
      return 0;
    } catch (RuntimeException failure) {
      throw target.explain(Backups.translate(failure));
    }
  }

  private void print(BackupInfo info) {
    var out = spec.commandLine().getOut();
    if (output.format == OutputFormat.json) {
      out.println(new String(BackupInfoJson.write(info), StandardCharsets.UTF_8));
    } else {
      TextTable.of(
              List.of("field", "value"),
              List.of(
                  List.of("id", Long.toString(info.id())),
                  List.of("created", info.created().toString()),
                  List.of("directory", info.directory()),
                  List.of("sizeBytes", Long.toString(info.sizeBytes())),
                  List.of("files", Integer.toString(info.files())),
                  List.of("filesCopied", Integer.toString(info.filesCopied())),
                  List.of("filesShared", Integer.toString(info.filesShared())),
                  List.of("bytesCopied", Long.toString(info.bytesCopied())),
                  List.of("durationMillis", Long.toString(info.duration().toMillis()))))
          .print(out);
    }
    out.flush();
  }

  private void print(List<StoredBackup> backups) {
    var out = spec.commandLine().getOut();
    if (output.format == OutputFormat.json) {
      for (StoredBackup b : backups) {
        out.println(Backups.json(b));
      }
    } else {
      List<List<String>> rows = new ArrayList<>();
      for (StoredBackup b : backups) {
        rows.add(
            List.of(
                Long.toString(b.id()),
                b.created().toString(),
                Long.toString(b.sizeBytes()),
                Integer.toString(b.files())));
      }
      TextTable.of(List.of("id", "created", "sizeBytes", "files"), rows).print(out);
    }
    out.flush();
  }
}
