package io.viewbase.benchmarks.cassandra;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Page;
import io.viewbase.api.Query;
import io.viewbase.api.Table;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import io.viewbase.api.Viewbase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The Viewbase side of the benchmark: a database on the Cassandra backend (default options:
 * LOCAL_QUORUM, RF 1 on one node) with two tables of the same person records, {@code People}
 * without views and {@code PeopleViewed} with one unique view by email.
 *
 * <table>
 *   <caption>what each operation sends to Cassandra</caption>
 *   <tr><th>operation</th><th>CQL round trips</th></tr>
 *   <tr><td>{@link #get}</td><td>one SELECT</td></tr>
 *   <tr><td>{@link #queryPartition}</td><td>one SELECT of the partition (100 rows, one page)</td></tr>
 *   <tr><td>{@link #upsert} on People</td><td>one UPDATE (a blind write: no view to keep)</td></tr>
 *   <tr><td>{@link #upsertViewed} on PeopleViewed</td><td>SELECT of the item; LWT claim of the item on its
 *       version; LOGGED BATCH of the item and its view entry (the view key is unchanged, so the entry
 *       needs no claim)</td></tr>
 * </table>
 */
final class ViewbasePeople implements AutoCloseable {
  static final String KEYSPACE = "viewbase_bench";
  static final String PLAIN = "People";
  static final String VIEWED = "PeopleViewed";
  static final String BY_EMAIL = "PeopleByEmail";

  private final Database db;
  private final Table plain;
  private final Table viewed;

  private ViewbasePeople(Database db) {
    this.db = db;
    this.plain = db.table(PLAIN);
    this.viewed = db.table(VIEWED);
  }

  /**
   * Opens Viewbase on the node's keyspace {@link #KEYSPACE} and creates the tables and the view.
   */
  static ViewbasePeople open(String contactPoint) {
    Database db =
        Viewbase.open(
            OpenOptions.inMemory()
                .withStorage("cassandra")
                .withOptions(
                    Map.of(
                        "cassandra.contactPoints", contactPoint, "cassandra.keyspace", KEYSPACE)));
    db.createTable(PLAIN);
    db.createTable(VIEWED);
    // Unique by email: the view's partition is the email, as the CQL side's people_by_email.
    db.createView(ViewDefinition.of(BY_EMAIL, VIEWED, "{email}", "email"));
    while (db.viewStatus(BY_EMAIL).state().equals(ViewStatus.BUILDING)) {
      sleep(50);
    }
    if (!db.viewStatus(BY_EMAIL).isReady()) {
      throw new IllegalStateException(
          "view " + BY_EMAIL + " is " + db.viewStatus(BY_EMAIL).state());
    }
    return new ViewbasePeople(db);
  }

  /** Inserts items 0..count-1 into both tables from {@code threads} threads. */
  void load(int count, int threads) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int first = t;
        done.add(
            pool.submit(
                () -> {
                  for (int i = first; i < count; i += threads) {
                    Item item = People.item(i, 0);
                    plain.insert(item);
                    viewed.insert(item);
                  }
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
  }

  Optional<Item> get(String pk, String id) {
    return plain.get(pk, id);
  }

  Page queryPartition(String pk) {
    return plain.query(Query.partition(pk));
  }

  Item upsert(Item item) {
    return plain.upsert(item);
  }

  Item upsertViewed(Item item) {
    return viewed.upsert(item);
  }

  /** The view entry of an email, to check the view is maintained. */
  Optional<Item> byEmail(String email) {
    return db.table(BY_EMAIL).get(email, "email");
  }

  @Override
  public void close() {
    db.close();
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
