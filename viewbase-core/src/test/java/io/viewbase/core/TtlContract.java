package io.viewbase.core;

import static io.viewbase.core.DatabaseContract.assertCode;
import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Batch;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.ItemCursor;
import io.viewbase.api.ItemMapping;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Query;
import io.viewbase.api.SweepStatus;
import io.viewbase.api.Table;
import io.viewbase.api.TableOptions;
import io.viewbase.api.Value;
import io.viewbase.api.VerifyReport;
import io.viewbase.api.ViewDefinition;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Time-to-live on the embedded engine (docs/ttl.md), with a clock the test moves: an expired item
 * is absent to every read and every write's rule, and the sweeper removes it with its view entries,
 * never an item written again since it was read.
 */
abstract class TtlContract {
  @TempDir Path dir;
  final MovableClock clock = new MovableClock();
  EmbeddedDatabase db;
  Table people;

  abstract OpenOptions options(Path directory);

  EmbeddedDatabase open() {
    return CoreDatabaseProvider.open(
        options(dir).withOptions(Map.of("sweep.intervalSeconds", "3600")), clock);
  }

  @BeforeEach
  void setUp() {
    db = open();
    db.createTable("People");
    people = db.table("People");
  }

  @AfterEach
  void tearDown() {
    db.close();
  }

  static Item person(String pk, String id, String name, Object ttl) {
    Item.Builder b = Item.builder(pk, id).put("name", name).put("email", id + "@example.com");
    if (ttl instanceof Integer seconds) {
      b.put("_ttl", seconds);
    } else if (ttl instanceof Instant at) {
      b.put("_ttl", Value.DateTime.of(at));
    }
    return b.build();
  }

  private static final ItemMapping<String> NAME =
      new ItemMapping<>() {
        @Override
        public String map(Item item) {
          return ((Value.Str) item.properties().get("name")).value();
        }

        @Override
        public long weight(String result) {
          return 16 + 2L * result.length();
        }
      };

  private List<String> ids(Query query) {
    List<String> ids = new ArrayList<>();
    try (ItemCursor cursor = people.cursor(query)) {
      cursor.forEachRemaining(item -> ids.add(item.id()));
    }
    return ids;
  }

  private List<String> pageIds(Table table, Query query) {
    return table.query(query).items().stream().map(Item::id).toList();
  }

  @Test
  void anExpiredItemIsAbsentToEveryReadPath() {
    people.insert(person("p", "short", "Ann", 60));
    people.insert(person("p", "long", "Bo", 7200));
    people.insert(person("p", "never", "Cy", null));
    assertThat(people.get("p", "short", NAME)).contains("Ann"); // cached beside the entry
    clock.advance(Duration.ofMinutes(2));

    assertThat(people.get("p", "short")).isEmpty();
    assertThat(people.get("p", "short", NAME)).isEmpty();
    assertThat(people.get("p", "long", NAME)).contains("Bo");
    assertThat(pageIds(people, Query.partition("p"))).containsExactly("long", "never");
    assertThat(pageIds(people, Query.all())).containsExactly("long", "never");
    assertThat(pageIds(people, Query.partition("p").withPrefix("s"))).isEmpty();
    assertThat(pageIds(people, Query.all().withFilter("RowKey eq 'short'"))).isEmpty();
    assertThat(pageIds(people, Query.all().withFilter("name eq 'Ann'"))).isEmpty();
    assertThat(pageIds(people, Query.all().withFilter("PartitionKey eq 'p' and RowKey ge 'l'")))
        .containsExactly("long", "never");
    assertThat(ids(Query.all().withLimit(1))).containsExactly("long", "never");
  }

  @Test
  void theTableDefaultAppliesToItemsWithoutTheirOwnTtl() {
    db.alterTable("People", TableOptions.DEFAULT.withTtl(Duration.ofHours(1)));
    people.insert(person("p", "default", "Ann", null));
    people.insert(person("p", "own", "Bo", 3 * 3600));
    people.insert(person("p", "at", "Cy", Instant.now().plus(Duration.ofMinutes(30))));
    clock.advance(Duration.ofMinutes(45));
    assertThat(pageIds(people, Query.all())).containsExactly("default", "own");
    clock.advance(Duration.ofMinutes(30));
    assertThat(pageIds(people, Query.all())).containsExactly("own");
    clock.advance(Duration.ofHours(2));
    assertThat(pageIds(people, Query.all())).isEmpty();
  }

  @Test
  void aTtlThatIsNoPositiveWholeNumberOfSecondsOrDatetimeIsRefusedAndNothingStored() {
    List<Value> bad =
        List.of(
            Value.of(0),
            Value.of(-5),
            Value.of(2_147_483_648L),
            Value.of("3600"),
            new Value.Double(1.5),
            Value.of(true));
    for (Value v : bad) {
      Item item = Item.builder("p", "bad").put("_ttl", v).build();
      assertCode(() -> people.insert(item), ErrorCode.InvalidValue);
      assertCode(
          () -> db.commit(Batch.builder().upsert("People", item).build()), ErrorCode.InvalidValue);
    }
    assertThat(people.get("p", "bad")).isEmpty();
    people.insert(Item.builder("p", "ok").put("_ttl", Value.of(2_147_483_647L)).build());
    people.insert(Item.builder("p", "nested").put("o", Value.of("x")).build());
    assertCode(
        () -> people.insert(Item.builder("p", "other").put("_other", 1).build()),
        ErrorCode.InvalidPropertyName);
  }

