package io.viewbase.core;

import io.viewbase.api.BackupInfo;
import io.viewbase.api.Batch;
import io.viewbase.api.BatchResult;
import io.viewbase.api.ChangePage;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Limits;
import io.viewbase.api.SweepStatus;
import io.viewbase.api.Table;
import io.viewbase.api.TableInfo;
import io.viewbase.api.TableOptions;
import io.viewbase.api.Value;
import io.viewbase.api.VerifyReport;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import io.viewbase.api.ViewbaseException;
import io.viewbase.storage.spi.BackupRun;
import io.viewbase.storage.spi.StorageException;
import io.viewbase.storage.spi.Store;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded engine: a {@link Database} over a storage {@link Store}, with the catalog, the
 * rules, the version clock and the query executor that its tables share.
 */
public final class EmbeddedDatabase implements Database {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedDatabase.class);

  /**
   * Writer threads: blocked writes wait for a shared log sync, so more of them make larger groups.
   */
  private static final int WRITER_THREADS = 64;

  private final Store store;
  private final Limits limits;
  private final ItemRules rules;
  private final VersionClock clock = new VersionClock();
  private final Catalog catalog;

  /**
   * Null unless other processes may share the store (then the catalog is re-read, see
   * CatalogRefresh).
   */
  private final CatalogRefresh catalogRefresh;

  private final QueryExecutor queries;
  private final ViewMaintainer viewMaintainer;
  private final WritePipeline writes = new WritePipeline(this);
  private final ChangeFeed changeFeed;

  /** Entries one retention pass deletes at most per table, so that a pass stays short. */
  private static final int TRIM_BUDGET = 10_000;

  /** Runs the change feeds' retention every second. */
  private final ScheduledExecutorService retention =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "viewbase-feed-retention");
            t.setDaemon(true);
            return t;
          });

  private final ExecutorService backfills =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "viewbase-backfill");
            t.setDaemon(true);
            return t;
          });

  /**
   * Runs the asynchronous writes that must block (reads first, or a store that commits blocking).
   */
  private final ThreadPoolExecutor writers =
      new ThreadPoolExecutor(
          WRITER_THREADS,
          WRITER_THREADS,
          30,
          TimeUnit.SECONDS,
          new LinkedBlockingQueue<>(),
          r -> {
            Thread t = new Thread(r, "viewbase-writer");
            t.setDaemon(true);
            return t;
          });

  private volatile boolean closed;

  private final Expiry expiry;
  private final Sweeper sweeper;

  /**
   * Removes history entries past their view's retention, on a backfill thread started with the
   * first such view.
   */
  private final HistoryTrimmer trimmer;

  private final AtomicBoolean trimming = new AtomicBoolean();

  EmbeddedDatabase(Store store, Limits limits) {
    this(store, limits, Clock.systemUTC(), SweepSettings.DEFAULT);
  }

  /**
   * @param expiryClock what "now" is when the engine decides whether an item has expired; versions
   *     are system time, so a clock for tests runs with it (an offset, moved forward)
   */
  EmbeddedDatabase(Store store, Limits limits, Clock expiryClock, SweepSettings sweep) {
    this.store = store;
    this.limits = limits;
    this.rules = new ItemRules(limits);
    this.catalogRefresh =
        CatalogRefresh.isNeeded(store.capabilities()) ? new CatalogRefresh() : null;
    this.catalog = new Catalog(store, clock, catalogRefresh);
    this.changeFeed = new ChangeFeed(store, catalogRefresh != null);
    try {
      catalog.load();
    } catch (StorageException e) {
      if (catalogRefresh != null) {
        catalogRefresh.close();
      }
      store.close();
      throw storageError(e);
    }
    if (catalogRefresh != null) {
      catalogRefresh.start(catalog::refresh);
    }
    this.expiry = new Expiry(expiryClock, catalog);
    this.queries =
        new QueryExecutor(
            store, new ContinuationCodec(catalog.tokenSecret()), limits, rules, expiry);
    this.viewMaintainer = new ViewMaintainer(limits);
    writers.allowCoreThreadTimeOut(true);
    for (ViewHandle view : catalog.buildingViews()) {
      startBackfill(view, 0); // every process that was running when it was created has learnt of it
    }
    retention.scheduleWithFixedDelay(this::trimQuietly, 1, 1, TimeUnit.SECONDS);
    this.sweeper =
        new Sweeper(store, catalog, expiry, writes, sweep, catalogRefresh != null, () -> closed);
    sweeper.start();
    this.trimmer = new HistoryTrimmer(store, catalog::views, () -> closed);
    if (catalog.views().stream().anyMatch(EmbeddedDatabase::hasRetention)) {
      startTrimmer();
    }
  }

  @Override
  public long expire(String table) {
    return sweeper.sweep(requireTable(table));
  }

  @Override
  public SweepStatus sweepStatus(String table) {
    return sweeper.status(requireTable(table));
  }

  @Override
  public ViewStatus createView(ViewDefinition definition) {
    checkOpen();
    if (definition == null || definition.name() == null) {
      throw new ViewbaseException(ErrorCode.InvalidView, "A view needs a name");
    }
    try {
      ViewHandle view = catalog.createView(definition);
      if (hasRetention(view)) {
        startTrimmer();
      }
      // Other processes sharing the store maintain the view once they have learnt of it: copy the
      // source only after that, or an item one of them writes meanwhile would be missed.
      startBackfill(view, catalogRefresh == null ? 0 : CatalogRefresh.OTHERS_LEARN.toNanos());
      return view.status();
    } catch (StorageException e) {
      throw storageError(e);
    }
  }

  @Override
  public BatchResult commit(Batch batch) {
    checkOpen();
    if (batch == null) {
      throw new ViewbaseException(ErrorCode.InvalidInput, "A batch is required");
    }
    return writes.commit(batch);
  }

  @Override
  public ViewStatus viewStatus(String name) {
    checkOpen();
    return requireView(name).status();
  }

  @Override
  public void dropView(String name) {
    checkOpen();
    try {
      catalog.dropView(name);
    } catch (StorageException e) {
      throw storageError(e);
    }
  }

  @Override
  public VerifyReport verifyView(String name, boolean repair) {
    checkOpen();
    ViewHandle view = requireView(name);
    view.checkReadable();
    try {
      return new ViewVerifier(store, view, repair).run();
    } catch (StorageException e) {
      throw storageError(e);
    }
  }

  private ViewHandle requireView(String name) {
    TableEntry entry = catalog.require(name);
    if (!entry.isView()) {
      throw ViewbaseException.of(
          ErrorCode.InvalidView, "This is a table, not a view", "view", name);
    }
    return entry.view();
  }

  private void startBackfill(ViewHandle view, long delayNanos) {
    ViewBackfill backfill = new ViewBackfill(store, catalog, view, rules, () -> closed);
    backfills.execute(
        () -> {
          if (delayNanos > 0) {
            try {
              TimeUnit.NANOSECONDS.sleep(delayNanos);
            } catch (InterruptedException e) {
              return; // closing: the next open resumes the backfill
            }
          }
          backfill.run();
        });
  }

  @Override
  public TableInfo createTable(String name) {
    return createTable(name, TableOptions.DEFAULT);
  }

  @Override
  public TableInfo createTable(String name, TableOptions options) {
    checkOpen();
    checkSupported(options);
    try {
      return catalog.create(name, options == null ? TableOptions.DEFAULT : options);
    } catch (StorageException e) {
      throw storageError(e);
    }
  }

  private TableEntry requireTable(String name) {
    TableEntry entry = entry(name);
    if (entry.isView()) {
      throw ViewbaseException.of(
          ErrorCode.TableNotFound, "No table has this name (it is a view)", "table", name);
    }
    return entry;
  }

  @Override
  public TableOptions tableOptions(String name) {
    TableEntry entry = entry(name);
    if (entry.isView()) {
      throw ViewbaseException.of(
          ErrorCode.ViewIsReadOnly, "A view has no options of its own", "view", entry.name());
    }
    return entry.options();
  }

  @Override
  public TableOptions alterTable(String name, TableOptions options) {
    checkOpen();
    if (options == null) {
      throw new ViewbaseException(ErrorCode.InvalidInput, "Altering a table needs its options");
    }
    checkSupported(options);
    try {
      return catalog.alter(name, options);
    } catch (StorageException e) {
      throw storageError(e);
    }
  }

  /** A change feed needs the store's sequences. */
  private void checkSupported(TableOptions options) {
    if (options != null && options.changeFeed().enabled() && !store.capabilities().sequences()) {
      throw new ViewbaseException(
          ErrorCode.NotImplemented,
          "This storage backend keeps no sequences, which a change feed needs");
    }
  }

  /** The change feed of a table ({@link Table#changes}). */
  ChangePage changes(TableEntry entry, long after, int limit, Duration wait) {
    checkOpen();
    try {
      return changeFeed.read(entry, after, limit, wait);
    } catch (StorageException e) {
      throw storageError(e);
    }
  }

  /**
   * Deletes what the change feeds' retention no longer keeps, for every table; the retention task
   * runs it every second, tests call it directly.
   *
   * @return how many entries were deleted
   */
  int trimChanges() {
    long now = Value.DateTime.of(Instant.now()).ticks();
    int deleted = 0;
    for (TableEntry entry : catalog.entries()) {
      if (!entry.isView()) {
        deleted += changeFeed.trim(entry, now, TRIM_BUDGET);
      }
    }
    return deleted;
  }

  @Override
  public void dropTable(String name) {
    checkOpen();
    try {
      catalog.drop(name);
    } catch (StorageException e) {
      throw storageError(e);
    }
  }

  /** Reports the store's, the views' and the change feeds' series: {@link DatabaseMeters}. */
  @Override
  public void bindMeters(io.viewbase.api.Meters meters) {
    checkOpen();
    DatabaseMeters.bind(this, meters);
  }

  /** Every view this process knows, for {@link DatabaseMeters}. */
  List<ViewHandle> viewHandles() {
    return catalog.views();
  }

  @Override
  public List<TableInfo> listTables() {
    checkOpen();
    return catalog.list();
  }

  @Override
  public Table table(String name) {
    return new EmbeddedTable(this, entry(name));
  }

  /** The table or view by that name, or TableNotFound. */
  TableEntry entry(String name) {
    checkOpen();
    return catalog.require(name);
  }

  @Override
  public Optional<String> setting(String table, String name) {
    checkOpen();
    try {
      return catalog.setting(table, name);
    } catch (StorageException e) {
      throw storageError(e);
    }
  }

  @Override
  public void putSetting(String table, String name, String value) {
    checkOpen();
    try {
      catalog.putSetting(table, name, value);
    } catch (StorageException e) {
      throw storageError(e);
    }
  }

  /**
   * The store's backup: it alone knows its files, and its commits are what a backup must hold. Its
   * refusals become the API's codes:
   *
   * <pre>
   * store throws                  | error
   * ------------------------------+-----------------------------------------------
   * UnsupportedOperationException | NotImplemented (its message says what instead)
   * IllegalArgumentException      | InvalidInput, with "to"
   * IllegalStateException         | BackupInProgress, with "to"
   * StorageException              | as {@link #storageError}
   * </pre>
   */
  @Override
  public BackupInfo backup(Path to) {
    checkOpen();
    if (to == null) {
      throw new ViewbaseException(ErrorCode.InvalidInput, "A backup needs a target directory");
    }
    try {
      BackupRun run = store.backup(to);
      return new BackupInfo(
          run.backup().id(),
          run.backup().created(),
          to.toAbsolutePath().normalize().toString(),
          run.backup().sizeBytes(),
          run.backup().files(),
          run.filesCopied(),
          run.filesShared(),
          run.bytesCopied(),
          run.took());
    } catch (UnsupportedOperationException e) {
      throw new ViewbaseException(ErrorCode.NotImplemented, e.getMessage(), java.util.Map.of(), e);
    } catch (IllegalArgumentException e) {
      throw new ViewbaseException(
          ErrorCode.InvalidInput, e.getMessage(), java.util.Map.of("to", to.toString()), e);
    } catch (IllegalStateException e) {
      throw new ViewbaseException(
          ErrorCode.BackupInProgress, e.getMessage(), java.util.Map.of("to", to.toString()), e);
    } catch (StorageException e) {
      throw storageError(e);
    }
  }

  @Override
  public Limits limits() {
    return limits;
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      if (catalogRefresh != null) {
        catalogRefresh.close();
      }
      backfills.shutdownNow();
      retention.shutdownNow();
      sweeper.stop();
      writers.shutdown(); // the queued writes fail fast (the database is closed), the running ones
      // finish
      try {
        backfills.awaitTermination(30, TimeUnit.SECONDS);
        retention.awaitTermination(30, TimeUnit.SECONDS);
        writers.awaitTermination(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      store.close();
    }
  }

  /** The retention task's pass: a failure is logged and the next pass tries again. */
  private void trimQuietly() {
    if (closed) {
      return;
    }
    try {
      trimChanges();
    } catch (RuntimeException e) {
      if (!closed) {
        LOG.warn("Change feed retention pass failed; the next one retries", e);
      }
    }
  }

  Catalog catalog() {
    return catalog;
  }

  Store store() {
    return store;
  }

  ChangeFeed changeFeed() {
    return changeFeed;
  }

  /** Where asynchronous writes that must block run. */
  Executor writers() {
    return writers;
  }

  ItemRules rules() {
    return rules;
  }

  private static boolean hasRetention(ViewHandle view) {
    ViewDefinition d = view.spec().definition();
    return d.retention() != null && !d.retention().isNone();
  }

  private void startTrimmer() {
    if (trimming.compareAndSet(false, true)) {
      backfills.execute(trimmer);
    }
  }

  /**
   * Runs a retention pass over the history views now (tests; the database runs one every {@link
   * HistoryTrimmer#INTERVAL}); returns the entries removed.
   */
  long trimHistories() {
    checkOpen();
    return trimmer.pass();
  }

  VersionClock clock() {
    return clock;
  }

  Catalog catalogForTests() {
    return catalog;
  }

  WritePipeline writes() {
    return writes;
  }

  ViewMaintainer viewMaintainer() {
    return viewMaintainer;
  }

  Expiry expiry() {
    return expiry;
  }

  QueryExecutor queries() {
    return queries;
  }

  void checkOpen() {
    if (closed) {
      throw new ViewbaseException(ErrorCode.DatabaseClosed, "The database is closed");
    }
  }

  /**
   * A storage failure as its caller's error. A closed store means the database closed while the
   * call was in flight (a call after close fails {@link #checkOpen} first), so it is shutting down.
   *
   * <pre>
   * storage failure | error              | retry
   * ----------------+--------------------+-------------------------------------------
   * FAILED          | InternalError      | no: a bug or a broken store
   * CLOSED          | ShuttingDown       | yes, elsewhere or once it is open again
   * CONTENDED       | WriteConflict      | yes: nothing was written
   * LOCKED          | StorageLocked      | no: another process holds the directory
   * UNREACHABLE     | StorageUnreachable | no, not at once: the backend is down
   * TIMED_OUT       | Timeout            | check first: a write may have applied
   * NO_SPACE        | InsufficientStorage| once space is freed: nothing was written
   * </pre>
   */
  static ViewbaseException storageError(StorageException e) {
    ErrorCode code =
        switch (e.kind()) {
          case FAILED -> ErrorCode.InternalError;
          case CLOSED -> ErrorCode.ShuttingDown;
          case CONTENDED -> ErrorCode.WriteConflict;
          case LOCKED -> ErrorCode.StorageLocked;
          case UNREACHABLE -> ErrorCode.StorageUnreachable;
          case TIMED_OUT -> ErrorCode.Timeout;
          case NO_SPACE -> ErrorCode.InsufficientStorage;
        };
    return new ViewbaseException(code, e.getMessage(), java.util.Map.of(), e);
  }
}
