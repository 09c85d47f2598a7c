package io.viewbase.core;

import static io.viewbase.core.DatabaseContract.assertCode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.Batch;
import io.viewbase.api.Change;
import io.viewbase.api.ChangePage;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Table;
import io.viewbase.api.TableOptions;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.Mutation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The change feed ({@link Table#changes}), run against each backend by a one-method subclass. */
abstract class ChangeFeedContract {
  static final TableOptions FEED = TableOptions.DEFAULT.withChangeFeed(TableOptions.ChangeFeed.ON);

  @TempDir Path dir;

  Database db;

  protected abstract Database open(Path directory);

  @BeforeEach
  void setUp() {
    db = open(dir);
    db.createTable("People", FEED);
  }

  @AfterEach
  void tearDown() {
    db.close();
  }

  static Item item(String pk, String id, String name) {
    return Item.of(pk, id, Map.of("name", Value.of(name)));
  }

  List<Change> all(String table) {
    return db.table(table).changes(0, ChangePage.MAX_LIMIT).changes();
  }

  @Test
  void everyWriteKindIsRecordedInCommitOrderWithItsItemAndEtag() {
    Table t = db.table("People");
    Item inserted = t.insert(item("a", "1", "Ann"));
    Item replaced = t.replace(item("a", "1", "Anne"), inserted.etag());
    Item merged = t.merge(Item.of("a", "1", Map.of("age", Value.of(40))), "*");
    t.upsert(item("a", "2", "Bob"));
    t.delete("a", "1", null);

    List<Change> changes = all("People");

    assertThat(changes).extracting(Change::sequence).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(changes)
        .extracting(Change::kind)
        .containsExactly(
            Change.Kind.INSERT,
            Change.Kind.UPDATE,
            Change.Kind.UPDATE,
            Change.Kind.INSERT,
            Change.Kind.DELETE);
    assertThat(changes.get(0).item()).isEqualTo(inserted);
    assertThat(changes.get(0).etag()).isEqualTo(inserted.etag());
    assertThat(changes.get(1).item()).isEqualTo(replaced);
    assertThat(changes.get(2).item().properties())
        .containsEntry("name", Value.of("Anne"))
        .containsEntry("age", Value.of(40));
    assertThat(changes.get(4).item()).isNull();
    assertThat(changes.get(4).etag())
        .as("a delete names the version it removed")
        .isEqualTo(merged.etag());
    assertThat(changes).allSatisfy(c -> assertThat(c.before()).isNull());
    assertThat(changes).allSatisfy(c -> assertThat(c.transactionSize()).isEqualTo(1));
  }

  @Test
  void beforeImagesAreKeptWhenTheTableAsksForThem() {
    db.createTable(
        "Kept",
        TableOptions.DEFAULT.withChangeFeed(TableOptions.ChangeFeed.ON.withBeforeImages(true)));
    Table t = db.table("Kept");
    Item first = t.insert(item("a", "1", "Ann"));
    t.upsert(item("a", "1", "Anne"));
    t.delete("a", "1", null);

    List<Change> changes = all("Kept");

    assertThat(changes.get(0).before()).isNull();
    assertThat(changes.get(1).before()).isEqualTo(first);
    assertThat(changes.get(2).before().properties()).containsEntry("name", Value.of("Anne"));
  }

  @Test
  void aBatchIsOneContiguousTransactionPerTable() {
    db.createTable("Orders", FEED);
    db.table("People").insert(item("a", "0", "before"));
    db.commit(
        Batch.builder()
            .insert("People", item("a", "1", "x"))
            .insert("Orders", item("o", "1", "y"))
            .upsert("People", item("b", "2", "z"))
            .delete("People", "a", "0", null)
            .build());
    db.table("People").insert(item("a", "3", "after"));

    List<Change> people = all("People");
    assertThat(people).extracting(Change::sequence).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(people).extracting(Change::id).containsExactly("0", "1", "2", "0", "3");
    assertThat(people.subList(1, 4))
        .allSatisfy(
            c -> {
              assertThat(c.transaction()).isEqualTo(2);
              assertThat(c.transactionSize()).isEqualTo(3);
            });
    assertThat(people.get(3).endsTransaction()).isTrue();
    assertThat(people.get(4).transaction()).isEqualTo(5);
    List<Change> orders = all("Orders");
    assertThat(orders).singleElement().satisfies(c -> assertThat(c.transactionSize()).isEqualTo(1));
    assertThat(orders.get(0).timestamp()).isEqualTo(people.get(1).timestamp());
  }

  @Test
  void aRefusedWriteOrBatchRecordsNothing() {
    Table t = db.table("People");
    t.insert(item("a", "1", "Ann"));
    assertCode(() -> t.insert(item("a", "1", "again")), ErrorCode.ItemAlreadyExists);
    assertCode(
        () -> t.replace(item("a", "1", "x"), "W/\"datetime'2000-01-01T00:00:00.0000000Z'\""),
        ErrorCode.PreconditionFailed);
    assertCode(
        () ->
            db.commit(
                Batch.builder()
                    .insert("People", item("b", "1", "x"))
                    .insert("People", item("a", "1", "dup"))
                    .build()),
        ErrorCode.ItemAlreadyExists);
    t.insert(item("c", "1", "Cy"));

    assertThat(all("People")).extracting(Change::sequence).containsExactly(1L, 2L);
  }

  @Test
  void asynchronousWritesAreRecordedToo() {
    Table t = db.table("People");
    List<CompletableFuture<Item>> writes = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      writes.add(t.upsertAsync(item("p", "i" + i, "n" + i)));
    }
    writes.forEach(CompletableFuture::join);

    assertThat(all("People")).hasSize(20).extracting(Change::kind).containsOnly(Change.Kind.INSERT);
  }

  @Test
  void pagesFollowOnFromNext() {
    Table t = db.table("People");
    for (int i = 0; i < 7; i++) {
      t.upsert(item("p", "i" + i, "n"));
    }
    ChangePage first = t.changes(0, 3);
    ChangePage second = t.changes(first.next(), 3);
    ChangePage third = t.changes(second.next(), 3);
    ChangePage none = t.changes(third.next(), 3);

    assertThat(first.changes()).extracting(Change::sequence).containsExactly(1L, 2L, 3L);
    assertThat(second.changes()).extracting(Change::sequence).containsExactly(4L, 5L, 6L);
    assertThat(third.changes()).extracting(Change::sequence).containsExactly(7L);
    assertThat(none.changes()).isEmpty();
    assertThat(none.next()).isEqualTo(7);
    assertThat(none.latest()).isEqualTo(7);
    assertThat(none.oldest()).isEqualTo(1);
  }

  @Test
  void aLongPollAnswersWhenAWriteCommits() throws Exception {
    Table t = db.table("People");
    CompletableFuture<ChangePage> poll =
        CompletableFuture.supplyAsync(() -> t.changes(0, 10, Duration.ofSeconds(30)));
    Thread.sleep(100); // (not an assertion: the poll may start after the write, and still passes)
    t.insert(item("a", "1", "Ann"));

    assertThat(poll.get(30, TimeUnit.SECONDS).changes())
        .extracting(Change::id)
        .containsExactly("1");
  }

  @Test
  void aPollWithNothingNewAnswersEmptyAfterItsWait() {
    ChangePage page = db.table("People").changes(0, 10, Duration.ofMillis(50));
    assertThat(page.changes()).isEmpty();
    assertThat(page.next()).isZero();
    assertThat(page.latest()).isZero();
  }

  @Test
  void badReadsAreRefusedWithTheirCode() {
    db.createTable("Plain");
    Table t = db.table("People");
    assertCode(() -> db.table("Plain").changes(0, 10), ErrorCode.ChangeFeedDisabled);
    assertCode(() -> t.changes(-1, 10), ErrorCode.InvalidInput);
    assertCode(() -> t.changes(0, 0), ErrorCode.InvalidInput);
    assertCode(() -> t.changes(0, ChangePage.MAX_LIMIT + 1), ErrorCode.InvalidInput);
    assertCode(() -> t.changes(0, 10, Duration.ofMinutes(5)), ErrorCode.InvalidInput);
    assertCode(() -> t.changes(5, 10), ErrorCode.InvalidInput);
  }

  @Test
  void entriesBeyondMaxEntriesAreExpiredAtOnceAndTrimmedLater() {
    db.createTable(
        "Short",
        TableOptions.DEFAULT.withChangeFeed(
            TableOptions.ChangeFeed.ON.withRetention(Duration.ofHours(1), 3)));
    Table t = db.table("Short");
    for (int i = 0; i < 5; i++) {
      t.upsert(item("p", "i" + i, "n"));
    }

    assertThatThrownBy(() -> t.changes(0, 10))
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.ChangesExpired);
              assertThat(e.context()).containsEntry("oldest", 3L);
            });
    assertThat(t.changes(2, 10).changes()).extracting(Change::sequence).containsExactly(3L, 4L, 5L);
    // the retention task (every second) may have trimmed some already: what is stored after a pass
    // tells, not how many this one deleted
    ((EmbeddedDatabase) db).trimChanges();
    assertThat(storedSequences("Short")).containsExactly(3L, 4L, 5L);
    assertThat(t.changes(2, 10).oldest()).isEqualTo(3);
  }

  @Test
  void entriesOlderThanTheRetentionTimeAreTrimmed() throws Exception {
    db.createTable(
        "Brief",
        TableOptions.DEFAULT.withChangeFeed(
            TableOptions.ChangeFeed.ON.withRetention(Duration.ofMillis(1), 1000)));
    Table t = db.table("Brief");
    t.upsert(item("p", "1", "n"));
    t.upsert(item("p", "2", "n"));
    Thread.sleep(5);
    ((EmbeddedDatabase) db).trimChanges();
    assertThat(storedSequences("Brief")).as("both older than the retention time").isEmpty();
    t.upsert(item("p", "3", "n"));

    // (the retention task may trim the third too, a millisecond later: its oldest is 3 or after)
    assertThatThrownBy(() -> t.changes(0, 10))
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.ChangesExpired);
              assertThat((Long) e.context().get("oldest")).isGreaterThanOrEqualTo(3L);
            });
  }

  /** The sequence numbers of the entries the table's feed has in storage, trimmed or not yet. */
  private List<Long> storedSequences(String table) {
    EmbeddedDatabase embedded = (EmbeddedDatabase) db;
    List<Long> sequences = new ArrayList<>();
    KeyRange entries = new KeyRange(new byte[0], false, null, false); // after the head's key
    try (Cursor c = embedded.store().scan(embedded.entry(table).feedPartition(), entries, false)) {
      while (c.next()) {
        sequences.add(Mutation.numberOf(c.key()));
      }
    }
    return sequences;
  }

  @Test
  void alterTableTurnsTheFeedOnAndOff() {
    db.createTable("Later");
    Table t = db.table("Later");
    t.upsert(item("p", "before", "n"));
    db.alterTable("Later", FEED);
    t.upsert(item("p", "during", "n"));
    db.alterTable("Later", TableOptions.DEFAULT);
    t.upsert(item("p", "after", "n"));

    assertThat(db.tableOptions("Later")).isEqualTo(TableOptions.DEFAULT);
    assertCode(() -> t.changes(0, 10), ErrorCode.ChangeFeedDisabled);
    db.alterTable("Later", FEED);
    assertThat(all("Later")).extracting(Change::id).containsExactly("during");
    assertCode(() -> db.alterTable("Nope", FEED), ErrorCode.TableNotFound);
  }

  @Test
  void aDroppedTablesFeedGoesWithIt() {
    db.table("People").insert(item("a", "1", "Ann"));
    db.dropTable("People");
    db.createTable("People", FEED);
    db.table("People").insert(item("b", "1", "Bob"));

    assertThat(all("People"))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.sequence()).isEqualTo(1);
              assertThat(c.partitionKey()).isEqualTo("b");
            });
  }

  @Test
  void anExpiryIsRecordedAsSuch() {
    Item stored = db.table("People").insert(item("a", "1", "Ann"));
    EmbeddedDatabase engine = (EmbeddedDatabase) db;
    TableEntry entry = engine.entry("People");
    long version = Etags.parse(stored.etag()).orElseThrow();

    assertThat(engine.writes().expire(entry, "a", "1", version + 1)).isFalse();
    assertThat(engine.writes().expire(entry, "a", "1", version)).isTrue();

    assertThat(all("People"))
        .extracting(Change::kind)
        .containsExactly(Change.Kind.INSERT, Change.Kind.EXPIRE);
    assertThat(db.table("People").get("a", "1")).isEmpty();
  }

  @Test
  void followDeliversEveryEntryInOrderAtTheSubscribersPace() throws Exception {
    Table t = db.table("People");
    for (int i = 0; i < 5; i++) {
      t.upsert(item("p", "i" + i, "n"));
    }
    List<Long> seen = new CopyOnWriteArrayList<>();
    CountDownLatch three = new CountDownLatch(3);
    CountDownLatch eight = new CountDownLatch(8);
    Flow.Subscription[] subscription = new Flow.Subscription[1];
    t.follow(0)
        .subscribe(
            new Flow.Subscriber<>() {
              @Override
              public void onSubscribe(Flow.Subscription s) {
                subscription[0] = s;
                s.request(3);
              }

              @Override
              public void onNext(Change item) {
                seen.add(item.sequence());
                three.countDown();
                eight.countDown();
              }

              @Override
              public void onError(Throwable throwable) {}

              @Override
              public void onComplete() {}
            });
    assertThat(three.await(30, TimeUnit.SECONDS)).isTrue();
    Thread.sleep(50); // nothing more arrives without demand
    assertThat(seen).containsExactly(1L, 2L, 3L);
    for (int i = 5; i < 8; i++) {
      t.upsert(item("p", "i" + i, "n"));
    }
    subscription[0].request(Long.MAX_VALUE);
    assertThat(eight.await(30, TimeUnit.SECONDS)).isTrue();
    subscription[0].cancel();
    assertThat(seen).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
  }
}
