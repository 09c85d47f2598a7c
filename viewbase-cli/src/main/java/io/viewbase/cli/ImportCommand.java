package io.viewbase.cli;

import io.viewbase.api.Batch;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Limits;
import io.viewbase.api.TableInfo;
import io.viewbase.api.ViewbaseException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code viewbase import TABLE [FILE|-]}: writes the items of a JSON Lines or CSV file (or standard
 * input) into a table, in batches through the atomic batch API, in the file's order.
 *
 * <p>Each batch holds up to {@code --batch-size} rows (at most {@value Batch#MAX_OPERATIONS}, and
 * {@value Batch#MAX_BYTES} bytes of input); a key met twice ends the batch before its second row,
 * since a batch writes an item once. A row the reader cannot turn into an item, or that the commit
 * refuses, is rejected and the import goes on:
 *
 * <pre>
 * the commit fails with                      | then
 * -------------------------------------------+-----------------------------------------------------
 * a client error naming an operation         | that row is rejected (its code and message, without
 *   (InvalidKey, ItemTooLarge, ...)          |   the batch's wording); the rest is committed again
 * a client error naming none (the batch's    | the batch is committed in halves, down to single rows,
 *   size)                                    |   and a single row is rejected
 * TableNotFound, ViewIsReadOnly,             | the import stops: exit 1, the journal kept for
 *   TableBeingDeleted, any 5xx (the store,   |   --resume
 *   the server unreachable)                  |
 * </pre>
 *
 * Up to {@code --parallel} batches are committed at once (a store syncs the commits that wait
 * together once) and their outcomes taken in the file's order; a batch that writes a key one in
 * flight writes waits for it, so a key's last row wins as it would one batch at a time.
 *
 * <p>After each commit the rejected rows go to the rejects file and the position to the journal
 * ({@link ImportJournal}), so {@code --resume} goes on after the last batch committed in order,
 * writing again only the rows of the batches in flight at the crash; with the default {@code
 * upsert} a repeated row is harmless. Progress shows on stderr ({@link Progress}), and a summary
 * ends the import.
 *
 * <pre>
 * outcome                      | stderr                                               | exit
 * -----------------------------+------------------------------------------------------+-----
 * every row imported           | progress, summary                                    | 0
 * rows rejected                | progress, summary, error: InvalidInput: n rows were  | 1
 *                              |   rejected ... (the rejects file)                    |
 * stopped (a fatal error)      | progress, "import T stopped after line n ...",       | 1
 *                              |   error: ...                                         |
 * bad arguments, --resume with | error: Usage: ...                                    | 2
 *   stdin, a journal of another|                                                      |
 *   table                      |                                                      |
 * </pre>
 */
@Command(
    name = "import",
    mixinStandardHelpOptions = true,
    description =
        "Import items from a JSON Lines or CSV file (or stdin) into a table, in atomic batches;"
            + " resumable with --resume.")
final class ImportCommand implements Callable<Integer> {
  /** A row longer than this many times the item limit cannot hold an item within the limit. */
  static final int ROW_BYTES_PER_ITEM_BYTE = 4;

  private static final Pattern BATCH_WORDING =
      Pattern.compile("^Operation \\d+ of the batch failed: ");

  /** How an imported row is written. */
  enum Mode {
    /** Stores the row's item, replacing one already there (a re-run is idempotent). */
    upsert(Batch.Kind.UPSERT),
    /** Stores the row's item; an item already there rejects the row (ItemAlreadyExists). */
    insert(Batch.Kind.INSERT),
    /** Merges the row's properties into the item there, or stores it if absent (upsertMerge). */
    merge(Batch.Kind.UPSERT_MERGE);

    final Batch.Kind kind;

    Mode(Batch.Kind kind) {
      this.kind = kind;
    }
  }

  @Spec CommandSpec spec;

  @Mixin DatabaseTarget target;

  @Parameters(index = "0", paramLabel = "TABLE", description = "The table (created if absent).")
  String table;

  @Parameters(
      index = "1",
      arity = "0..1",
      paramLabel = "FILE",
      description = "The input; - or none reads standard input.")
  String file;

  @Option(
      names = "--format",
      paramLabel = "jsonl|csv|azure-csv",
      converter = TransferFormat.Converter.class,
      description =
          "The input's format (default: azure-csv for *.typed.csv, csv for *.csv, else jsonl).")
  TransferFormat format;

  @Option(
      names = "--mode",
      paramLabel = "upsert|insert|merge",
      defaultValue = "upsert",
      description = "How rows are written (default: ${DEFAULT-VALUE}).")
  Mode mode;

  @Option(
      names = "--batch-size",
      paramLabel = "N",
      defaultValue = "" + Batch.MAX_OPERATIONS,
      description =
          "Rows per atomic batch, 1.." + Batch.MAX_OPERATIONS + " (default: ${DEFAULT-VALUE}).")
  int batchSize;

  @Option(
      names = "--parallel",
      paramLabel = "N",
      defaultValue = "4",
      description =
          "Batches committed at once, 1..64 (default: ${DEFAULT-VALUE}); rows still land in the"
              + " file's order.")
  int parallel;

  @Option(
      names = "--resume",
      description = "Go on after the last committed batch of an import of FILE that was stopped.")
  boolean resume;

  @Option(
      names = "--rejects",
      paramLabel = "FILE",
      description = "Where rejected rows go (default: FILE.rejects; TABLE.rejects for stdin).")
  Path rejects;

  @Option(
      names = "--types",
      paramLabel = "name=Type",
      split = ",",
      description = "csv: the types of plain header columns, e.g. age=Int32,born=DateTime.")
  Map<String, String> types = new LinkedHashMap<>();

  @Option(
      names = "--progress-interval",
      paramLabel = "DURATION",
      defaultValue = "5s",
      converter = DurationConverter.class,
      description =
          "Time between progress lines when stderr is no terminal (default: ${DEFAULT-VALUE}).")
  Duration progressInterval;

  private long read;
  private long imported;
  private long rejected;

  @Override
  public Integer call() {
    if (batchSize < 1 || batchSize > Batch.MAX_OPERATIONS) {
      throw new ParameterException(
          spec.commandLine(), "--batch-size must be 1.." + Batch.MAX_OPERATIONS);
    }
    if (parallel < 1 || parallel > 64) {
      throw new ParameterException(spec.commandLine(), "--parallel must be 1..64");
    }
    Path input = file == null || file.equals("-") ? null : Path.of(file);
    if (resume && input == null) {
      throw new ParameterException(
          spec.commandLine(), "--resume needs the input FILE: standard input cannot be read again");
    }
    TransferFormat inputFormat = format != null ? format : TransferFormat.of(input);
    if (!types.isEmpty() && inputFormat != TransferFormat.CSV) {
      throw new ParameterException(spec.commandLine(), "--types applies to --format csv only");
    }
    Path journalPath = input == null ? null : ImportJournal.of(input);
    Optional<ImportJournal> journal = Optional.empty();
    if (resume) {
      journal = ImportJournal.load(journalPath);
      if (journal.isPresent()
          && (!journal.get().table().equalsIgnoreCase(table)
              || !journal.get().format().equals(inputFormat.toString()))) {
        throw new ParameterException(
            spec.commandLine(),
            "The journal "
                + journalPath
                + " is of an import into "
                + journal.get().table()
                + " as "
                + journal.get().format()
                + "; resume that, or delete the journal");
      }
      if (journal.isEmpty()) {
        err()
            .println(
                "import " + table + ": no journal " + journalPath + "; starting at the beginning");
      }
    }
    if (!resume && journalPath != null && Files.exists(journalPath)) {
      err()
          .println(
              "import "
                  + table
                  + ": "
                  + journalPath
                  + " is an unfinished import's journal; starting at the beginning"
                  + " (--resume would go on from it)");
    }
    Path rejectsPath =
        rejects != null
            ? rejects
            : input == null
                ? Path.of(table + ".rejects")
                : input.resolveSibling(input.getFileName() + ".rejects");
    try (Database db = target.open()) {
      String name = ensureTable(db);
      try (InputStream in = open(input);
          ByteInput bytes = new ByteInput(in, 0);
          RejectsFile rejectsFile =
              RejectsFile.open(rejectsPath, journal.map(ImportJournal::rejectsBytes).orElse(-1L))) {
        run(db, name, input, inputFormat, bytes, journal, journalPath, rejectsFile);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    } catch (RuntimeException failure) {
      throw target.explain(failure);
    }
    if (rejected > 0) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          String.format(
              Locale.ROOT,
              "%,d rows were rejected; their lines and reasons are in %s",
              rejected,
              rejectsPath),
          "rejected",
          rejected,
          "rejects",
          rejectsPath);
    }
    return 0;
  }

  private void run(
      Database db,
      String name,
      Path input,
      TransferFormat inputFormat,
      ByteInput bytes,
      Optional<ImportJournal> journal,
      Path journalPath,
      RejectsFile rejectsFile) {
    Limits limits = db.limits();
    int maxRowBytes =
        (int)
            Math.min(
                Integer.MAX_VALUE - 16, (long) ROW_BYTES_PER_ITEM_BYTE * limits.maxItemBytes());
    ImportRow.Reader rows =
        switch (inputFormat) {
          case JSONL -> new JsonlRows(bytes, limits, maxRowBytes);
          case CSV -> CsvRows.csv(bytes, limits, maxRowBytes, types);
          case AZURE_CSV -> CsvRows.azure(bytes, limits, maxRowBytes);
        };
    if (journal.isPresent()) {
      ImportJournal j = journal.get();
      bytes.skipTo(j.offset());
      bytes.setLine(j.line());
      read = j.read();
      imported = j.imported();
      rejected = j.rejected();
      committedLine = j.line();
      err()
          .printf(
              Locale.ROOT,
              "import %s: resuming at line %,d (byte %,d), %,d rows imported before%n",
              name,
              j.line(),
              j.offset(),
              j.imported());
    }
    long size = input == null ? -1 : size(input);
    long startOffset = bytes.offset();
    long startRead = read;
    long start = System.nanoTime();
    progressStart = start;
    progressStartOffset = startOffset;
    progressStartRead = startRead;
    Progress progress =
        new Progress(
            err(),
            "import " + name,
            "importing",
            Progress.interactive(),
            Duration.ofMillis(100),
            progressInterval);
    ImportRow held = null;
    long heldOffset = 0;
    long heldLine = 0;
    boolean end = false;
    Committer committer = new Committer(db, name, parallel);
    try {
      while (!end) {
        List<ImportRow> batch = new ArrayList<>(batchSize);
        List<Rejection> refused = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        long batchBytes = 0;
        while (batch.size() < batchSize && refused.size() < batchSize) {
          long beforeOffset = bytes.offset();
          long beforeLine = bytes.line();
          ImportRow row;
          if (held != null) {
            row = held;
            beforeOffset = heldOffset;
            beforeLine = heldLine;
            held = null;
          } else {
            row = rows.next();
          }
          if (row == null) {
            end = true;
            break;
          }
          if (row.error() != null) {
            read++;
            refused.add(new Rejection(row.line(), row.error()));
            continue;
          }
          String key = key(row);
          if (!batch.isEmpty()
              && (keys.contains(key) || batchBytes + row.bytes() > Batch.MAX_BYTES)) {
            held = row;
            heldOffset = beforeOffset;
            heldLine = beforeLine;
            break;
          }
          read++;
          keys.add(key);
          batch.add(row);
          batchBytes += row.bytes();
        }
        // A key that a batch still in flight writes waits for it: rows land in the file's order.
        while (committer.writesAny(keys)) {
          complete(committer.oldest(), rejectsFile, journalPath, inputFormat, name, progress, size);
        }
        committer.submit(
            batch,
            refused,
            keys,
            held != null ? heldOffset : bytes.offset(),
            held != null ? heldLine : bytes.line(),
            read);
        while (committer.full() || (end && committer.pending())) {
          complete(committer.oldest(), rejectsFile, journalPath, inputFormat, name, progress, size);
        }
      }
    } catch (RuntimeException stopped) {
      committer.stop();
      progress.finish(
          String.format(
              Locale.ROOT,
              "stopped after line %,d: %,d rows read, %,d imported, %,d rejected%s",
              committedLine - 1,
              read,
              imported,
              rejected,
              journalPath == null
                  ? ""
                  : "; run it again with --resume to go on after the last committed batch"));
      throw stopped;
    }
    committer.stop();
    if (journalPath != null) {
      try {
        Files.deleteIfExists(journalPath);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    double seconds = Math.max(1e-9, (System.nanoTime() - start) / 1e9);
    progress.finish(
        String.format(
            Locale.ROOT,
            "done: %,d rows read, %,d imported, %,d rejected%s, %.1f s, %,.0f rows/s, %.1f MB/s",
            read,
            imported,
            rejected,
            rejected > 0 ? " (" + rejectsFile.path() + ")" : "",
            seconds,
            (read - startRead) / seconds,
            (bytes.offset() - startOffset) / seconds / 1e6));
  }

  private long committedLine = 1;
  private long progressStart;
  private long progressStartOffset;
  private long progressStartRead;

  /**
   * Takes the oldest batch's outcome, in the file's order: its rejected rows to the rejects file,
   * its position to the journal (every batch before it is committed too), the progress display.
   */
  private void complete(
      Committer.Flight flight,
      RejectsFile rejectsFile,
      Path journalPath,
      TransferFormat inputFormat,
      String name,
      Progress progress,
      long size) {
    Committer.Outcome outcome = flight.outcome();
    List<Rejection> refused = new ArrayList<>(flight.parseRejects());
    refused.addAll(outcome.refused());
    refused.sort(Comparator.comparingLong(Rejection::line));
    for (Rejection r : refused) {
      rejectsFile.add(r.line(), r.error());
    }
    rejected += refused.size();
    imported += outcome.imported();
    committedLine = flight.endLine();
    if (journalPath != null) {
      new ImportJournal(
              name,
              inputFormat.toString(),
              flight.endOffset(),
              flight.endLine(),
              flight.readAtEnd(),
              imported,
              rejected,
              rejectsFile.length())
          .save(journalPath);
    }
    long done = flight.endOffset();
    progress.update(
        size > 0 ? (double) done / size : -1,
        describe(
            done - progressStartOffset,
            flight.readAtEnd() - progressStartRead,
            progressStart,
            done,
            size));
  }

  private static String key(ImportRow row) {
    return row.item().partitionKey() + '\u0000' + row.item().id();
  }

  /**
   * {@code 412,000 rows (41.2%), 52,310 rows/s, 5.1 MB/s, ETA 0:11, 3 rejected}; without the share
   * and ETA when the input's size is unknown (standard input).
   */
  private String describe(long bytesRead, long rowsRead, long start, long done, long size) {
    double seconds = Math.max(1e-9, (System.nanoTime() - start) / 1e9);
    double bytesPerSecond = bytesRead / seconds;
    StringBuilder text = new StringBuilder(String.format(Locale.ROOT, "%,d rows", read));
    if (size > 0) {
      text.append(" (").append(Progress.percent((double) done / size)).append(')');
    }
    text.append(
        String.format(
            Locale.ROOT, ", %,.0f rows/s, %.1f MB/s", rowsRead / seconds, bytesPerSecond / 1e6));
    if (size > 0 && bytesPerSecond > 0) {
      text.append(", ETA ")
          .append(Progress.duration((long) Math.ceil((size - done) / bytesPerSecond)));
    }
    if (rejected > 0) {
      text.append(String.format(Locale.ROOT, ", %,d rejected", rejected));
    }
    return text.toString();
  }

  /** A rejected row: its line and why. */
  private record Rejection(long line, ViewbaseException error) {}

  /**
   * Commits batches, up to {@code parallel} at a time (a store syncs the commits that wait together
   * once, so this multiplies the rate of synced writes), and hands their outcomes back in the order
   * they were submitted.
   */
  private final class Committer {
    private final Database db;
    private final String table;
    private final int parallel;
    private final ExecutorService pool;
    private final Deque<Flight> flights = new ArrayDeque<>();
    private final Map<String, Integer> keysInFlight = new HashMap<>();

    /** What a committed batch did: rows imported, rows the commit refused. */
    record Outcome(int imported, List<Rejection> refused) {}

    /** A batch on its way, with what the journal records once it is done. */
    record Flight(
        Future<Outcome> future,
        Set<String> keys,
        List<Rejection> parseRejects,
        long endOffset,
        long endLine,
        long readAtEnd) {
      Outcome outcome() {
        try {
          return future.get();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("Interrupted while importing", e);
        } catch (ExecutionException e) {
          if (e.getCause() instanceof RuntimeException failure) {
            throw failure;
          }
          throw new IllegalStateException(e.getCause());
        }
      }
    }

    Committer(Database db, String table, int parallel) {
      this.db = db;
      this.table = table;
      this.parallel = parallel;
      this.pool =
          Executors.newFixedThreadPool(
              parallel,
              r -> {
                Thread t = new Thread(r, "import-commit");
                t.setDaemon(true);
                return t;
              });
    }

    boolean writesAny(Set<String> keys) {
      for (String key : keys) {
        if (keysInFlight.containsKey(key)) {
          return true;
        }
      }
      return false;
    }

    void submit(
        List<ImportRow> rows,
        List<Rejection> parseRejects,
        Set<String> keys,
        long endOffset,
        long endLine,
        long readAtEnd) {
      Future<Outcome> future =
          rows.isEmpty()
              ? CompletableFuture.completedFuture(new Outcome(0, List.of()))
              : pool.submit(
                  () -> {
                    List<Rejection> refused = new ArrayList<>();
                    int imported = commit(rows, refused);
                    return new Outcome(imported, refused);
                  });
      for (String key : keys) {
        keysInFlight.merge(key, 1, Integer::sum);
      }
      flights.addLast(new Flight(future, keys, parseRejects, endOffset, endLine, readAtEnd));
    }

    boolean full() {
      return flights.size() >= parallel;
    }

    boolean pending() {
      return !flights.isEmpty();
    }

    /** The oldest batch, once it is done; its keys are no longer in flight. */
    Flight oldest() {
      Flight flight = flights.removeFirst();
      try {
        flight.outcome();
      } finally {
        for (String key : flight.keys()) {
          keysInFlight.computeIfPresent(key, (k, n) -> n == 1 ? null : n - 1);
        }
      }
      return flight;
    }

    /** Lets the batches in flight end (a stopped import's too), then the threads. */
    void stop() {
      pool.shutdown();
      try {
        pool.awaitTermination(5, TimeUnit.MINUTES);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    /**
     * Commits the rows as one batch, narrowing a refusal to the row that caused it (which is
     * rejected) and committing the others again; returns how many were committed.
     */
    private int commit(List<ImportRow> rows, List<Rejection> refused) {
      List<ImportRow> pending = new ArrayList<>(rows);
      while (!pending.isEmpty()) {
        Batch.Builder batch = Batch.builder();
        for (ImportRow row : pending) {
          batch.add(mode.kind, table, row.item(), null);
        }
        try {
          db.commit(batch.build());
          return pending.size();
        } catch (ViewbaseException failure) {
          if (stopsTheImport(failure.code())) {
            throw failure;
          }
          int index = operationIndex(failure);
          if (index >= 0 && index < pending.size()) {
            refused.add(new Rejection(pending.remove(index).line(), rowError(failure)));
          } else if (pending.size() == 1) {
            refused.add(new Rejection(pending.remove(0).line(), rowError(failure)));
          } else {
            int half = pending.size() / 2;
            return commit(pending.subList(0, half), refused)
                + commit(pending.subList(half, pending.size()), refused);
          }
        }
      }
      return 0;
    }
  }

  /** Errors no row causes: the table, the store, the server. */
  private static boolean stopsTheImport(ErrorCode code) {
    return !code.isClientError()
        || code == ErrorCode.TableNotFound
        || code == ErrorCode.ViewIsReadOnly
        || code == ErrorCode.TableBeingDeleted;
  }

  private static int operationIndex(ViewbaseException failure) {
    Object index = failure.context().get("operationIndex");
    if (index == null) {
      return -1;
    }
    try {
      return Integer.parseInt(String.valueOf(index));
    } catch (NumberFormatException notANumber) {
      return -1;
    }
  }

  /** A batch error as the row's own: without "Operation n of the batch failed" and its index. */
  private static ViewbaseException rowError(ViewbaseException failure) {
    Map<String, Object> context = new LinkedHashMap<>(failure.context());
    context.remove("operationIndex");
    context.remove("operation");
    context.remove("table");
    return new ViewbaseException(
        failure.code(), BATCH_WORDING.matcher(failure.getMessage()).replaceFirst(""), context);
  }

  /** The table's name as the catalog spells it; created when absent. */
  private String ensureTable(Database db) {
    for (TableInfo info : db.listTables()) {
      if (info.name().equalsIgnoreCase(table)) {
        if (TableInfo.VIEW.equals(info.kind())) {
          throw ViewbaseException.of(
              ErrorCode.ViewIsReadOnly,
              "A view cannot be imported into; import into its source table",
              "view",
              info.name(),
              "source",
              info.source());
        }
        return info.name();
      }
    }
    TableInfo created = db.createTable(table);
    err().println("import " + created.name() + ": created the table");
    return created.name();
  }

  private static InputStream open(Path input) {
    if (input == null) {
      return new java.io.FilterInputStream(System.in) {
        @Override
        public void close() {} // standard input stays open
      };
    }
    try {
      return Files.newInputStream(input);
    } catch (NoSuchFileException missing) {
      throw ViewbaseException.of(ErrorCode.InvalidInput, "Input file not found", "file", input);
    } catch (IOException e) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput, "Cannot read the input: " + e.getMessage(), "file", input);
    }
  }

  private static long size(Path input) {
    try {
      return Files.isRegularFile(input) ? Files.size(input) : -1;
    } catch (IOException e) {
      return -1;
    }
  }

  private PrintWriter err() {
    return spec.commandLine().getErr();
  }
}
