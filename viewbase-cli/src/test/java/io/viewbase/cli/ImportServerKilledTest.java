package io.viewbase.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.ItemCursor;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Query;
import io.viewbase.api.Viewbase;
import java.io.BufferedWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An import through a server that is killed (SIGKILL) while the import runs stops with exit 1,
 * saying where and that {@code --resume} goes on; resumed against the restarted server, it ends
 * with every row once.
 */
class ImportServerKilledTest {
  private static final int ROWS = 30_000;

  @TempDir Path dir;

  @Test
  void anImportWhoseServerDiesStopsAndResumesAgainstTheRestartedServer() throws Exception {
    Path file = dir.resolve("rows.jsonl");
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (int n = 0; n < ROWS; n++) {
        out.write("{\"partitionKey\":\"p" + n % 10 + "\",\"id\":\"" + n + "\",\"n\":" + n + "}\n");
      }
    }
    Path data = dir.resolve("data");
    Path logs = Files.createDirectories(dir.resolve("logs"));

    int exit;
    String stderr;
    try (ServerProcess server = ServerProcess.serve(data, logs, "first")) {
      StringWriter err = new StringWriter();
      CompletableFuture<Integer> importing =
          CompletableFuture.supplyAsync(
              () ->
                  Main.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(err, true))
                      .execute(
                          "import",
                          "Rows",
                          file.toString(),
                          "--server",
                          server.uri().toString(),
                          "--progress-interval",
                          "50ms"));
      Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
      while (!err.toString().contains("importing:") && Instant.now().isBefore(deadline)) {
        Thread.sleep(5);
      }
      server.kill();
      exit = importing.get(60, TimeUnit.SECONDS);
      stderr = err.toString();
    }
    assertThat(exit).as(stderr).isEqualTo(1);
    assertThat(stderr)
        .contains("import Rows stopped after line")
        .contains("run it again with --resume")
        .contains("error: ");
    assertThat(Files.exists(ImportJournal.of(file))).isTrue();

    try (ServerProcess server = ServerProcess.serve(data, logs, "second")) {
      Cli resumed =
          Cli.run(
              "import", "Rows", file.toString(), "--server", server.uri().toString(), "--resume");
      assertThat(resumed.exitCode()).as(resumed.toString()).isZero();
      assertThat(resumed.err()).contains("resuming at line").contains("0 rejected");
    }
    Set<String> ids = new HashSet<>();
    try (Database db = Viewbase.open(OpenOptions.at(data));
        ItemCursor items = db.table("Rows").cursor(Query.all())) {
      items.forEachRemaining(item -> assertThat(ids.add(item.id())).isTrue());
    }
    assertThat(ids).hasSize(ROWS);
  }
}
