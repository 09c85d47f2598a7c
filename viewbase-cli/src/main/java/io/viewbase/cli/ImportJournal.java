package io.viewbase.cli;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.Properties;

/**
 * Where an import stands after its last committed batch, kept beside the input as {@code
 * FILE.import-progress} so that {@code import --resume} goes on from there: the byte offset and
 * line number of the first row not yet committed, the counts so far, and the length of the rejects
 * file then (a resumed import cuts the file back to it, so rows rejected after the last commit are
 * not listed twice).
 *
 * <p>It is written after every commit, to a temporary file moved over the old one (a crash leaves
 * the old or the new journal, never half of one), and removed when the import ends. A crash between
 * a commit and its journal costs that batch's rows a second write at the resume, which {@code
 * upsert} and {@code merge} make harmless. It is not synced to disk: it survives a killed process,
 * and a lost machine's page cache takes it back at most a few batches, which the resume writes
 * again.
 *
 * @param table the table imported into (a resume into another is a usage error)
 * @param format the input's format
 * @param offset the byte offset after the last committed batch
 * @param line the line number there
 * @param read rows read so far
 * @param imported rows committed so far
 * @param rejected rows rejected so far
 * @param rejectsBytes the rejects file's length after the last committed batch
 */
record ImportJournal(
    String table,
    String format,
    long offset,
    long line,
    long read,
    long imported,
    long rejected,
    long rejectsBytes) {

  static Path of(Path input) {
    return input.resolveSibling(input.getFileName() + ".import-progress");
  }

  static Optional<ImportJournal> load(Path journal) {
    if (!Files.exists(journal)) {
      return Optional.empty();
    }
    Properties p = new Properties();
    try {
      p.load(new StringReader(Files.readString(journal, StandardCharsets.UTF_8)));
      return Optional.of(
          new ImportJournal(
              p.getProperty("table"),
              p.getProperty("format"),
              number(p, "offset"),
              number(p, "line"),
              number(p, "read"),
              number(p, "imported"),
              number(p, "rejected"),
              number(p, "rejectsBytes")));
    } catch (IOException | RuntimeException unreadable) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "The import journal cannot be read; delete it to import from the start",
          "journal",
          journal);
    }
  }

  void save(Path journal) {
    String text =
        "# viewbase import: where 'import --resume' goes on\n"
            + "table="
            + table
            + "\nformat="
            + format
            + "\noffset="
            + offset
            + "\nline="
            + line
            + "\nread="
            + read
            + "\nimported="
            + imported
            + "\nrejected="
            + rejected
            + "\nrejectsBytes="
            + rejectsBytes
            + "\n";
    Path next = journal.resolveSibling(journal.getFileName() + ".next");
    try {
      Files.writeString(next, text, StandardCharsets.UTF_8);
      Files.move(
          next, journal, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long number(Properties p, String name) {
    return Long.parseLong(p.getProperty(name).trim());
  }
}
