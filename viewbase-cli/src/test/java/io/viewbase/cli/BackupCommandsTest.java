package io.viewbase.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code viewbase backup} offline ({@code --data}), {@code backup --list} and {@code restore}, in
 * this JVM, with their refusals: usage errors exit 2, refused directories exit 1 with the code and
 * leave the directory as it was.
 */
class BackupCommandsTest {
  @TempDir Path dir;

  private Path database() throws Exception {
    Path data = Files.createDirectories(dir.resolve("data"));
    assertThat(Cli.run("table", "create", "People", "--data", data.toString()).exitCode()).isZero();
    assertThat(
            Cli.run("put", "People", "p", "1", "{\"name\": \"Ann\"}", "--data", data.toString())
                .exitCode())
        .isZero();
    return data;
  }

  @Test
  void backupOfADataDirectoryThenListThenRestoreByIdGivesTheDatabaseBack() throws Exception {
    Path data = database();
    Path backups = dir.resolve("backups");
    Cli first = Cli.run("backup", "--to", backups.toString(), "--data", data.toString());
    assertThat(first.exitCode()).as(first.toString()).isZero();
    assertThat(first.out()).contains("\"id\":1").contains("\"filesShared\":0");
    Cli.run("put", "People", "p", "2", "{\"name\": \"Bo\"}", "--data", data.toString());
    Cli second =
        Cli.run(
            "backup", "--to", backups.toString(), "--data", data.toString(), "--format", "table");
    assertThat(second.out()).contains("filesShared").contains("2");

    Cli list = Cli.run("backup", "--list", backups.toString());
    assertThat(list.lines()).hasSize(2);
    assertThat(list.lines().get(0)).startsWith("{\"id\":1,\"created\":");

    Path restored = dir.resolve("restored");
    Cli restore =
        Cli.run(
            "restore",
            "--from",
            backups.toString(),
            "--data",
            restored.toString(),
            "--backup",
            "1");
    assertThat(restore.exitCode()).as(restore.toString()).isZero();
    assertThat(restore.out()).contains("restored backup 1").contains("tables: 1");
    assertThat(Cli.run("get", "People", "p", "1", "--data", restored.toString()).out())
        .contains("Ann");
    assertThat(Cli.run("get", "People", "p", "2", "--data", restored.toString()).exitCode())
        .isEqualTo(1); // written after backup 1

    Cli quick =
        Cli.run(
            "restore",
            "--from",
            backups.toString(),
            "--data",
            dir.resolve("quick").toString(),
            "--no-verify");
    assertThat(quick.exitCode()).as(quick.toString()).isZero();
    assertThat(quick.out()).contains("restored backup 2");
  }

  @Test
  void restoreIntoADirectoryHoldingADatabaseIsRefusedAndLeavesItAsItWas() throws Exception {
    Path data = database();
    Path backups = dir.resolve("backups");
    Cli.run("backup", "--to", backups.toString(), "--data", data.toString());
    Cli.run("put", "People", "p", "3", "{\"name\": \"Cy\"}", "--data", data.toString());

    Cli restore = Cli.run("restore", "--from", backups.toString(), "--data", data.toString());

    assertThat(restore.exitCode()).isEqualTo(1);
    assertThat(restore.err()).startsWith("error: InvalidInput: ").contains("is not empty");
    assertThat(Cli.run("get", "People", "p", "3", "--data", data.toString()).out()).contains("Cy");
  }

  @Test
  void aBackupDirectoryThatHoldsOtherFilesOrNoBackupsIsRefused() throws Exception {
    Path data = database();
    Path foreign = Files.createDirectories(dir.resolve("foreign"));
    Files.writeString(foreign.resolve("notes.txt"), "mine");

    Cli backup = Cli.run("backup", "--to", foreign.toString(), "--data", data.toString());
    assertThat(backup.exitCode()).isEqualTo(1);
    assertThat(backup.err()).startsWith("error: InvalidInput: ").contains("not Viewbase backups");

    Cli restore =
        Cli.run("restore", "--from", foreign.toString(), "--data", dir.resolve("x").toString());
    assertThat(restore.exitCode()).isEqualTo(1);
    assertThat(restore.err()).contains("holds no backups");
    assertThat(dir.resolve("x")).doesNotExist();
  }

  @Test
  void backupNeedsExactlyOneOfToAndList() {
    assertThat(Cli.run("backup").exitCode()).isEqualTo(2);
    Cli both = Cli.run("backup", "--to", "a", "--list", "b");
    assertThat(both.exitCode()).isEqualTo(2);
    assertThat(both.err()).contains("--to DIR").contains("--list DIR");
    assertThat(Cli.run("backup", "--list", "b", "--server", "http://127.0.0.1:1").exitCode())
        .isEqualTo(2);
    assertThat(Cli.run("restore", "--from", "a").exitCode()).isEqualTo(2);
  }
}
