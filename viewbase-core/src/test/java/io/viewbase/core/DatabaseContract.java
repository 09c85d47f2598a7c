package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.Batch;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.ItemCursor;
import io.viewbase.api.ItemMapping;
import io.viewbase.api.Page;
import io.viewbase.api.Query;
import io.viewbase.api.Table;
import io.viewbase.api.TableInfo;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The behaviour of the embedded engine, run against each storage backend by a one-method subclass.
 */
abstract class DatabaseContract {
  @TempDir Path dir;

  Database db;
  Table people;

  protected abstract Database open(Path directory);

  @BeforeEach
  void setUp() {
    db = open(dir);
    db.createTable("People");
    people = db.table("people");
  }

  @AfterEach
  void tearDown() {
    db.close();
  }

  static Item person(String pk, String id, String name) {
    return Item.builder(pk, id).put("name", name).put("age", 42).build();
  }

  static void assertCode(ThrowingCallable call, ErrorCode code) {
    assertThatThrownBy(call)
        .isInstanceOf(ViewbaseException.class)
        .satisfies(e -> assertThat(((ViewbaseException) e).code()).isEqualTo(code));
  }

  // --- tables

  @Test
  void createTableWhenNameTakenInAnyCaseFailsWithTableAlreadyExists() {
    assertCode(() -> db.createTable("PEOPLE"), ErrorCode.TableAlreadyExists);
  }

  @Test
  void createTableWithInvalidNameFailsWithInvalidTableName() {
    for (String bad : List.of("ab", "1abc", "a-b-c", "x".repeat(64), "")) {
      assertCode(() -> db.createTable(bad), ErrorCode.InvalidTableName);
    }
    assertThat(db.listTables()).extracting(TableInfo::name).containsExactly("People");
  }

  @Test
  void listTablesKeepsTheCaseGivenAndSortsByName() {
    db.createTable("accounts");
    db.createTable("Zebras");
    assertThat(db.listTables())
        .extracting(TableInfo::name)
        .containsExactly("accounts", "People", "Zebras");
  }

  @Test
  void dropTableRemovesItsItemsAndARecreatedTableIsEmpty() {
    people.insert(person("p", "1", "Ann"));
    db.dropTable("People");
    assertCode(() -> db.table("People"), ErrorCode.TableNotFound);
    assertCode(() -> people.get("p", "1"), ErrorCode.TableNotFound);
    assertCode(() -> people.insert(person("p", "2", "Bo")), ErrorCode.TableNotFound);
    db.createTable("People");
    assertThat(db.table("People").get("p", "1")).isEmpty();
    assertThat(db.table("People").query(Query.all()).items()).isEmpty();
  }

  @Test
  void unknownTableFailsWithTableNotFound() {
    assertCode(() -> db.table("Nope"), ErrorCode.TableNotFound);
    assertCode(() -> db.dropTable("Nope"), ErrorCode.TableNotFound);
  }

  // --- mapped reads

  /** Maps an item to "name@etag", counting its calls; all instances are equal. */
  static final class NameAtEtag implements ItemMapping<String> {
    final AtomicInteger calls = new AtomicInteger();

    @Override
    public String map(Item item) {
      calls.incrementAndGet();
      return item.get("name").map(Value::toString).orElse("?") + "@" + item.etag();
    }

    @Override
    public long weight(String result) {
      return 40 + 2L * result.length();
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof NameAtEtag;
    }

    @Override
    public int hashCode() {
      return 1;
    }
  }