  @Test
  void writesTreatAnExpiredItemAsAbsent() {
    for (String id : List.of("a", "b", "c", "d", "e", "f")) {
      people.insert(person("p", id, "Old", 60).toBuilder().put("old", true).build());
    }
    String etag = people.get("p", "c").orElseThrow().etag();
    clock.advance(Duration.ofMinutes(2));

    assertThat(people.insert(person("p", "a", "New", null)).properties()).doesNotContainKey("old");
    assertCode(() -> people.replace(person("p", "b", "New", null), null), ErrorCode.ItemNotFound);
    assertCode(() -> people.replace(person("p", "c", "New", null), etag), ErrorCode.ItemNotFound);
    assertCode(() -> people.merge(person("p", "b", "New", null), null), ErrorCode.ItemNotFound);
    assertCode(() -> people.delete("p", "d", null), ErrorCode.ItemNotFound);
    assertThat(people.upsertMerge(person("p", "e", "New", null)).properties())
        .doesNotContainKey("old");
    db.commit(
        Batch.builder()
            .check("People", "p", "f", null) // absent: the check holds
            .insert("People", person("p", "g", "New", null))
            .build());
    db.commit(Batch.builder().check("People", "p", "f", null).build()); // a check alone, too
    assertCode(
        () -> db.commit(Batch.builder().check("People", "p", "b", "*").build()),
        ErrorCode.ItemNotFound);
    assertThat(pageIds(people, Query.all())).containsExactly("a", "e", "g");
  }

  @Test
  void viewsHideExpiredEntriesAndLoseThemInTheSweep() {
    db.createView(
        ViewDefinition.of("PeopleByEmail", "People", "all", "{email}").withSelect(List.of("name")));
    db.createView(ViewDefinition.of("PeopleByName", "People", "{name}", "{id}"));
    ViewContract.awaitBuilt(db, "PeopleByEmail");
    ViewContract.awaitBuilt(db, "PeopleByName");
    people.insert(person("p", "ann", "Ann", 60));
    people.insert(person("p", "bo", "Bo", null));
    Table byEmail = db.table("PeopleByEmail");
    assertThat(byEmail.get("all", "ann@example.com").orElseThrow().properties())
        .containsKey("_ttl"); // kept although select drops it
    clock.advance(Duration.ofMinutes(2));

    assertThat(byEmail.get("all", "ann@example.com")).isEmpty();
    assertThat(pageIds(byEmail, Query.all())).containsExactly("bo@example.com");
    assertThat(pageIds(db.table("PeopleByName"), Query.all())).containsExactly("bo");
    // answered from the views (covering and not): the expired item is not in the answer
    assertThat(pageIds(people, Query.all().withFilter("email eq 'ann@example.com'"))).isEmpty();
    assertThat(
            people
                .explain(
                    Query.all()
                        .withFilter("email eq 'ann@example.com'")
                        .withSelect(List.of("name")))
                .kind())
        .isEqualTo("viewLookup");
    assertThat(pageIds(people, Query.all().withFilter("name eq 'Ann'"))).isEmpty();

    assertThat(db.expire("People")).isEqualTo(1);
    assertThat(rawEntries(db.catalogForTests().require("PeopleByEmail"))).isEqualTo(1);
    assertThat(rawEntries(db.catalogForTests().require("PeopleByName"))).isEqualTo(1);
    assertThat(rawEntries(db.catalogForTests().require("People"))).isEqualTo(1);
    for (String view : List.of("PeopleByEmail", "PeopleByName")) {
      VerifyReport report = db.verifyView(view, false);
      assertThat(report.drift()).isZero();
    }
  }

  /** Entries stored under the table, expired or not. */
  private long rawEntries(TableEntry table) {
    long n = 0;
    try (var cursor = db.store().scanAll(table.prefix(), null, null)) {
      while (cursor.next()) {
        n++;
      }
    }
    return n;
  }

  @Test
  void aForcedSweepRemovesTheExpiredItemsAndCountsThem() {
    assertThat(db.sweepStatus("People")).isEqualTo(SweepStatus.NONE);
    for (int i = 0; i < 2500; i++) {
      people.insert(person("p" + (i % 7), "id" + i, "n", i % 2 == 0 ? 60 : 7200));
    }
    clock.advance(Duration.ofMinutes(2));
    assertThat(db.expire("People")).isEqualTo(1250);
    assertThat(db.expire("People")).isZero();
    SweepStatus status = db.sweepStatus("People");
    assertThat(status.swept()).isTrue();
    assertThat(status.itemsExpired()).isEqualTo(1250);
    assertThat(status.itemsScanned()).isEqualTo(2500 + 1250);
    assertThat(status.lastSweepStarted()).isNotNull();
    assertThat(status.lastSweepEnded()).isAfterOrEqualTo(status.lastSweepStarted());
    assertThat(rawEntries(db.catalogForTests().require("People"))).isEqualTo(1250);
    assertCode(() -> db.expire("Nope"), ErrorCode.TableNotFound);
  }

