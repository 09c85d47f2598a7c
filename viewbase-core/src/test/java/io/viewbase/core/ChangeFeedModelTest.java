package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Batch;
import io.viewbase.api.Change;
import io.viewbase.api.ChangePage;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.ItemCursor;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Query;
import io.viewbase.api.TableOptions;
import io.viewbase.api.Value;
import io.viewbase.api.Viewbase;
import io.viewbase.api.ViewbaseException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The change feed against a model, under concurrency: writer threads run random single writes
 * (every kind, conditional ones with the ETags they last saw, some asynchronous) and batches across
 * two tables on a small key space, so that many collide and fail; followers read the feeds while
 * they write. Afterwards, per table:
 *
 * <ul>
 *   <li>every follower saw numbers 1, 2, 3, ... with no hole, in every page;
 *   <li>the feed replayed from 0 rebuilds the table exactly (items, ETags, timestamps);
 *   <li>every acknowledged write is in the feed, with the item and ETag it returned;
 *   <li>each transaction's entries are contiguous, and its size is what the batch wrote there;
 *   <li>a before-image is the item the replay held before the entry.
 * </ul>
 *
 * The seed is printed; {@code -Dviewbase.test.seed=N} replays one.
 */
class ChangeFeedModelTest {
  private static final List<String> TABLES = List.of("Alpha", "Beta");
  private static final int THREADS = 4;
  private static final int OPERATIONS_PER_THREAD = 400;

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"memory", "rocksdb"})
  void theFeedReplayedRebuildsEveryTable(String backend) throws Exception {
    long seed = Long.getLong("viewbase.test.seed", System.nanoTime());
    System.out.println("ChangeFeedModelTest " + backend + " seed " + seed);
    try (Database db =
        Viewbase.open(backend.equals("memory") ? OpenOptions.inMemory() : OpenOptions.at(dir))) {
      db.createTable("Alpha", TableOptions.DEFAULT.withChangeFeed(TableOptions.ChangeFeed.ON));
      db.createTable(
          "Beta",
          TableOptions.DEFAULT.withChangeFeed(TableOptions.ChangeFeed.ON.withBeforeImages(true)));
      ConcurrentLinkedQueue<Acknowledged> acknowledged = new ConcurrentLinkedQueue<>();
      AtomicBoolean writing = new AtomicBoolean(true);
      ExecutorService pool = Executors.newFixedThreadPool(THREADS + TABLES.size());
      List<Future<?>> writers = new ArrayList<>();
      List<Future<?>> followers = new ArrayList<>();
      try {
        for (String table : TABLES) {
          followers.add(pool.submit(() -> follow(db, table, writing)));
        }
        for (int t = 0; t < THREADS; t++) {
          Random random = new Random(seed + t);
          writers.add(pool.submit(() -> write(db, random, acknowledged)));
        }
        for (Future<?> w : writers) {
          w.get(5, TimeUnit.MINUTES);
        }
        writing.set(false);
        for (Future<?> f : followers) {
          f.get(1, TimeUnit.MINUTES);
        }
      } finally {
        pool.shutdownNow();
      }
      for (String table : TABLES) {
        check(db, table, acknowledged, seed);
      }
    }
  }

  /** What a write returned: the item it stored (null for a delete). */
  private record Acknowledged(String table, String partitionKey, String id, Item stored) {}

  private static void write(Database db, Random random, ConcurrentLinkedQueue<Acknowledged> acked) {
    Map<String, String> etags = new HashMap<>(); // table/pk/id -> the ETag this thread last saw
    for (int i = 0; i < OPERATIONS_PER_THREAD; i++) {
      String table = TABLES.get(random.nextInt(TABLES.size()));
      String pk = "p" + random.nextInt(3);
      String id = "i" + random.nextInt(8);
      Item item = Item.of(pk, id, Map.of("n", Value.of(random.nextInt(1000))));
      String key = table + "/" + pk + "/" + id;
      try {
        switch (random.nextInt(8)) {
          case 0 -> remember(acked, etags, key, table, db.table(table).insert(item));
          case 1 ->
              remember(
                  acked,
                  etags,
                  key,
                  table,
                  db.table(table).replace(item, etags.getOrDefault(key, "*")));
          case 2 -> remember(acked, etags, key, table, db.table(table).upsert(item));
          case 3 ->
              remember(
                  acked,
                  etags,
                  key,
                  table,
                  db.table(table).merge(Item.of(pk, id, Map.of("m", Value.of(i))), "*"));
          case 4 -> {
            db.table(table).delete(pk, id, random.nextBoolean() ? etags.get(key) : null);
            acked.add(new Acknowledged(table, pk, id, null));
          }
          case 5 -> remember(acked, etags, key, table, db.table(table).upsertAsync(item).join());
          default -> batch(db, random, acked, etags, i);
        }
      } catch (ViewbaseException e) {
        expected(e);
      } catch (java.util.concurrent.CompletionException e) {
        expected((ViewbaseException) e.getCause());
      }
    }
  }

  private static void batch(
      Database db,
      Random random,
      ConcurrentLinkedQueue<Acknowledged> acked,
      Map<String, String> etags,
      int i) {
    Batch.Builder batch = Batch.builder();
    List<Acknowledged> keys = new ArrayList<>();
    Set<String> used = new java.util.HashSet<>();
    int size = 2 + random.nextInt(4);
    for (int j = 0; j < size; j++) {
      String table = TABLES.get(random.nextInt(TABLES.size()));
      String pk = "p" + random.nextInt(3);
      String id = "i" + random.nextInt(8);
      if (!used.add(table + "/" + pk + "/" + id)) {
        continue;
      }
      Item item = Item.of(pk, id, Map.of("n", Value.of(i * 10 + j)));
      switch (random.nextInt(4)) {
        case 0 -> batch.insert(table, item);
        case 1 -> batch.upsert(table, item);
        case 2 -> batch.upsertMerge(table, item);
        default -> batch.delete(table, pk, id, null);
      }
      keys.add(new Acknowledged(table, pk, id, null));
    }
    List<Item> results = db.commit(batch.build()).items();
    for (int k = 0; k < keys.size(); k++) {
      Acknowledged a = keys.get(k);
      acked.add(new Acknowledged(a.table(), a.partitionKey(), a.id(), results.get(k)));
      if (results.get(k) != null) {
        etags.put(a.table() + "/" + a.partitionKey() + "/" + a.id(), results.get(k).etag());
      }
    }
  }

  private static void remember(
      ConcurrentLinkedQueue<Acknowledged> acked,
      Map<String, String> etags,
      String key,
      String table,
      Item stored) {
    acked.add(new Acknowledged(table, stored.partitionKey(), stored.id(), stored));
    etags.put(key, stored.etag());
  }

  private static void expected(ViewbaseException e) {
    assertThat(e.code())
        .isIn(
            ErrorCode.ItemAlreadyExists,
            ErrorCode.ItemNotFound,
            ErrorCode.PreconditionFailed,
            ErrorCode.WriteConflict);
  }

  /** Reads the feed while it grows: every page continues the numbers with no hole. */
  private static Void follow(Database db, String table, AtomicBoolean writing) {
    long position = 0;
    boolean last = false;
    while (!last) {
      last = !writing.get();
      ChangePage page = db.table(table).changes(position, 100, Duration.ofMillis(20));
      for (Change c : page.changes()) {
        assertThat(c.sequence())
            .as("%s: the entry after %d", table, position)
            .isEqualTo(position + 1);
        position = c.sequence();
      }
      if (!page.changes().isEmpty()) {
        last = false; // read to the end before stopping
      }
    }
    return null;
  }

  private static void check(
      Database db, String table, ConcurrentLinkedQueue<Acknowledged> acked, long seed) {
    List<Change> feed = new ArrayList<>();
    long position = 0;
    while (true) {
      ChangePage page = db.table(table).changes(position, ChangePage.MAX_LIMIT);
      if (page.changes().isEmpty()) {
        break;
      }
      feed.addAll(page.changes());
      position = page.next();
    }
    String where = table + " (seed " + seed + ")";
    Map<String, Item> replayed = new HashMap<>();
    Map<String, List<Item>> versions = new HashMap<>();
    for (int n = 0; n < feed.size(); n++) {
      Change c = feed.get(n);
      assertThat(c.sequence()).as(where).isEqualTo(n + 1L);
      assertThat(c.sequence() - c.transaction()).as(where).isBetween(0L, c.transactionSize() - 1L);
      if (c.sequence() == c.transaction()) {
        for (int k = 1; k < c.transactionSize(); k++) {
          assertThat(feed.get(n + k).transaction())
              .as("%s: transaction %d is contiguous", where, c.transaction())
              .isEqualTo(c.transaction());
        }
      }
      String key = c.partitionKey() + "/" + c.id();
      Item previous = replayed.get(key);
      if (table.equals("Beta")) {
        assertThat(c.before())
            .as("%s: before-image of %d", where, c.sequence())
            .isEqualTo(previous);
      }
      switch (c.kind()) {
        case INSERT -> {
          assertThat(previous).as(where).isNull();
          replayed.put(key, c.item());
        }
        case UPDATE -> {
          assertThat(previous).as(where).isNotNull();
          replayed.put(key, c.item());
        }
        case DELETE, EXPIRE -> {
          assertThat(previous).as(where).isNotNull();
          assertThat(c.etag()).as(where).isEqualTo(previous.etag());
          replayed.remove(key);
        }
      }
      if (c.item() != null) {
        versions.computeIfAbsent(key, k -> new ArrayList<>()).add(c.item());
      }
    }
    Map<String, Item> scanned = new HashMap<>();
    try (ItemCursor cursor = db.table(table).cursor(Query.all())) {
      cursor.forEachRemaining(item -> scanned.put(item.partitionKey() + "/" + item.id(), item));
    }
    assertThat(replayed).as("%s: the replayed feed equals the table", where).isEqualTo(scanned);
    for (Acknowledged a : acked) {
      if (a.table().equals(table) && a.stored() != null) {
        assertThat(versions.get(a.partitionKey() + "/" + a.id()))
            .as("%s: an acknowledged write is in the feed", where)
            .contains(a.stored());
      }
    }
  }
}