  @Test
  void aMappedReadMapsTheItemAPlainReadReturnsAndFollowsEveryWrite() {
    NameAtEtag mapping = new NameAtEtag();
    assertThat(people.get("p", "1", mapping)).isEmpty();

    Item first = people.insert(person("p", "1", "Ann"));
    assertThat(people.get("p", "1", mapping))
        .contains(mapping.map(people.get("p", "1").orElseThrow()));
    assertThat(people.get("p", "1", mapping)).contains(mapping.map(first));

    Item second = people.replace(person("p", "1", "Bo"), first.etag());
    assertThat(people.get("p", "1", mapping)).contains(mapping.map(second));

    Item merged = people.merge(Item.builder("p", "1").put("name", "Cy").build(), "*");
    assertThat(people.get("p", "1", mapping)).contains(mapping.map(merged));

    people.delete("p", "1", null);
    assertThat(people.get("p", "1", mapping)).isEmpty();
  }

  @Test
  void aMappedReadChecksKeysAndTablesLikeAPlainRead() {
    NameAtEtag mapping = new NameAtEtag();
    assertCode(() -> people.get("p", "a\u0001b", mapping), ErrorCode.InvalidKey);
    db.dropTable("People");
    assertCode(() -> people.get("p", "1", mapping), ErrorCode.TableNotFound);
    assertThat(mapping.calls.get()).isZero();
  }

  // --- writes: the behaviour table of Table

  @Test
  void insertThenGetReturnsTheItemWithEtagAndTimestamp() {
    Item stored = people.insert(person("p", "1", "Ann"));
    assertThat(stored.etag()).startsWith("W/\"datetime'");
    Item read = people.get("p", "1").orElseThrow();
    assertThat(read).isEqualTo(stored);
    assertThat(read.properties())
        .containsEntry("name", Value.of("Ann"))
        .containsEntry("age", Value.of(42));
  }

  @Test
  void insertWhenPresentFailsWithItemAlreadyExistsAndKeepsTheItem() {
    Item first = people.insert(person("p", "1", "Ann"));
    assertCode(() -> people.insert(person("p", "1", "Bo")), ErrorCode.ItemAlreadyExists);
    assertThat(people.get("p", "1")).contains(first);
  }

  @Test
  void replaceWhenAbsentFailsWithItemNotFound() {
    assertCode(() -> people.replace(person("p", "1", "Ann"), null), ErrorCode.ItemNotFound);
    assertCode(() -> people.replace(person("p", "1", "Ann"), "*"), ErrorCode.ItemNotFound);
    assertThat(people.get("p", "1")).isEmpty();
  }

  @Test
  void replaceWithCurrentEtagReplacesAndChangesTheEtag() {
    Item first = people.insert(person("p", "1", "Ann"));
    Item second = people.replace(Item.builder("p", "1").put("name", "Bo").build(), first.etag());
    assertThat(second.etag()).isNotEqualTo(first.etag());
    assertThat(people.get("p", "1").orElseThrow().properties())
        .isEqualTo(Map.of("name", Value.of("Bo")));
  }

  @Test
  void replaceWhenEtagIsStaleFailsWithPreconditionFailed() {
    Item first = people.insert(person("p", "1", "Ann"));
    Item second = people.replace(person("p", "1", "Bo"), first.etag());
    assertCode(
        () -> people.replace(person("p", "1", "Cy"), first.etag()), ErrorCode.PreconditionFailed);
    assertCode(
        () -> people.replace(person("p", "1", "Cy"), "\"garbage\""), ErrorCode.PreconditionFailed);
    assertThat(people.get("p", "1")).contains(second);
  }

  @Test
  void upsertInsertsThenReplaces() {
    people.upsert(person("p", "1", "Ann"));
    people.upsert(Item.builder("p", "1").put("city", "Oslo").build());
    assertThat(people.get("p", "1").orElseThrow().properties())
        .isEqualTo(Map.of("city", Value.of("Oslo")));
  }

  @Test
  void mergeKeepsOtherPropertiesAndOverwritesGivenOnes() {
    people.insert(person("p", "1", "Ann"));
    people.merge(Item.builder("p", "1").put("age", 43).put("city", "Oslo").build(), null);
    assertThat(people.get("p", "1").orElseThrow().properties())
        .containsEntry("name", Value.of("Ann"))
        .containsEntry("age", Value.of(43))
        .containsEntry("city", Value.of("Oslo"));
  }

