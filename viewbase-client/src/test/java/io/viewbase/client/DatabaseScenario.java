package io.viewbase.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.Batch;
import io.viewbase.api.BatchResult;
import io.viewbase.api.Change;
import io.viewbase.api.ChangePage;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.ItemCursor;
import io.viewbase.api.Page;
import io.viewbase.api.Query;
import io.viewbase.api.Table;
import io.viewbase.api.TableInfo;
import io.viewbase.api.TableOptions;
import io.viewbase.api.Value;
import io.viewbase.api.VerifyReport;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.ViewBuilds;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One scenario of the {@link Database} contract, run against the embedded engine and against a
 * {@link RemoteDatabase} talking to a server over it: code must behave the same on both.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class DatabaseScenario {
  private static final AtomicInteger NAMES = new AtomicInteger();

  /** The database under test. */
  abstract Database db();

  Table newTable() {
    return db().table(db().createTable("Scenario" + NAMES.incrementAndGet()).name());
  }

  static void assertCode(ThrowingCallable call, ErrorCode code) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(code));
  }

  @Test
  void tablesAreCreatedListedFoundAndDropped() {
    String name = "Life" + NAMES.incrementAndGet();
    TableInfo info = db().createTable(name);
    assertThat(info.name()).isEqualTo(name);
    assertThat(info.kind()).isEqualTo(TableInfo.TABLE);
    assertCode(() -> db().createTable(name.toLowerCase()), ErrorCode.TableAlreadyExists);
    assertThat(db().listTables()).contains(info);
    assertThat(db().table(name.toUpperCase()).name()).isEqualTo(name);
    db().dropTable(name);
    assertCode(() -> db().table(name), ErrorCode.TableNotFound);
    assertCode(() -> db().dropTable(name), ErrorCode.TableNotFound);
    assertCode(() -> db().createTable("no"), ErrorCode.InvalidTableName);
  }

  @Test
  void writesFollowTheTableOfConditions() {
    Table t = newTable();
    Item inserted = t.insert(Item.builder("p", "i").put("v", 1).build());
    assertThat(inserted.etag()).isNotNull();
    assertThat(inserted.timestamp()).isNotNull();
    assertThat(t.get("p", "i")).contains(inserted);
    assertCode(() -> t.insert(Item.builder("p", "i").build()), ErrorCode.ItemAlreadyExists);

    Item replaced = t.replace(Item.builder("p", "i").put("v", 2).build(), inserted.etag());
    assertThat(replaced.etag()).isNotEqualTo(inserted.etag());
    assertCode(
        () -> t.replace(Item.builder("p", "i").put("v", 3).build(), inserted.etag()),
        ErrorCode.PreconditionFailed);
    assertCode(() -> t.replace(Item.builder("p", "absent").build(), null), ErrorCode.ItemNotFound);
    assertThat(t.get("p", "i")).contains(replaced);

    Item merged = t.merge(Item.builder("p", "i").put("w", "x").build(), "*");
    assertThat(merged.properties())
        .containsEntry("v", Value.of(2))
        .containsEntry("w", Value.of("x"));
    assertCode(
        () -> t.merge(Item.builder("p", "i").build(), replaced.etag()),
        ErrorCode.PreconditionFailed);
    assertCode(() -> t.merge(Item.builder("p", "absent").build(), null), ErrorCode.ItemNotFound);

    assertThat(t.upsert(Item.builder("p", "u").put("a", 1).build()).properties())
        .containsOnlyKeys("a");
    assertThat(t.upsertMerge(Item.builder("p", "u").put("b", 2).build()).properties())
        .containsOnlyKeys("a", "b");

    assertCode(() -> t.delete("p", "i", replaced.etag()), ErrorCode.PreconditionFailed);
    t.delete("p", "i", merged.etag());
    assertThat(t.get("p", "i")).isEmpty();
    assertThatThrownBy(() -> t.delete("p", "i", null))
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.ItemNotFound);
              assertThat(e.context()).containsEntry("partitionKey", "p").containsEntry("id", "i");
            });
  }

  @Test
  void everyValueTypeKeepsItsType() {
    Table t = newTable();
    Map<String, Value> props =
        Map.ofEntries(
            Map.entry("s", Value.of("text")),
            Map.entry("b", Value.of(true)),
            Map.entry("i32", Value.of(7)),
            Map.entry("i64", Value.of(7L)),
            Map.entry("big", Value.of(Long.MIN_VALUE)),
            Map.entry("d", Value.of(1.0)),
            Map.entry("nan", Value.of(Double.NaN)),
            Map.entry("dec", Value.of(new BigDecimal("-12345678901234567890.123456789012345678"))),
            Map.entry("when", Value.of(Instant.parse("2026-11-30T12:00:00.1234567Z"))),
            Map.entry("g", Value.of(new UUID(1, 2))),
            Map.entry("bin", Value.of(new byte[] {0, 1, (byte) 255})),
            Map.entry("n", Value.nullValue()),
            Map.entry(
                "o",
                new Value.Obj(
                    Map.of("deep", new Value.Arr(List.of(Value.of(1L), Value.of("x")))))));
    Item written = t.upsert(Item.of("p", "types", props));
    assertThat(written.properties()).isEqualTo(props);
    assertThat(t.get("p", "types").orElseThrow().properties()).isEqualTo(props);
  }

  @Test
  void decimalsCompareExactlyInFiltersAndSortByValueInAKeyView() {
    Table t = newTable();
    Object[][] rows = {
      {"a", Value.of(new BigDecimal("0.1"))},
      {"b", Value.of(0.1)},
      {"c", Value.of(-2L)},
      {"d", Value.of(new BigDecimal("1E+30"))},
      {"e", Value.of(3)}
    };
    for (Object[] row : rows) {
      t.insert(Item.builder("p", (String) row[0]).put("n", (Value) row[1]).build());
    }
    assertThat(ids(t.query(Query.all().withFilter("n lt 0.1")))).containsExactly("a", "c");
    assertThat(ids(t.query(Query.all().withFilter("n eq 0.1M")))).containsExactly("a");
    assertThat(ids(t.query(Query.all().withFilter("n gt 3M")))).containsExactly("d");

    String view = t.name() + "ByN";
    db().createView(ViewDefinition.of(view, t.name(), "all", "{n|key}{id|key}"));
    assertThat(awaitBuilt(view).state()).isEqualTo(ViewStatus.READY);
    assertThat(
            db().table(view).query(Query.partition("all")).items().stream()
                .map(Item::sourceId)
                .toList())
        .containsExactly("c", "a", "b", "e", "d");
  }

  private static List<String> ids(Page page) {
    return page.items().stream().map(Item::id).toList();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "a/b",
        "a#b",
        "a?b=c&d",
        "100%",
        "a b+c",
        "é€😀",
        "..",
        ".",
        "$platform#org#id_1",
        "~-_."
      })
  void keysWithSpecialCharactersAddressExactlyThemselves(String key) {
    Table t = newTable();
    t.upsert(Item.builder(key, key).put("k", key).build());
    t.upsert(Item.builder(key + "x", key).build());
    assertThat(t.get(key, key).orElseThrow().properties()).containsEntry("k", Value.of(key));
    assertThat(t.query(Query.partition(key)).items()).extracting(Item::id).containsExactly(key);
  }

  @Test
  void emptyKeysRoundTripThroughGetQueryAndDelete() {
    // Keys may be empty; over HTTP they travel as empty path segments (items//, items/p/).
    Table t = newTable();
    t.insert(Item.builder("", "").put("v", 1).build());
    t.insert(Item.builder("", "x").put("v", 2).build());
    t.insert(Item.builder("p", "").put("v", 3).build());

    assertThat(t.get("", "").orElseThrow().properties()).containsEntry("v", Value.of(1));
    assertThat(t.get("p", "").orElseThrow().properties()).containsEntry("v", Value.of(3));
    assertThat(t.query(Query.partition("")).items()).extracting(Item::id).containsExactly("", "x");
    t.delete("", "", null);
    assertThat(t.get("", "")).isEmpty();
    assertThat(t.query(Query.all()).items()).hasSize(2);
  }

  @Test
  void invalidKeysFailWithInvalidKey() {
    Table t = newTable();
    assertCode(() -> t.upsert(Item.builder("a\u0001", "i").build()), ErrorCode.InvalidKey);
    assertCode(() -> t.upsert(Item.builder("p", "k".repeat(1025)).build()), ErrorCode.InvalidKey);
    assertThat(t.query(Query.all()).items()).isEmpty();
  }

  @Test
  void queriesPageAndCursorsReadEverything() {
    Table t = newTable();
    for (int i = 0; i < 25; i++) {
      t.upsert(Item.builder("p", String.format("id%03d", i)).put("i", i).put("other", "x").build());
    }
    t.upsert(Item.builder("q", "id000").build());

    Page first = t.query(Query.partition("p").withLimit(10));
    assertThat(first.items()).hasSize(10);
    assertThat(first.continuation()).isNotNull();
    Page second =
        t.query(Query.partition("p").withLimit(10).withContinuation(first.continuation()));
    assertThat(second.items().get(0).id()).isEqualTo("id010");

    List<String> ids = new ArrayList<>();
    try (ItemCursor c = t.cursor(Query.partition("p").withLimit(7))) {
      c.forEachRemaining(item -> ids.add(item.id()));
    }
    assertThat(ids).hasSize(25).isSorted();

    assertThat(t.query(Query.partition("p").withPrefix("id01")).items()).hasSize(10);
    assertThat(t.query(Query.partition("p").withRange("id005", "id008")).items())
        .extracting(Item::id)
        .containsExactly("id005", "id006", "id007");
    assertThat(t.query(Query.partition("p").descending(true).withLimit(1)).items().get(0).id())
        .isEqualTo("id024");
    assertThat(
            t.query(Query.partition("p").withSelect(List.of("i")).withLimit(1))
                .items()
                .get(0)
                .properties())
        .containsOnlyKeys("i");
    List<String> partitions = new ArrayList<>();
    try (ItemCursor c = t.cursor(Query.all().withLimit(5))) {
      c.forEachRemaining(item -> partitions.add(item.partitionKey()));
    }
    assertThat(partitions).hasSize(26).endsWith("q");
  }

  @Test
  void badQueriesFailWithTheEnginesCodes() {
    Table t = newTable();
    t.upsert(Item.builder("p", "a").build());
    t.upsert(Item.builder("p", "b").build());
    assertCode(() -> t.query(Query.partition("p").withLimit(0)), ErrorCode.InvalidQuery);
    assertCode(() -> t.query(Query.partition("p").withLimit(1001)), ErrorCode.InvalidQuery);
    String token = t.query(Query.partition("p").withLimit(1)).continuation();
    String tampered = (token.charAt(0) == 'A' ? "B" : "A") + token.substring(1);
    assertCode(
        () -> t.query(Query.partition("p").withLimit(1).withContinuation(tampered)),
        ErrorCode.InvalidContinuation);
  }

  @Test
  void tableOfAMissingNameFailsWithTableNotFound() {
    assertCode(() -> db().table("Missing" + NAMES.incrementAndGet()), ErrorCode.TableNotFound);
  }

  /** Polls until the view is no longer building (bounded: {@link ViewBuilds}). */
  ViewStatus awaitBuilt(String view) {
    return ViewBuilds.awaitBuilt(db(), view);
  }

  @Test
  void aViewCopiesItsSourceKeyedByEmailAndKeepsEmailsUnique() {
    Table people = newTable();
    String view = "ByEmail" + NAMES.incrementAndGet();
    String ann = UUID.randomUUID().toString();
    people.insert(Item.builder("people", ann).put("email", "ann@x").put("name", "Ann").build());
    ViewDefinition definition = ViewDefinition.of(view, people.name(), "all", "{email}");

    ViewStatus created = db().createView(definition);
    assertThat(created.definition()).isEqualTo(definition);
    assertThat(created.state()).isIn(ViewStatus.BUILDING, ViewStatus.READY);
    ViewStatus built = awaitBuilt(view);
    assertThat(built.state()).isEqualTo(ViewStatus.READY);
    assertThat(built.progress().done()).isEqualTo(1);
    assertThat(built.created()).isEqualTo(created.created()).isNotNull();

    Table byEmail = db().table(view);
    Item found = byEmail.get("all", "ann@x").orElseThrow();
    assertThat(found.sourcePartitionKey()).isEqualTo("people");
    assertThat(found.sourceId()).isEqualTo(ann);
    assertThat(found.properties()).containsEntry("name", Value.of("Ann"));
    assertThat(byEmail.query(Query.partition("all")).items()).containsExactly(found);

    people.merge(Item.builder("people", ann).put("email", "ann@new").build(), null);
    assertThat(byEmail.get("all", "ann@x")).isEmpty();
    assertThat(byEmail.get("all", "ann@new").orElseThrow().sourceId()).isEqualTo(ann);

    Item bo = Item.builder("people", UUID.randomUUID().toString()).put("email", "ann@new").build();
    assertThatThrownBy(() -> people.insert(bo))
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.ViewKeyConflict);
              assertThat(e.context())
                  .containsEntry("view", view)
                  .containsEntry("viewId", "ann@new");
            });
    assertThat(people.get("people", bo.id())).isEmpty();

    assertCode(() -> byEmail.upsert(Item.builder("all", "x").build()), ErrorCode.ViewIsReadOnly);
    assertCode(() -> byEmail.delete("all", "ann@new", null), ErrorCode.ViewIsReadOnly);
    assertThat(db().listTables())
        .contains(
            new TableInfo(view, TableInfo.VIEW, people.name(), ViewStatus.READY, built.created()));
  }

  @Test
  void aViewWithWhereAndSelectVerifiesCleanAndIsDropped() {
    Table t = newTable();
    for (int i = 0; i < 50; i++) {
      t.upsert(
          Item.builder("p", "id" + i).put("n", i).put("odd", i % 2 == 1).put("extra", "x").build());
    }
    String view = "Odd" + NAMES.incrementAndGet();
    db().createView(
            new ViewDefinition(view, t.name(), "{odd}", "n_{n:04}", "odd eq true", List.of("n")));
    assertThat(awaitBuilt(view).state()).isEqualTo(ViewStatus.READY);

    List<Item> odd = db().table(view).query(Query.partition("true").withPrefix("n_001")).items();
    assertThat(odd)
        .extracting(Item::id)
        .containsExactly("n_0011", "n_0013", "n_0015", "n_0017", "n_0019");
    assertThat(odd.get(0).properties()).containsOnlyKeys("n");

    VerifyReport report = db().verifyView(view, false);
    assertThat(report.view()).isEqualTo(view);
    assertThat(report.checked()).isEqualTo(50);
    assertThat(report.drift()).isZero();
    assertThat(db().verifyView(view, true).drift()).isZero();

    db().dropView(view);
    assertCode(() -> db().viewStatus(view), ErrorCode.TableNotFound);
    assertCode(() -> db().table(view), ErrorCode.TableNotFound);
    assertCode(() -> db().dropView(view), ErrorCode.TableNotFound);
    assertCode(() -> db().verifyView(view, false), ErrorCode.TableNotFound);
  }

  @Test
  void aBackfillOverDuplicateKeysFailsAndTheViewIsNotReadable() {
    Table t = newTable();
    t.upsert(Item.builder("p", "1").put("email", "same@x").build());
    t.upsert(Item.builder("p", "2").put("email", "same@x").build());
    String view = "Dup" + NAMES.incrementAndGet();
    db().createView(ViewDefinition.of(view, t.name(), "all", "{email}"));
    ViewStatus failed = awaitBuilt(view);
    assertThat(failed.state()).isEqualTo(ViewStatus.FAILED);
    assertThat(failed.conflicts())
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.viewPartitionKey()).isEqualTo("all");
              assertThat(c.viewId()).isEqualTo("same@x");
              assertThat(List.of(c.sourceId(), c.otherSourceId()))
                  .containsExactlyInAnyOrder("1", "2");
            });
    assertCode(() -> db().table(view).get("all", "same@x"), ErrorCode.ViewNotReady);
    assertCode(() -> db().verifyView(view, false), ErrorCode.ViewNotReady);
    db().dropView(view);
  }

  @Test
  void badViewDefinitionsFailWithTheEnginesCodes() {
    Table t = newTable();
    String view = "Bad" + NAMES.incrementAndGet();
    assertCode(
        () -> db().createView(ViewDefinition.of(view, t.name(), null, "{email")),
        ErrorCode.InvalidView);
    assertCode(
        () -> db().createView(ViewDefinition.of(view, t.name(), null, "{a}").withWhere("a eq")),
        ErrorCode.InvalidView);
    assertCode(
        () ->
            db().createView(
                    ViewDefinition.of(view, t.name(), null, "{a}").withSelect(List.of("_etag"))),
        ErrorCode.InvalidView);
    assertCode(
        () ->
            db().createView(
                    ViewDefinition.of(view, "Missing" + NAMES.incrementAndGet(), null, "{a}")),
        ErrorCode.TableNotFound);
    assertCode(
        () -> db().createView(ViewDefinition.of(t.name(), t.name(), null, "{a}")),
        ErrorCode.TableAlreadyExists);
    assertCode(
        () -> db().createView(ViewDefinition.of("b!", t.name(), null, "{a}")),
        ErrorCode.InvalidTableName);
    assertCode(
        () -> db().createView(ViewDefinition.of(null, t.name(), null, "{a}")),
        ErrorCode.InvalidView);
    assertCode(() -> db().viewStatus(view), ErrorCode.TableNotFound);
    assertCode(() -> db().viewStatus(t.name()), ErrorCode.InvalidView);
    assertThat(db().listTables()).extracting(TableInfo::name).doesNotContain(view);
  }

  static void assertFailsAt(ThrowingCallable call, ErrorCode code, int operationIndex) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e -> {
              assertThat(e.code()).isEqualTo(code);
              assertThat(e.context()).containsEntry("operationIndex", operationIndex);
            });
  }

  @Test
  void aBatchCommitsAcrossTablesAndPartitionsAndReturnsEachStoredItem() {
    Table people = newTable();
    Table orders = newTable();
    Item bo = people.upsert(Item.builder("globex", "bo").put("v", 1).build());

    BatchResult result =
        db().commit(
                Batch.builder()
                    .insert(people.name(), Item.builder("acme", "ann").put("age", 34).build())
                    .upsert(orders.name(), Item.builder("2026", "o1").put("total", 12.5).build())
                    .merge(
                        people.name(), Item.builder("globex", "bo").put("w", 2).build(), bo.etag())
                    .check(orders.name(), "2026", "o2", null)
                    .build());

    assertThat(result.items()).hasSize(4);
    assertThat(result.items().get(3)).isNull();
    assertThat(people.get("acme", "ann")).contains(result.items().get(0));
    assertThat(orders.get("2026", "o1")).contains(result.items().get(1));
    assertThat(people.get("globex", "bo")).contains(result.items().get(2));
    assertThat(result.items().get(2).properties()).containsOnlyKeys("v", "w");
    assertThat(result.items().get(2).etag()).isNotEqualTo(bo.etag());
  }

  @Test
  void aBatchWhoseLaterOperationFailsWritesNothingAndNamesTheOperation() {
    Table t = newTable();
    Item a = t.upsert(Item.builder("p", "a").put("v", 1).build());
    t.upsert(Item.builder("p", "a").put("v", 2).build());
    List<Item> before = t.query(Query.all()).items();

    Batch stale =
        Batch.builder()
            .upsert(t.name(), Item.builder("p", "new").build())
            .delete(t.name(), "p", "a", a.etag())
            .build();
    assertThatThrownBy(() -> db().commit(stale))
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.PreconditionFailed);
              assertThat(e.context())
                  .containsEntry("operationIndex", 1)
                  .containsEntry("table", t.name())
                  .containsEntry("partitionKey", "p")
                  .containsEntry("id", "a");
            });
    assertFailsAt(
        () ->
            db().commit(
                    Batch.builder()
                        .upsert(t.name(), Item.builder("p", "new").build())
                        .insert(t.name(), Item.builder("p", "a").build())
                        .build()),
        ErrorCode.ItemAlreadyExists,
        1);
    assertFailsAt(
        () ->
            db().commit(
                    Batch.builder()
                        .upsert(t.name(), Item.builder("p", "new").build())
                        .check(t.name(), "p", "a", "*")
                        .check(t.name(), "p", "absent", "*")
                        .build()),
        ErrorCode.ItemNotFound,
        2);
    assertThat(t.query(Query.all()).items()).isEqualTo(before);
  }

  @Test
  void aBatchThatWouldDuplicateAViewKeyFailsWithViewKeyConflict() {
    Table people = newTable();
    String view = "BatchEmail" + NAMES.incrementAndGet();
    people.upsert(Item.builder("p", "ann").put("email", "ann@x").build());
    db().createView(ViewDefinition.of(view, people.name(), "all", "{email}"));
    assertThat(awaitBuilt(view).state()).isEqualTo(ViewStatus.READY);

    assertFailsAt(
        () ->
            db().commit(
                    Batch.builder()
                        .upsert(people.name(), Item.builder("p", "bo").put("email", "bo@x").build())
                        .upsert(
                            people.name(), Item.builder("p", "cy").put("email", "ann@x").build())
                        .build()),
        ErrorCode.ViewKeyConflict,
        1);
    assertThat(people.get("p", "bo")).isEmpty();
    assertThat(db().table(view).query(Query.all()).items())
        .extracting(Item::id)
        .containsExactly("ann@x");
    db().dropView(view);
  }

  @Test
  void aMoveIsAnInsertOfTheNewItemAndADeleteOfTheOldOneAtItsEtag() {
    Table t = newTable();
    Item old = t.upsert(Item.builder("acme", "ann").put("age", 34).build());

    db().commit(
            Batch.builder()
                .insert(t.name(), Item.of("globex", "ann", old.properties()))
                .delete(t.name(), "acme", "ann", old.etag())
                .build());

    assertThat(t.get("acme", "ann")).isEmpty();
    assertThat(t.get("globex", "ann").orElseThrow().properties()).isEqualTo(old.properties());
  }

  @Test
  void badBatchesFailWithInvalidInputOrTheOperationsCode() {
    Table t = newTable();
    assertCode(() -> db().commit(Batch.builder().build()), ErrorCode.InvalidInput);
    Batch.Builder many = Batch.builder();
    for (int i = 0; i <= Batch.MAX_OPERATIONS; i++) {
      many.upsert(t.name(), Item.builder("p", "i" + i).build());
    }
    assertCode(() -> db().commit(many.build()), ErrorCode.InvalidInput);
    assertFailsAt(
        () ->
            db().commit(
                    Batch.builder()
                        .upsert(t.name(), Item.builder("p", "a").build())
                        .delete(t.name(), "p", "a", null)
                        .build()),
        ErrorCode.InvalidInput,
        1);
    assertFailsAt(
        () ->
            db().commit(
                    Batch.builder()
                        .upsert(t.name(), Item.builder("p", "a").build())
                        .upsert("Missing" + NAMES.incrementAndGet(), Item.builder("p", "a").build())
                        .build()),
        ErrorCode.TableNotFound,
        1);
    assertFailsAt(
        () ->
            db().commit(
                    Batch.builder().upsert(t.name(), Item.builder("p\u0001", "a").build()).build()),
        ErrorCode.InvalidKey,
        0);
    assertThat(t.query(Query.all()).items()).isEmpty();
  }

  private Table newFeedTable(TableOptions.ChangeFeed feed) {
    String name = "Feed" + NAMES.incrementAndGet();
    db().createTable(name, TableOptions.DEFAULT.withChangeFeed(feed));
    return db().table(name);
  }

  @Test
  void tableOptionsAreCreatedReadAndAltered() {
    String name = "Options" + NAMES.incrementAndGet();
    TableOptions options =
        new TableOptions(
            new TableOptions.ChangeFeed(true, true, Duration.ofHours(3), 100), Duration.ofHours(1));
    assertThat(db().createTable(name, options).name()).isEqualTo(name);
    assertThat(db().tableOptions(name.toLowerCase())).isEqualTo(options);
    TableOptions off = TableOptions.DEFAULT;
    assertThat(db().alterTable(name, off)).isEqualTo(off);
    assertThat(db().tableOptions(name)).isEqualTo(off);
    assertThat(db().tableOptions(newTable().name())).isEqualTo(TableOptions.DEFAULT);
    assertCode(() -> db().tableOptions("Nope" + name), ErrorCode.TableNotFound);
    assertCode(() -> db().alterTable("Nope" + name, off), ErrorCode.TableNotFound);
  }

  @Test
  void changesListEveryWriteAndAWaitingReadGetsTheNextCommit() throws Exception {
    Table t = newFeedTable(TableOptions.ChangeFeed.ON.withBeforeImages(true));
    Item a = t.insert(Item.builder("p", "a").put("v", 1).build());
    Item a2 = t.upsert(Item.builder("p", "a").put("v", 2).build());
    t.delete("p", "a", null);
    ChangePage page = t.changes(0, 10);
    assertThat(page.changes())
        .extracting(Change::kind)
        .containsExactly(Change.Kind.INSERT, Change.Kind.UPDATE, Change.Kind.DELETE);
    assertThat(page.changes().get(0).item()).isEqualTo(a);
    assertThat(page.changes().get(1).item()).isEqualTo(a2);
    assertThat(page.changes().get(1).before().properties()).isEqualTo(a.properties());
    assertThat(page.next()).isEqualTo(3);
    assertThat(page.latest()).isEqualTo(3);

    CompletableFuture<ChangePage> waiting =
        CompletableFuture.supplyAsync(() -> t.changes(3, 10, Duration.ofSeconds(30)));
    Item b = t.insert(Item.builder("p", "b").build());
    ChangePage next = waiting.get(30, TimeUnit.SECONDS);
    assertThat(next.changes()).extracting(Change::item).containsExactly(b);
    assertThat(t.changes(4, 10, Duration.ofMillis(50)).changes()).isEmpty();
  }

  @Test
  void followDeliversEveryLaterEntryInOrderAtTheSubscribersPace() throws Exception {
    Table t = newFeedTable(TableOptions.ChangeFeed.ON);
    t.insert(Item.builder("p", "before").build());
    BlockingQueue<Change> received = new LinkedBlockingQueue<>();
    Flow.Subscription[] subscription = new Flow.Subscription[1];
    t.follow(1)
        .subscribe(
            new Flow.Subscriber<>() {
              @Override
              public void onSubscribe(Flow.Subscription s) {
                subscription[0] = s;
                s.request(2);
              }

              @Override
              public void onNext(Change change) {
                received.add(change);
              }

              @Override
              public void onError(Throwable failure) {}

              @Override
              public void onComplete() {}
            });
    for (int i = 0; i < 3; i++) {
      t.insert(Item.builder("p", "i" + i).build());
    }
    assertThat(received.poll(30, TimeUnit.SECONDS).id()).isEqualTo("i0");
    assertThat(received.poll(30, TimeUnit.SECONDS).id()).isEqualTo("i1");
    subscription[0].request(1);
    assertThat(received.poll(30, TimeUnit.SECONDS).id()).isEqualTo("i2");
    subscription[0].cancel();
    assertThat(received).isEmpty();
  }

  @Test
  void changeReadsFailAsTheEngineDoes() {
    Table plain = newTable();
    assertCode(() -> plain.changes(0, 10), ErrorCode.ChangeFeedDisabled);
    Table small = newFeedTable(TableOptions.ChangeFeed.ON.withRetention(Duration.ofHours(1), 2));
    for (int i = 0; i < 4; i++) {
      small.insert(Item.builder("p", "i" + i).build());
    }
    assertThatThrownBy(() -> small.changes(0, 10))
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.ChangesExpired);
              assertThat(((Number) e.context().get("oldest")).longValue()).isEqualTo(3);
            });
    assertThat(small.changes(2, 10).changes()).extracting(Change::sequence).containsExactly(3L, 4L);
    assertCode(() -> small.changes(-1, 10), ErrorCode.InvalidInput);
    assertCode(() -> small.changes(0, 0), ErrorCode.InvalidInput);
    assertCode(() -> small.changes(0, ChangePage.MAX_LIMIT + 1), ErrorCode.InvalidInput);
    assertCode(() -> small.changes(2, 10, Duration.ofSeconds(61)), ErrorCode.InvalidInput);
    assertCode(() -> small.changes(5, 10), ErrorCode.InvalidInput);
  }
}
