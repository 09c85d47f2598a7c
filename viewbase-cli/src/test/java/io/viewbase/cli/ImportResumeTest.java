package io.viewbase.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.ItemCursor;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Query;
import io.viewbase.api.Value;
import io.viewbase.api.Viewbase;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The import acceptance test: {@code viewbase import --data DIR} of 1,000,000 JSON Lines in a child
 * JVM, killed with SIGKILL once its progress passes half, then run again with {@code --resume},
 * ends with exactly 1,000,000 items, each once and with its own value. The child's stderr is a
 * file, no terminal, so it prints plain progress lines, which the test reads to choose the moment
 * of the kill. The data directory is opened as the CLI opens it (synced writes).
 */
class ImportResumeTest {
  private static final int ITEMS = 1_000_000;
  private static final Pattern PROGRESS =
      Pattern.compile("import Million importing: [0-9,]+ rows \\(([0-9.]+)%\\)");
  private static final Duration LIMIT = Duration.ofSeconds(120);

  @TempDir Path dir;

  @Test
  void aMillionRowImportKilledHalfwayAndResumedEndsWithEveryItemExactlyOnce() throws Exception {
    Path file = dir.resolve("million.jsonl");
    writeInput(file);
    Path data = Files.createDirectories(dir.resolve("data"));

    Process first = importer(data, file, "first", false);
    double killedAt = awaitProgress(first, dir.resolve("first.err"), 50.0);
    first.destroyForcibly();
    assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
    String firstErr = Files.readString(dir.resolve("first.err"));
    assertThat(firstErr).as("killed at %s%%", killedAt).doesNotContain(" done: ");
    assertThat(firstErr.lines().filter(line -> PROGRESS.matcher(line).find()).count())
        .isGreaterThanOrEqualTo(2);
    assertThat(Files.exists(ImportJournal.of(file))).isTrue();

    Process second = importer(data, file, "second", true);
    assertThat(second.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    String secondErr = Files.readString(dir.resolve("second.err"));
    assertThat(second.exitValue()).as(secondErr).isZero();
    Matcher resumed = Pattern.compile("resuming at line ([0-9,]+)").matcher(secondErr);
    assertThat(resumed.find()).as(secondErr).isTrue();
    assertThat(Long.parseLong(resumed.group(1).replace(",", ""))).isGreaterThan(ITEMS / 3);
    assertThat(secondErr).contains("done: 1,000,000 rows read, 1,000,000 imported, 0 rejected");
    assertThat(Files.exists(ImportJournal.of(file))).isFalse();

    BitSet seen = new BitSet(ITEMS);
    long count = 0;
    try (Database db = Viewbase.open(OpenOptions.at(data));
        ItemCursor items = db.table("Million").cursor(Query.all())) {
      while (items.hasNext()) {
        Item item = items.next();
        int n = Integer.parseInt(item.id());
        assertThat(seen.get(n)).as("item %s twice", n).isFalse();
        seen.set(n);
        assertThat(item.partitionKey()).isEqualTo("p" + n % 100);
        assertThat(item.properties().get("n")).isEqualTo(new Value.Int32(n));
        count++;
      }
    }
    assertThat(count).isEqualTo(ITEMS);
    assertThat(seen.cardinality()).isEqualTo(ITEMS);
  }

  private static void writeInput(Path file) throws IOException {
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (int n = 0; n < ITEMS; n++) {
        out.write("{\"partitionKey\":\"p");
        out.write(Integer.toString(n % 100));
        out.write("\",\"id\":\"");
        out.write(String.format("%07d", n));
        out.write("\",\"n\":");
        out.write(Integer.toString(n));
        out.write(",\"s\":\"abc\"}\n");
      }
    }
  }

  private Process importer(Path data, Path file, String name, boolean resume) throws IOException {
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "import",
                "Million",
                file.toString(),
                "--data",
                data.toString(),
                "--progress-interval",
                "200ms"));
    if (resume) {
      args.add("--resume");
    }
    return ServerProcess.viewbase(args)
        .redirectOutput(dir.resolve(name + ".out").toFile())
        .redirectError(dir.resolve(name + ".err").toFile())
        .start();
  }

  /** Waits until the importer's progress lines show {@code percent} or more; returns the share. */
  private static double awaitProgress(Process importer, Path err, double percent) throws Exception {
    Instant deadline = Instant.now().plus(LIMIT);
    while (Instant.now().isBefore(deadline)) {
      Matcher progress = PROGRESS.matcher(Files.readString(err, StandardCharsets.UTF_8));
      double last = -1;
      while (progress.find()) {
        last = Double.parseDouble(progress.group(1));
      }
      if (last >= percent) {
        return last;
      }
      if (!importer.isAlive()) {
        throw new AssertionError(
            "the import ended (exit "
                + importer.exitValue()
                + ") before "
                + percent
                + "%:\n"
                + Files.readString(err));
      }
      Thread.sleep(20);
    }
    importer.destroyForcibly();
    throw new AssertionError("no progress past " + percent + "% within " + LIMIT);
  }
}