  @Test
  void mergeWhenAbsentFailsWithItemNotFoundAndUpsertMergeInserts() {
    assertCode(() -> people.merge(person("p", "1", "Ann"), null), ErrorCode.ItemNotFound);
    people.upsertMerge(person("p", "1", "Ann"));
    people.upsertMerge(Item.builder("p", "1").put("city", "Oslo").build());
    assertThat(people.get("p", "1").orElseThrow().properties()).containsKeys("name", "age", "city");
  }

  @Test
  void mergeWhenEtagIsStaleFailsWithPreconditionFailed() {
    Item first = people.insert(person("p", "1", "Ann"));
    Item second = people.merge(Item.builder("p", "1").put("age", 1).build(), first.etag());
    assertCode(
        () -> people.merge(Item.builder("p", "1").put("age", 2).build(), first.etag()),
        ErrorCode.PreconditionFailed);
    assertThat(people.get("p", "1").orElseThrow().etag()).isEqualTo(second.etag());
  }

  @Test
  void deleteRemovesAndDeleteWhenAbsentFailsWithItemNotFound() {
    Item first = people.insert(person("p", "1", "Ann"));
    people.delete("p", "1", first.etag());
    assertThat(people.get("p", "1")).isEmpty();
    assertCode(() -> people.delete("p", "1", null), ErrorCode.ItemNotFound);
  }

  @Test
  void deleteWhenEtagIsStaleFailsWithPreconditionFailedAndKeepsTheItem() {
    Item first = people.insert(person("p", "1", "Ann"));
    people.replace(person("p", "1", "Bo"), "*");
    assertCode(() -> people.delete("p", "1", first.etag()), ErrorCode.PreconditionFailed);
    assertThat(people.get("p", "1")).isPresent();
  }

  @Test
  void forgedEtagFromTheFutureFailsAndMovesNoLaterTimestamp() {
    Item stored = people.insert(person("p", "1", "Ann"));
    String forged = "W/\"datetime'2126-01-01T00%3A00%3A00.0000000Z'\"";

    assertCode(() -> people.replace(person("p", "1", "Bo"), forged), ErrorCode.PreconditionFailed);
    assertCode(() -> people.delete("p", "1", forged), ErrorCode.PreconditionFailed);
    assertCode(() -> people.merge(person("p", "1", "Bo"), forged), ErrorCode.PreconditionFailed);
    assertCode(() -> people.replace(person("p", "absent", "Bo"), forged), ErrorCode.ItemNotFound);
    assertCode(
        () -> await(people.replaceAsync(person("p", "1", "Bo"), forged)),
        ErrorCode.PreconditionFailed);
    assertCode(() -> await(people.deleteAsync("p", "1", forged)), ErrorCode.PreconditionFailed);
    assertCode(
        () ->
            db.commit(
                io.viewbase.api.Batch.builder()
                    .replace("People", person("p", "1", "Bo"), forged)
                    .build()),
        ErrorCode.PreconditionFailed);
    Item later = people.upsert(person("p", "2", "Cy"));
    Item laterAsync = await(people.upsertAsync(person("p", "3", "Di")));

    assertThat(people.get("p", "1")).contains(stored);
    java.time.Instant soon = java.time.Instant.now().plusSeconds(60);
    assertThat(later.timestamp()).isBefore(soon);
    assertThat(laterAsync.timestamp()).isBefore(soon);
    assertThat(people.get("p", "2").orElseThrow().timestamp()).isBefore(soon);
  }

  // --- asynchronous writes: the same behaviour table, through the future

