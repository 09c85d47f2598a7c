package io.viewbase.cli;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.ItemCursor;
import io.viewbase.api.Query;
import io.viewbase.api.Table;
import io.viewbase.api.ViewbaseException;
import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code viewbase export TABLE|VIEW}: writes every item of a table or view (or those a {@code
 * --filter} selects) as JSON Lines or CSV ({@link ExportSink} says what is written), to standard
 * output or {@code --output FILE}. The items stream through the query API a page at a time, so
 * memory holds one page, never the table; the CSV formats read the items twice (a first pass finds
 * the header's columns). A file is written beside its name and moved there when complete, so a
 * failed export leaves no partial file; standard output gets what was written until the failure.
 *
 * <p>stdout holds only the items; a summary (items, bytes, seconds, rates) goes to stderr.
 */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    description = "Export the items of a table or view as JSON Lines or CSV.")
final class ExportCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin DatabaseTarget target;

  @Parameters(index = "0", paramLabel = "TABLE", description = "The table or view.")
  String table;

  @Option(
      names = "--filter",
      paramLabel = "EXPR",
      description = "Only the items this OData filter selects, e.g. \"age gt 30\".")
  String filter;

  @Option(
      names = "--format",
      paramLabel = "jsonl|csv|azure-csv",
      converter = TransferFormat.Converter.class,
      description =
          "The output's format (default: azure-csv for *.typed.csv, csv for *.csv, else jsonl).")
  TransferFormat format;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description = "Write to FILE instead of standard output.")
  Path output;

  @Option(
      names = "--system",
      description =
          "Include the system properties: _etag and _timestamp (and a view item's source), "
              + "azure-csv's Timestamp. An import ignores them.")
  boolean system;

  @Override
  public Integer call() {
    TransferFormat outputFormat = format != null ? format : TransferFormat.of(output);
    try (Database db = target.open()) {
      Table source = db.table(table);
      ExportSink sink = ExportSink.of(outputFormat, system);
      Query query = Query.all().withFilter(filter);
      long start = System.nanoTime();
      if (sink.needsScan()) {
        try (ItemCursor items = source.cursor(query)) {
          while (items.hasNext()) {
            sink.scan(items.next());
          }
        }
      }
      long items = 0;
      Path partial =
          output == null ? null : output.resolveSibling(output.getFileName() + ".partial");
      Counting counted;
      try (Counting out = new Counting(open(partial));
          ItemCursor cursor = source.cursor(query)) {
        counted = out;
        sink.begin(out);
        while (cursor.hasNext()) {
          sink.write(cursor.next(), out);
          items++;
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (RuntimeException failure) {
        deleteQuietly(partial);
        throw failure;
      }
      if (partial != null) {
        move(partial, output);
      }
      double seconds = Math.max(1e-9, (System.nanoTime() - start) / 1e9);
      err()
          .printf(
              Locale.ROOT,
              "export %s: %,d items, %.1f MB, %.1f s, %,.0f items/s, %.1f MB/s%n",
              source.name(),
              items,
              counted.bytes / 1e6,
              seconds,
              items / seconds,
              counted.bytes / seconds / 1e6);
      err().flush();
      return 0;
    } catch (RuntimeException failure) {
      throw target.explain(failure);
    }
  }

  /** The file being written, or standard output (which stays open). */
  private static OutputStream open(Path partial) {
    if (partial == null) {
      return new BufferedOutputStream(
          new FilterOutputStream(System.out) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
              out.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
              flush(); // standard output stays open
            }
          },
          1 << 16);
    }
    try {
      return new BufferedOutputStream(Files.newOutputStream(partial), 1 << 16);
    } catch (IOException e) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput, "Cannot write the output: " + e.getMessage(), "file", partial);
    }
  }

  private static void move(Path partial, Path output) {
    try {
      Files.move(partial, output, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteQuietly(Path partial) {
    if (partial != null) {
      try {
        Files.deleteIfExists(partial);
      } catch (IOException ignored) {
        // the failure being reported matters more
      }
    }
  }

  /** Counts the bytes written, for the summary. */
  private static final class Counting extends FilterOutputStream {
    long bytes;

    Counting(OutputStream out) {
      super(out);
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      bytes++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      bytes += len;
    }
  }

  private PrintWriter err() {
    return spec.commandLine().getErr();
  }
}