  @Test
  void anItemWrittenAgainAfterTheSweepReadItSurvives() {
    people.insert(person("p", "1", "Ann", 60));
    long read = Value.DateTime.of(people.get("p", "1").orElseThrow().timestamp()).ticks();
    clock.advance(Duration.ofMinutes(2));
    people.insert(person("p", "1", "Ann again", null)); // over the expired item, a new life
    TableEntry table = db.catalogForTests().require("People");
    assertThat(db.writes().expire(table, "p", "1", read)).isFalse();
    assertThat(people.get("p", "1").orElseThrow().properties().get("name"))
        .isEqualTo(Value.of("Ann again"));
  }

  @Test
  void writesAndBatchesRacingSweepsLoseNothing() throws Exception {
    db.createView(ViewDefinition.of("PeopleByEmail", "People", "all", "{email}"));
    ViewContract.awaitBuilt(db, "PeopleByEmail");
    int n = 600;
    for (int i = 0; i < n; i++) {
      people.insert(person("p" + (i % 5), "id" + i, "old", 60));
    }
    clock.advance(Duration.ofMinutes(2)); // every item has expired
    AtomicBoolean done = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      Future<?> sweeps =
          pool.submit(
              () -> {
                while (!done.get()) {
                  db.expire("People");
                }
              });
      Future<?> singles =
          pool.submit(
              () -> {
                for (int i = 0; i < n; i += 2) {
                  people.upsert(person("p" + (i % 5), "id" + i, "new", null));
                }
              });
      Future<?> batches =
          pool.submit(
              () -> {
                for (int i = 1; i < n; i += 4) {
                  db.commit(
                      Batch.builder()
                          .upsert("People", person("p" + (i % 5), "id" + i, "new", null))
                          .upsert(
                              "People", person("p" + ((i + 2) % 5), "id" + (i + 2), "new", null))
                          .build());
                }
              });
      singles.get(60, TimeUnit.SECONDS);
      batches.get(60, TimeUnit.SECONDS);
      done.set(true);
      sweeps.get(60, TimeUnit.SECONDS);
    } finally {
      pool.shutdownNow();
    }
    db.expire("People");
    List<String> left = ids(Query.all());
    assertThat(left).hasSize(n); // every item was written again, with no ttl
    assertThat(rawEntries(db.catalogForTests().require("People"))).isEqualTo(n);
    assertThat(db.verifyView("PeopleByEmail", false).drift()).isZero();
  }

  @Test
  void theBackgroundSweeperRemovesExpiredItemsAtItsRate() throws Exception {
    db.close();
    db =
        CoreDatabaseProvider.open(
            options(dir)
                .withOptions(
                    Map.of("sweep.intervalSeconds", "1", "sweep.maxDeletesPerSecond", "5000")),
            clock);
    if (db.listTables().isEmpty()) {
      db.createTable("People"); // in memory: gone with the database
    }
    people = db.table("People");
    for (int i = 0; i < 200; i++) {
      people.insert(person("p", "id" + i, "n", 60));
    }
    clock.advance(Duration.ofMinutes(2));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (db.sweepStatus("People").itemsExpired() < 200 && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(db.sweepStatus("People").itemsExpired()).isEqualTo(200);
    assertThat(rawEntries(db.catalogForTests().require("People"))).isZero();
  }

  @Test
  void badSweepOptionsAreRefused() {
    assertCode(
        () ->
            CoreDatabaseProvider.open(
                OpenOptions.inMemory().withOptions(Map.of("sweep.maxDeletesPerSecond", "0")),
                clock),
        ErrorCode.InvalidInput);
  }

  @Test
  void theChangeFeedRecordsExpiriesBySweepAndWritesOverAnExpiredItem() {
    db.createTable(
        "Feed", new io.viewbase.api.TableOptions(io.viewbase.api.TableOptions.ChangeFeed.ON, null));
    Table feed = db.table("Feed");
    feed.insert(person("p", "swept", "Sue", 60));
    feed.insert(person("p", "over", "Otto", 60));
    clock.advance(Duration.ofMinutes(2));
    feed.insert(person("p", "over", "Olga", null)); // over the expired, unswept Otto
    assertThat(db.expire("Feed")).isEqualTo(1);

    List<io.viewbase.api.Change> changes =
        feed.changes(0, io.viewbase.api.ChangePage.MAX_LIMIT).changes();

    assertThat(changes)
        .extracting(c -> c.kind() + " " + c.id())
        .containsExactly(
            "INSERT swept", "INSERT over", "EXPIRE over", "INSERT over", "EXPIRE swept");
    assertThat(changes.get(2).transaction()).isEqualTo(3);
    assertThat(changes.get(3).transaction()).isEqualTo(3);
    assertThat(changes.get(3).transactionSize()).isEqualTo(2);
  }
}