  /** The future's value, or its ViewbaseException thrown as the blocking write would throw it. */
  static <T> T await(CompletableFuture<T> future) {
    try {
      return future.get(1, TimeUnit.MINUTES);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof ViewbaseException) {
        throw (ViewbaseException) e.getCause();
      }
      throw new AssertionError(e.getCause());
    } catch (InterruptedException | TimeoutException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void asyncWritesFollowTheBehaviourTable() {
    Item first = await(people.insertAsync(person("p", "1", "Ann")));
    assertThat(people.get("p", "1")).contains(first);
    assertCode(
        () -> await(people.insertAsync(person("p", "1", "Bo"))), ErrorCode.ItemAlreadyExists);
    assertCode(
        () -> await(people.replaceAsync(person("p", "2", "Bo"), null)), ErrorCode.ItemNotFound);

    Item second = await(people.replaceAsync(person("p", "1", "Bo"), first.etag()));
    assertThat(second.etag()).isNotEqualTo(first.etag());
    assertCode(
        () -> await(people.replaceAsync(person("p", "1", "Cy"), first.etag())),
        ErrorCode.PreconditionFailed);
    assertThat(people.get("p", "1")).contains(second);

    Item merged =
        await(people.mergeAsync(Item.builder("p", "1").put("city", "Oslo").build(), second.etag()));
    assertThat(merged.properties())
        .containsEntry("name", Value.of("Bo"))
        .containsEntry("city", Value.of("Oslo"));
    assertCode(
        () -> await(people.mergeAsync(Item.builder("p", "1").put("age", 2).build(), second.etag())),
        ErrorCode.PreconditionFailed);
    assertCode(
        () -> await(people.mergeAsync(person("p", "3", "Di"), null)), ErrorCode.ItemNotFound);
    await(people.upsertMergeAsync(Item.builder("p", "3").put("age", 7).build()));
    Item upserted = await(people.upsertAsync(Item.builder("p", "3").put("name", "Di").build()));
    assertThat(people.get("p", "3")).contains(upserted);
    assertThat(upserted.properties()).isEqualTo(Map.of("name", Value.of("Di")));

    assertCode(
        () -> await(people.deleteAsync("p", "1", first.etag())), ErrorCode.PreconditionFailed);
    assertThat(people.get("p", "1")).isPresent();
    await(people.deleteAsync("p", "1", merged.etag()));
    assertThat(people.get("p", "1")).isEmpty();
    assertCode(() -> await(people.deleteAsync("p", "1", null)), ErrorCode.ItemNotFound);
  }

  @Test
  void badInputFailsTheAsyncWritesFutureNotItsCaller() {
    CompletableFuture<Item> badKey = people.insertAsync(person("p", "a\u0001b", "Ann"));
    CompletableFuture<Void> badDelete = people.deleteAsync("p", "x".repeat(2000), null);

    assertCode(() -> await(badKey), ErrorCode.InvalidKey);
    assertCode(() -> await(badDelete), ErrorCode.InvalidKey);
    assertThat(people.query(Query.partition("p")).items()).isEmpty();
  }

  @Test
  void manyAsyncWritesInFlightAllLandAndConditionsStillDecideOneWinner() {
    List<CompletableFuture<Item>> inserts = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      inserts.add(people.insertAsync(person("many", String.format("%04d", i), "n" + i)));
    }
    List<CompletableFuture<Item>> claims = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      claims.add(people.insertAsync(person("claim", "only", "c" + i)));
    }
    inserts.forEach(DatabaseContract::await);
    int winners = 0;
    for (CompletableFuture<Item> claim : claims) {
      try {
        Item won = await(claim);
        assertThat(people.get("claim", "only")).contains(won);
        winners++;
      } catch (ViewbaseException e) {
        assertThat(e.code()).isEqualTo(ErrorCode.ItemAlreadyExists);
      }
    }
    assertThat(winners).isEqualTo(1);
    try (ItemCursor all = people.cursor(Query.partition("many"))) {
      int n = 0;
      while (all.hasNext()) {
        assertThat(all.next().id()).isEqualTo(String.format("%04d", n++));
      }
      assertThat(n).isEqualTo(500);
    }
  }

  // --- rules

  @Test
  void emptyPartitionKeysAndIdsAreKeysLikeAnyOther() {
    // Azure allows them (an empty RowKey is the idiom for one record per partition).
    people.insert(person("", "", "Empty"));
    people.insert(person("", "a", "EmptyPartition"));
    people.insert(person("p", "", "EmptyId"));
    people.insert(person("p", "b", "Plain"));

    assertThat(people.get("", "").orElseThrow().properties())
        .containsEntry("name", Value.of("Empty"));
    assertThat(people.get("p", "").orElseThrow().properties())
        .containsEntry("name", Value.of("EmptyId"));
    assertThat(people.query(Query.partition("")).items())
        .extracting(Item::id)
        .containsExactly("", "a");
    assertThat(people.query(Query.all().withFilter("PartitionKey eq ''")).items())
        .extracting(Item::id)
        .containsExactly("", "a");
    assertThat(people.query(Query.all().withFilter("RowKey eq ''")).items())
        .extracting(Item::partitionKey)
        .containsExactly("", "p");
    assertCode(() -> people.insert(person("", "", "Again")), ErrorCode.ItemAlreadyExists);
    people.delete("", "", null);
    assertThat(people.get("", "")).isEmpty();
  }

  @Test
  void pagingAcrossEmptyKeysReturnsEveryItemOnce() {
    people.insert(person("", "", "1"));
    people.insert(person("", "x", "2"));
    people.insert(person("a", "", "3"));
    people.insert(person("a", "y", "4"));

    List<String> seen = new ArrayList<>();
    Query query = Query.all().withLimit(1);
    for (int pages = 0; pages < 10; pages++) {
      Page page = people.query(query);
      page.items().forEach(i -> seen.add(i.partitionKey() + "/" + i.id()));
      if (page.continuation() == null) {
        break;
      }
      query = query.withContinuation(page.continuation());
    }

    assertThat(seen).containsExactly("/", "/x", "a/", "a/y");
  }

  /**
   * A filtered scan whose page ends at the byte budget (4 MiB of entries read) on an entry the
   * filter rejects resumes right after it, though no entry of the page matched: every match once,
   * in order, both over the whole table and within one partition.
   */
  @Test
  void filteredPagesEndingAtTheByteBudgetResumeAfterTheLastEntryRead() {
    String blob = "b".repeat(200 * 1024);
    List<String> matches = new ArrayList<>();
    for (int i = 0; i < 90; i++) {
      String pk = "p" + (i % 3);
      String id = String.format("%03d", i);
      boolean tagged = i == 3 || i == 80 || i == 85; // no match for pages on end
      people.upsert(Item.builder(pk, id).put("blob", blob).put("tag", tagged ? "x" : "y").build());
      if (tagged) {
        matches.add(pk + "/" + id);
      }
    }
    matches.sort(null); // the scan's order: by partition, then id

    List<Page> pages = new ArrayList<>();
    assertThat(pageThrough(Query.all().withFilter("tag eq 'x'"), pages)).isEqualTo(matches);
    assertThat(pages.size()).isGreaterThanOrEqualTo(4); // 18 MB read, 4 MiB a page
    assertThat(pages.get(0).continuation()).isNotNull();

    pages.clear();
    assertThat(pageThrough(Query.partition("p1").withFilter("tag eq 'x'"), pages))
        .isEqualTo(matches.stream().filter(k -> k.startsWith("p1/")).toList());
    assertThat(pages.size()).isGreaterThanOrEqualTo(2); // 6 MB in the partition
  }

  /**
   * A filtered scan's page ends after 100,000 entries read, on an entry the filter rejects, and the
   * next page resumes right after it: a match on each side of that boundary, each found once.
   */
  @Test
  void filteredPagesEndingAfterEnoughEntriesReadResumeAfterTheLastEntryRead() {
    int items = QueryExecutor.MAX_EXAMINED + 50;
    for (int from = 0; from < items; from += 100) {
      Batch.Builder batch = Batch.builder();
      for (int i = from; i < Math.min(items, from + 100); i++) {
        boolean tagged = i == 5 || i == QueryExecutor.MAX_EXAMINED + 20;
        batch.upsert(
            "People",
            Item.builder("p", String.format("%07d", i)).put("tag", tagged ? "x" : "y").build());
      }
      db.commit(batch.build());
    }

    List<Page> pages = new ArrayList<>();
    List<String> expected =
        List.of("p/0000005", String.format("p/%07d", QueryExecutor.MAX_EXAMINED + 20));
    assertThat(pageThrough(Query.all().withFilter("tag eq 'x'"), pages)).isEqualTo(expected);
    assertThat(pages.size()).isEqualTo(2);
    assertThat(pages.get(0).items().size()).isEqualTo(1);
    assertThat(pages.get(0).continuation()).isNotNull();

    pages.clear();
    assertThat(pageThrough(Query.partition("p").withFilter("tag eq 'x'"), pages))
        .isEqualTo(expected);
    assertThat(pages.size()).isEqualTo(2);
  }

  /**
   * Follows a query's continuations to the end: the keys found, the pages kept in {@code pages}.
   */
  private List<String> pageThrough(Query query, List<Page> pages) {
    List<String> found = new ArrayList<>();
    for (int n = 0; n < 20; n++) {
      Page page = people.query(query);
      pages.add(page);
      page.items().forEach(i -> found.add(i.partitionKey() + "/" + i.id()));
      if (page.continuation() == null) {
        return found;
      }
      query = query.withContinuation(page.continuation());
    }
    throw new AssertionError("more than 20 pages: " + found);
  }

  @Test
  void keysWithControlCharactersOrOver1KiBAreRejectedAndNothingIsWritten() {
    assertCode(() -> people.insert(person("p\n", "1", "Ann")), ErrorCode.InvalidKey);
    assertCode(() -> people.insert(person("p", "a\u0000b", "Ann")), ErrorCode.InvalidKey);
    assertCode(() -> people.insert(person("p", "x".repeat(1025), "Ann")), ErrorCode.InvalidKey);
    assertCode(() -> people.insert(person("é".repeat(513), "1", "Ann")), ErrorCode.InvalidKey);
    people.insert(person("é".repeat(512), "x".repeat(1024), "Ann"));
    assertThat(people.query(Query.all()).items()).hasSize(1);
  }

  @Test
  void keysMayHoldAnyPrintableTextIncludingSeparators() {
    String pk = "$platform#organization#id_1";
    String id = "a/b\\c?d e%2F😀";
    people.insert(person(pk, id, "Ann"));
    assertThat(people.get(pk, id)).isPresent();
  }

  @Test
  void reservedOrInvalidPropertyNamesAreRejected() {
    for (String bad :
        List.of(
            "_etag",
            "_x",
            "id",
            "partitionKey",
            "",
            "a@odata.type",
            "tab\tname",
            "x".repeat(256))) {
      assertCode(
          () -> people.insert(Item.builder("p", "1").put(bad, 1).build()),
          ErrorCode.InvalidPropertyName);
    }
    assertThat(people.get("p", "1")).isEmpty();
  }

  @Test
  void tooManyPropertiesOrTooLargeAnItemIsRejected() {
    Item.Builder many = Item.builder("p", "1");
    for (int i = 0; i < 256; i++) {
      many.put("p" + i, i);
    }
    assertCode(() -> people.insert(many.build()), ErrorCode.TooManyProperties);
    Item huge = Item.builder("p", "1").put("blob", new byte[(1 << 20) + 1]).build();
    assertCode(() -> people.insert(huge), ErrorCode.ItemTooLarge);
    people.insert(person("p", "1", "Ann"));
    assertCode(() -> people.merge(huge, null), ErrorCode.ItemTooLarge);
    assertThat(people.get("p", "1").orElseThrow().properties()).containsOnlyKeys("name", "age");
  }

  @Test
  void everyValueTypeRoundTrips() {
    Item item =
        Item.builder("p", "types")
            .put("s", "text")
            .put("b", true)
            .put("i", 7)
            .put("l", 1L << 60)
            .put("d", 1.5)
            .put("t", java.time.Instant.parse("2026-01-02T03:04:05.1234567Z"))
            .put("g", java.util.UUID.fromString("0f8fad5b-d9cb-469f-a165-70867728950e"))
            .put("bin", new byte[] {1, 2, 3})
            .put("n", Value.nullValue())
            .put("o", new Value.Obj(Map.of("x", Value.of(1))))
            .put("a", new Value.Arr(List.of(Value.of("x"), Value.of(2L))))
            .build();
    people.insert(item);
    assertThat(people.get("p", "types").orElseThrow().properties()).isEqualTo(item.properties());
  }

  // --- queries

  private void fill(String pk, int n) {
    for (int i = 0; i < n; i++) {
      people.upsert(person(pk, String.format("%04d", i), "n" + i));
    }
  }

  @Test
  void partitionQueryReadsOnlyThatPartitionInIdOrder() {
    fill("a", 5);
    fill("ab", 3);
    fill("b", 2);
    assertThat(people.query(Query.partition("a")).items())
        .extracting(Item::id)
        .containsExactly("0000", "0001", "0002", "0003", "0004");
  }

  @Test
  void partitionRangeFilterFromAnInclusiveLowKeepsTheEmptyIdOfThatPartition() {
    for (String pk : List.of("a", "b", "c")) {
      people.insert(person(pk, "", "first of " + pk));
      people.insert(person(pk, "x", "next in " + pk));
    }
    for (String filter :
        List.of(
            "PartitionKey ge 'b'",
            "PartitionKey ge 'b' and PartitionKey le 'c'",
            "PartitionKey gt 'a' and RowKey lt 'x'",
            "PartitionKey ge 'b' and age eq 42")) {
      List<String> keys = new ArrayList<>();
      Query query = Query.all().withFilter(filter).withLimit(1);
      for (Page page = people.query(query);
          ;
          page = people.query(query.withContinuation(page.continuation()))) {
        page.items().forEach(i -> keys.add(i.partitionKey() + "/" + i.id()));
        if (!page.hasMore()) {
          break;
        }
      }
      assertThat(keys).as(filter).startsWith("b/").contains("c/");
    }
  }

  @Test
  void rangePrefixAndDescendingSelectTheRightIds() {
    fill("a", 30);
    assertThat(people.query(Query.partition("a").withRange("0005", "0008")).items())
        .extracting(Item::id)
        .containsExactly("0005", "0006", "0007");
    assertThat(people.query(Query.partition("a").withPrefix("001")).items()).hasSize(10);
    assertThat(people.query(Query.partition("a").withPrefix("001").withRange("0015", null)).items())
        .extracting(Item::id)
        .containsExactly("0015", "0016", "0017", "0018", "0019");
    assertThat(
            people.query(Query.partition("a").withRange("0005", "0008").descending(true)).items())
        .extracting(Item::id)
        .containsExactly("0007", "0006", "0005");
    assertThat(people.query(Query.partition("a").withRange("0008", "0005")).items()).isEmpty();
  }

  @Test
  void selectReturnsOnlyTheNamedProperties() {
    fill("a", 2);
    Page page = people.query(Query.partition("a").withSelect(List.of("name", "missing")));
    assertThat(page.items()).allSatisfy(i -> assertThat(i.properties()).containsOnlyKeys("name"));
  }

  @Test
  void pagingWithContinuationVisitsEveryItemOnceInBothDirections() {
    fill("a", 2500);
    for (boolean desc : List.of(false, true)) {
      List<String> ids = new ArrayList<>();
      Query q = Query.partition("a").descending(desc).withLimit(1000);
      int pages = 0;
      while (true) {
        Page page = people.query(q);
        pages++;
        page.items().forEach(i -> ids.add(i.id()));
        if (!page.hasMore()) {
          break;
        }
        q = q.withContinuation(page.continuation());
      }
      assertThat(pages).isEqualTo(3);
      assertThat(ids).hasSize(2500).doesNotHaveDuplicates();
      assertThat(ids.get(0)).isEqualTo(desc ? "2499" : "0000");
    }
  }

  @Test
  void anExactlyFullLastPageHasNoContinuation() {
    fill("a", 10);
    assertThat(people.query(Query.partition("a").withLimit(10)).continuation()).isNull();
  }

  @Test
  void tableScanPagesAcrossPartitions() {
    fill("a", 7);
    fill("b", 7);
    fill("c", 7);
    db.createTable("Other");
    db.table("Other").insert(person("a", "x", "not mine"));
    List<String> seen = new ArrayList<>();
    try (ItemCursor cursor = people.cursor(Query.all().withLimit(4))) {
      cursor.forEachRemaining(i -> seen.add(i.partitionKey() + "/" + i.id()));
    }
    assertThat(seen).hasSize(21).doesNotHaveDuplicates().startsWith("a/0000").endsWith("c/0006");
  }

  @Test
  void tamperedOrForeignContinuationFailsWithInvalidContinuation() {
    fill("a", 20);
    Page page = people.query(Query.partition("a").withLimit(5));
    String token = page.continuation();
    char last = token.charAt(token.length() / 2);
    String tampered =
        token.substring(0, token.length() / 2)
            + (last == 'A' ? 'B' : 'A')
            + token.substring(token.length() / 2 + 1);
    assertCode(
        () -> people.query(Query.partition("a").withContinuation(tampered)),
        ErrorCode.InvalidContinuation);
    assertCode(
        () -> people.query(Query.partition("a").withContinuation("!!!")),
        ErrorCode.InvalidContinuation);
    assertCode(
        () -> people.query(Query.partition("b").withContinuation(token)),
        ErrorCode.InvalidContinuation);
    assertCode(
        () -> people.query(Query.all().withContinuation(token)), ErrorCode.InvalidContinuation);
    assertThat(people.query(Query.partition("a").withLimit(5).withContinuation(token)).items())
        .hasSize(5);
  }

  @Test
  void limitOutOfRangeFailsWithInvalidQuery() {
    assertCode(() -> people.query(Query.partition("a").withLimit(0)), ErrorCode.InvalidQuery);
    assertCode(() -> people.query(Query.partition("a").withLimit(1001)), ErrorCode.InvalidQuery);
    assertCode(() -> people.query(Query.all().withPrefix("x")), ErrorCode.InvalidQuery);
  }

  @Test
  void filterSelectsMatchingItems() {
    fill("a", 20);
    assertThat(
            people
                .query(Query.partition("a").withFilter("name eq 'n7' or RowKey ge '0018'"))
                .items())
        .extracting(Item::id)
        .containsExactly("0007", "0018", "0019");
    assertCode(() -> people.query(Query.all().withFilter("name eq")), ErrorCode.InvalidFilter);
  }

  // --- a closed database

  @Test
  void everyCallAfterCloseFailsWithDatabaseClosed() throws Exception {
    db.close();

    assertCode(() -> people.upsert(person("p", "1", "Ann")), ErrorCode.DatabaseClosed);
    assertCode(() -> people.get("p", "1"), ErrorCode.DatabaseClosed);
    assertCode(() -> db.table("People"), ErrorCode.DatabaseClosed);
    assertCode(
        () ->
            db.commit(
                io.viewbase.api.Batch.builder().insert("People", person("p", "2", "Bo")).build()),
        ErrorCode.DatabaseClosed);
    CompletableFuture<Item> async = people.upsertAsync(person("p", "3", "Cy"));
    assertThatThrownBy(() -> async.get(1, TimeUnit.MINUTES))
        .isInstanceOf(ExecutionException.class)
        .extracting(e -> ((ViewbaseException) e.getCause()).code())
        .isEqualTo(ErrorCode.DatabaseClosed);
  }
}
