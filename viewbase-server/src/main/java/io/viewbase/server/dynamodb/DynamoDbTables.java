package io.viewbase.server.dynamodb;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Stability;
import io.viewbase.api.TableInfo;
import io.viewbase.api.TableOptions;
import io.viewbase.api.ViewStatus;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.dynamodb.DynamoDbTable.Index;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * The DynamoDB tables of one database: each a Viewbase table with its description as the table
 * setting {@value StoredTables#SETTING} ({@link StoredTables}), each index a copy view ({@link
 * IndexViews}). Lookups go by DynamoDB name (case-sensitive) through the two candidates of {@link
 * TableNames}, and are cached.
 *
 * <pre>
 * change           | does, in order                                   | a crash half-way leaves
 * -----------------+--------------------------------------------------+-------------------------------
 * create           | create the Viewbase table (the first free name),  | a Viewbase table (and views)
 *                  |   the views of its indexes, then the setting      |   without the setting: a native
 *                  |                                                  |   table, no DynamoDB table
 * add an index     | create the view (it backfills online), then the  | a view the table does not name
 *                  |   setting that names it                          |
 * drop an index    | the setting without it, then drop the view       | a view the table does not name
 * delete           | drop the Viewbase table: its views and settings  | nothing: one atomic drop
 *                  |   go with it                                     |
 * anything else    | the setting                                      | nothing
 * </pre>
 *
 * <p>The cache holds each table's description for one second after it was read; this server's own
 * changes replace it at once, so this server reads its own changes. Other servers sharing the store
 * (Cassandra) see a table created here at their next lookup of it, and a change or a delete within
 * about a second; until then an item operation there may still use the old description, and an item
 * operation on a deleted table fails as the engine refuses it (ResourceNotFoundException). Changes
 * through this server are made one at a time; two servers changing one table's description at once
 * (adding two indexes, say) may lose one of the changes, so send table changes through one server,
 * or one at a time.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class DynamoDbTables {
  /** How long a description read from the catalog is used without reading it again. */
  static final Duration FRESH = Duration.ofSeconds(1);

  /**
   * How long a create waits for the description of a table that another server has just created
   * under the candidate name, before taking it for a native table.
   */
  private static final Duration RACE_WAIT = Duration.ofSeconds(2);

  private static final Duration RECENT = Duration.ofSeconds(10);

  /** How long {@link #awaitIndexes} waits at most for a new table's index views. */
  private static final Duration INDEXES_READY = Duration.ofSeconds(10);

  private record Cached(DynamoDbTable table, long readAt) {}

  private final Database db;
  private final Map<String, Cached> cache = new ConcurrentHashMap<>();
  private final Object changes = new Object();

  public DynamoDbTables(Database db) {
    this.db = db;
  }

  /** The database the tables are in. */
  public Database database() {
    return db;
  }

  /** The table of this DynamoDB name, if there is one. */
  public Optional<DynamoDbTable> find(String name) {
    Cached c = cache.get(name);
    if (c != null && System.nanoTime() - c.readAt() < FRESH.toNanos()) {
      return Optional.of(c.table());
    }
    Optional<DynamoDbTable> read = read(name);
    if (read.isPresent()) {
      cache.put(name, new Cached(read.get(), System.nanoTime()));
    } else {
      cache.remove(name);
    }
    return read;
  }

  /**
   * The table of this DynamoDB name, for an item operation: a ValidationException when the name is
   * absent or breaks a table name's constraints (checked as for a table operation), DynamoDB's
   * ResourceNotFoundException ("Requested resource not found") when there is no such table.
   */
  public DynamoDbTable require(String name) {
    return require(name, "tableName");
  }

  /**
   * As {@link #require(String)}, for a name at {@code path} of the request (as DynamoDB's
   * validation messages name it, {@code transactItems.1.member.put.tableName}).
   */
  public DynamoDbTable require(String name, String path) {
    Violations v = new Violations();
    TableRequests.checkTableName(v, name, path);
    v.check();
    return find(name)
        .orElseThrow(
            () -> ViewbaseException.of(ErrorCode.TableNotFound, "Requested resource not found"));
  }

  /**
   * The table of this DynamoDB name, for a table operation: ResourceNotFoundException "Requested
   * resource not found: Table: NAME not found" when there is none.
   */
  public DynamoDbTable describe(String name) {
    return find(name).orElseThrow(() -> notFound(name));
  }

  /** Forgets what the cache holds of a table: its next lookup reads the catalog. */
  public void forget(String name) {
    cache.remove(name);
  }

  /** Every DynamoDB table, in name order (by code point, as DynamoDB lists them). */
  public List<DynamoDbTable> list() {
    List<DynamoDbTable> tables = new ArrayList<>();
    for (TableInfo info : db.listTables()) {
      if (!TableInfo.TABLE.equals(info.kind())) {
        continue;
      }
      Optional<DynamoDbTable> t = stored(info.name());
      if (t.isPresent() && t.get().viewbaseName().equalsIgnoreCase(info.name())) {
        tables.add(t.get());
        cache.put(t.get().name(), new Cached(t.get(), System.nanoTime()));
      }
    }
    tables.sort(Comparator.comparing(DynamoDbTable::name));
    return tables;
  }

  /**
   * Creates a table: the Viewbase table under the first free candidate name, a view for each index,
   * then the description. {@code draft}'s Viewbase and view names are ignored (they are chosen
   * here). Fails with ResourceInUseException when a table of the name exists, or when every
   * candidate name is taken.
   *
   * @return the table as stored, with the names chosen
   */
  public DynamoDbTable create(DynamoDbTable draft) {
    synchronized (changes) {
      if (find(draft.name()).isPresent()) {
        throw inUse("Table already exists: " + draft.name());
      }
      String viewbaseName =
          createViewbaseTable(draft.name(), StreamFeeds.optionsFor(draft.stream()));
      try {
        Set<String> taken = takenNames();
        List<Index> globals = new ArrayList<>();
        List<Index> locals = new ArrayList<>();
        DynamoDbTable named = named(draft, viewbaseName, List.of(), List.of());
        for (Index i : draft.globalIndexes()) {
          globals.add(createView(named, i, true, taken));
        }
        for (Index i : draft.localIndexes()) {
          locals.add(createView(named, i, false, taken));
        }
        DynamoDbTable table = named(draft, viewbaseName, globals, locals);
        db.putSetting(viewbaseName, StoredTables.SETTING, StoredTables.encode(table));
        cache.put(table.name(), new Cached(table, System.nanoTime()));
        return table;
      } catch (RuntimeException failed) {
        dropQuietly(viewbaseName, failed);
        throw failed;
      }
    }
  }

  /**
   * Waits until the views of a new table's indexes can be read (ready, or failed), for at most ten
   * seconds. They have nothing to copy, but on storage that other servers share (Cassandra) the
   * engine starts a view's backfill only once those servers can have learnt of the view, about 2 s
   * after its creation, and refuses to read it until then; a DynamoDB table, its indexes included,
   * is usable as soon as CreateTable answers. Called outside the lock of table changes, so the wait
   * holds up no other table's change.
   */
  public void awaitIndexes(DynamoDbTable table) {
    long deadline = System.nanoTime() + INDEXES_READY.toNanos();
    List<Index> indexes = new ArrayList<>(table.globalIndexes());
    indexes.addAll(table.localIndexes());
    for (Index index : indexes) {
      while (indexStatus(index).map(s -> ViewStatus.BUILDING.equals(s.state())).orElse(false)) {
        if (System.nanoTime() > deadline) {
          return; // DescribeTable will tell: the index reads CREATING until its view is ready
        }
        try {
          Thread.sleep(10);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /** Deletes a table, its items and its indexes; answers the table as it was. */
  public DynamoDbTable delete(String name) {
    synchronized (changes) {
      DynamoDbTable table = read(name).orElseThrow(() -> notFound(name));
      try {
        db.dropTable(table.viewbaseName());
      } catch (ViewbaseException e) {
        if (e.code() != ErrorCode.TableNotFound) {
          throw e;
        }
        // dropped meanwhile (through another server): gone all the same
      } finally {
        cache.remove(name);
      }
      return table;
    }
  }

  /**
   * Changes a table's description (billing, throughput, stream, tags, settings), read fresh from
   * the catalog; {@code change} may refuse it by throwing. Not for indexes: {@link
   * #addGlobalIndex}, {@link #dropGlobalIndex}.
   *
   * @return the table as stored
   */
  public DynamoDbTable update(String name, UnaryOperator<DynamoDbTable> change) {
    synchronized (changes) {
      DynamoDbTable before = read(name).orElseThrow(() -> notFound(name));
      DynamoDbTable after = change.apply(before);
      if (!after.name().equals(before.name())
          || !after.viewbaseName().equals(before.viewbaseName())) {
        throw new IllegalArgumentException("A table's names never change");
      }
      return store(after);
    }
  }

  /**
   * Adds a global secondary index: its view (which backfills online), then the description that
   * names it. {@code index}'s view name is ignored (chosen here); {@code definitions} are the
   * table's attribute definitions with the index's keys.
   *
   * @return the table as stored
   */
  public DynamoDbTable addGlobalIndex(
      String name, Index index, Map<String, DynamoDbTable.AttributeType> definitions) {
    synchronized (changes) {
      DynamoDbTable before = read(name).orElseThrow(() -> notFound(name));
      DynamoDbTable withDefinitions = before.withGlobalIndexes(before.globalIndexes(), definitions);
      Index created = createView(withDefinitions, index, true, takenNames());
      List<Index> globals = new ArrayList<>(before.globalIndexes());
      globals.add(created);
      try {
        return store(before.withGlobalIndexes(globals, definitions));
      } catch (RuntimeException failed) {
        dropViewQuietly(created.viewName(), failed);
        throw failed;
      }
    }
  }

  /**
   * Removes a global secondary index: the description without it, then its view (and the view's
   * data). {@code definitions} are the table's attribute definitions without the index's own.
   *
   * @return the table as stored
   */
  public DynamoDbTable dropGlobalIndex(
      String name, String indexName, Map<String, DynamoDbTable.AttributeType> definitions) {
    synchronized (changes) {
      DynamoDbTable before = read(name).orElseThrow(() -> notFound(name));
      List<Index> globals = new ArrayList<>();
      Index dropped = null;
      for (Index i : before.globalIndexes()) {
        if (i.name().equals(indexName)) {
          dropped = i;
        } else {
          globals.add(i);
        }
      }
      if (dropped == null) {
        throw new IllegalArgumentException("No index " + indexName);
      }
      DynamoDbTable after = store(before.withGlobalIndexes(globals, definitions));
      try {
        db.dropView(dropped.viewName());
      } catch (ViewbaseException e) {
        if (e.code() != ErrorCode.TableNotFound) {
          throw e;
        }
      }
      return after;
    }
  }

  /**
   * The state of an index's view: {@code building} while it backfills, {@code ready}, or {@code
   * failed}; empty if the view is gone.
   */
  public Optional<ViewStatus> indexStatus(Index index) {
    try {
      return Optional.of(db.viewStatus(index.viewName()));
    } catch (ViewbaseException e) {
      if (e.code() == ErrorCode.TableNotFound) {
        return Optional.empty();
      }
      throw e;
    }
  }

  private DynamoDbTable store(DynamoDbTable table) {
    try {
      db.putSetting(table.viewbaseName(), StoredTables.SETTING, StoredTables.encode(table));
    } catch (ViewbaseException e) {
      if (e.code() == ErrorCode.TableNotFound) {
        cache.remove(table.name());
        throw notFound(table.name());
      }
      throw e;
    }
    cache.put(table.name(), new Cached(table, System.nanoTime()));
    return table;
  }

  /** The table of this name as the catalog holds it now, past the cache. */
  private Optional<DynamoDbTable> read(String name) {
    for (String candidate : TableNames.tableCandidates(name)) {
      Optional<DynamoDbTable> t = stored(candidate);
      if (t.isPresent() && t.get().name().equals(name)) {
        return t;
      }
    }
    return Optional.empty();
  }

  /** The description a Viewbase table holds, if it is a DynamoDB table. */
  private Optional<DynamoDbTable> stored(String viewbaseName) {
    try {
      return db.setting(viewbaseName, StoredTables.SETTING).map(StoredTables::decode);
    } catch (ViewbaseException e) {
      if (e.code() == ErrorCode.TableNotFound) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /**
   * Creates the Viewbase table under the first candidate name no table or view holds. A candidate
   * taken by a table created moments ago without a description may be another server's create of
   * the same DynamoDB table, between its two steps: its description is waited for, briefly. The
   * table is created with its change feed on when its stream is ({@link StreamFeeds}).
   */
  private String createViewbaseTable(String name, TableOptions options) {
    List<String> candidates = TableNames.tableCandidates(name);
    for (String candidate : candidates) {
      try {
        db.createTable(candidate, options);
        return candidate;
      } catch (ViewbaseException e) {
        if (e.code() != ErrorCode.TableAlreadyExists) {
          throw e;
        }
      }
      Optional<DynamoDbTable> holder = awaitDescription(candidate);
      if (holder.isPresent() && holder.get().name().equals(name)) {
        throw inUse("Table already exists: " + name);
      }
    }
    throw inUse(
        "Viewbase cannot hold the table "
            + name
            + ": its names "
            + String.join(" and ", candidates)
            + " are taken by other tables or views");
  }

  private Optional<DynamoDbTable> awaitDescription(String viewbaseName) {
    long deadline = System.nanoTime() + RACE_WAIT.toNanos();
    while (true) {
      Optional<DynamoDbTable> t = stored(viewbaseName);
      if (t.isPresent() || !recentlyCreated(viewbaseName) || System.nanoTime() > deadline) {
        return t;
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return t;
      }
    }
  }

  private boolean recentlyCreated(String viewbaseName) {
    for (TableInfo info : db.listTables()) {
      if (info.name().equalsIgnoreCase(viewbaseName)) {
        return info.created() != null
            && info.created().isAfter(Instant.now().minus(RECENT))
            && TableInfo.TABLE.equals(info.kind());
      }
    }
    return false;
  }

  /** Creates the view of an index under the first candidate name that is free. */
  private Index createView(DynamoDbTable table, Index index, boolean global, Set<String> taken) {
    List<String> candidates =
        TableNames.viewCandidates(table.name(), table.viewbaseName(), index.name());
    for (String candidate : candidates) {
      if (taken.contains(candidate.toLowerCase(Locale.ROOT))) {
        continue;
      }
      Index named =
          new Index(
              index.name(),
              index.key(),
              index.projection(),
              index.throughput(),
              candidate,
              index.created());
      try {
        db.createView(IndexViews.definition(table, named, global));
        taken.add(candidate.toLowerCase(Locale.ROOT));
        return named;
      } catch (ViewbaseException e) {
        if (e.code() != ErrorCode.TableAlreadyExists) {
          throw e;
        }
        taken.add(candidate.toLowerCase(Locale.ROOT));
      }
    }
    throw inUse(
        "Viewbase cannot hold the index "
            + index.name()
            + ": its names "
            + String.join(" and ", candidates)
            + " are taken by other tables or views");
  }

  /** The names of every table and view, lower-cased (the namespace is case-insensitive). */
  private Set<String> takenNames() {
    Set<String> names = new HashSet<>();
    for (TableInfo info : db.listTables()) {
      names.add(info.name().toLowerCase(Locale.ROOT));
    }
    return names;
  }

  private static DynamoDbTable named(
      DynamoDbTable draft, String viewbaseName, List<Index> globals, List<Index> locals) {
    return new DynamoDbTable(
        draft.name(),
        viewbaseName,
        draft.key(),
        draft.attributes(),
        globals,
        locals,
        draft.billingMode(),
        draft.throughput(),
        draft.created(),
        draft.stream(),
        draft.sse(),
        draft.tableClass(),
        draft.deletionProtection(),
        draft.tags(),
        draft.tableId(),
        draft.ttl());
  }

  private void dropQuietly(String viewbaseName, RuntimeException cause) {
    try {
      db.dropTable(viewbaseName);
    } catch (RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  private void dropViewQuietly(String view, RuntimeException cause) {
    try {
      db.dropView(view);
    } catch (RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  static ViewbaseException notFound(String name) {
    return new ViewbaseException(ErrorCode.ResourceNotFound, "Table: " + name + " not found");
  }

  static ViewbaseException inUse(String message) {
    return new ViewbaseException(ErrorCode.ResourceInUse, message);
  }
}
