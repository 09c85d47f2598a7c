package io.viewbase.core;

import static io.viewbase.core.DatabaseContract.assertCode;
import static io.viewbase.core.ViewContract.awaitBuilt;
import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Batch;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Query;
import io.viewbase.api.QueryPlan;
import io.viewbase.api.Table;
import io.viewbase.api.Value;
import io.viewbase.api.VerifyReport;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.Mutation;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * History and partitions views on the embedded engine, run against each storage backend by a
 * one-method subclass.
 */
abstract class ViewKindsContract {
  @TempDir Path dir;

  Database db;
  Table people;

  protected abstract Database open(Path directory);

  @BeforeEach
  void setUp() {
    db = open(dir);
    db.createTable("People");
    people = db.table("People");
  }

  @AfterEach
  void tearDown() {
    db.close();
  }

  static Item item(String pk, String id, Object... properties) {
    Item.Builder b = Item.builder(pk, id);
    for (int i = 0; i < properties.length; i += 2) {
      Object v = properties[i + 1];
      if (v instanceof Integer n) {
        b.put((String) properties[i], n);
      } else {
        b.put((String) properties[i], (String) v);
      }
    }
    return b.build();
  }

  static long version(Item stored) {
    return Value.DateTime.of(stored.timestamp()).ticks();
  }

  static List<Item> all(Table table, Query query) {
    List<Item> out = new ArrayList<>();
    var page = table.query(query);
    out.addAll(page.items());
    while (page.continuation() != null) {
      page = table.query(query.withContinuation(page.continuation()));
      out.addAll(page.items());
    }
    return out;
  }

  static String operation(Item entry) {
    return ((Value.Str) entry.properties().get("_operation")).value();
  }

  static boolean deleted(Item entry) {
    return entry.properties().containsKey("_deleted");
  }

  private ViewStatus create(ViewDefinition definition) {
    db.createView(definition);
    ViewStatus status = awaitBuilt(db, definition.name());
    assertThat(status.state()).isEqualTo(ViewStatus.READY);
    return status;
  }

  // ---- history ----

  @Test
  void historyRecordsEveryWriteKindInCommitOrderWithATombstoneForTheDelete() {
    create(ViewDefinition.history("PeopleHistory", "People"));
    List<Item> written = new ArrayList<>();
    written.add(people.insert(item("acme", "ann", "age", 30)));
    written.add(people.replace(item("acme", "ann", "age", 31), null));
    written.add(people.merge(item("acme", "ann", "city", "Oslo"), null));
    written.add(people.upsert(item("acme", "ann", "age", 32)));
    written.add(people.upsertMerge(item("acme", "ann", "city", "Rome")));
    people.delete("acme", "ann", null);

    List<Item> entries = all(db.table("PeopleHistory"), Query.partition("acme#ann"));
    assertThat(entries).hasSize(6);
    assertThat(entries.stream().map(ViewKindsContract::operation))
        .containsExactly("insert", "replace", "merge", "upsert", "upsertMerge", "delete");
    for (int i = 0; i < written.size(); i++) {
      Item entry = entries.get(i);
      Item stored = written.get(i);
      assertThat(entry.sourcePartitionKey()).isEqualTo("acme");
      assertThat(entry.sourceId()).isEqualTo("ann");
      assertThat(entry.timestamp()).isEqualTo(stored.timestamp());
      assertThat(entry.id()).startsWith(ViewDefinition.historyId(version(stored)));
      Map<String, Value> userProperties = new LinkedHashMap<>(entry.properties());
      userProperties.remove("_operation");
      assertThat(userProperties).isEqualTo(stored.properties());
      assertThat(deleted(entry)).isFalse();
    }
    Item tombstone = entries.get(5);
    assertThat(deleted(tombstone)).isTrue();
    assertThat(tombstone.properties()).containsOnlyKeys("_operation", "_deleted");
    assertThat(tombstone.timestamp()).isAfter(written.get(4).timestamp());
    List<String> ids = entries.stream().map(Item::id).toList();
    assertThat(ids).isSorted();
    assertThat(ids.stream().map(id -> id.substring(0, 19)).distinct()).hasSize(6);
    assertThat(db.verifyView("PeopleHistory", false).drift()).isZero();
  }

  @Test
  void historyRefusedWritesLeaveNoEntry() {
    create(ViewDefinition.history("PeopleHistory", "People"));
    Item ann = people.insert(item("acme", "ann", "age", 30));
    assertCode(() -> people.insert(item("acme", "ann", "age", 1)), ErrorCode.ItemAlreadyExists);
    assertCode(() -> people.replace(item("acme", "bo", "age", 1), null), ErrorCode.ItemNotFound);
    assertCode(
        () -> people.replace(item("acme", "ann", "age", 1), "W/\"datetime'2001-01-01T00:00:00Z'\""),
        ErrorCode.PreconditionFailed);
    assertCode(
        () ->
            db.commit(
                Batch.builder().insert("People", item("acme", "cy")).insert("People", ann).build()),
        ErrorCode.ItemAlreadyExists);
    assertThat(all(db.table("PeopleHistory"), Query.all())).hasSize(1);
  }

  @Test
  void historyOfABatchSharingAPartitionHasOneEntryPerOperationWithUniqueIds() {
    create(ViewDefinition.history("ByTenant", "People").withPartitionBy("{partitionKey}"));
    people.insert(item("acme", "old", "age", 1));
    var result =
        db.commit(
            Batch.builder()
                .insert("People", item("acme", "ann", "age", 30))
                .insert("People", item("acme", "bo", "age", 40))
                .upsert("People", item("acme", "old", "age", 2))
                .build());
    assertThat(result.items()).hasSize(3);
    List<Item> entries = all(db.table("ByTenant"), Query.partition("acme"));
    assertThat(entries).hasSize(4);
    long batchVersion = version(result.items().get(0));
    List<Item> ofBatch =
        entries.stream()
            .filter(e -> e.id().startsWith(ViewDefinition.historyId(batchVersion)))
            .toList();
    assertThat(ofBatch).hasSize(3);
    assertThat(ofBatch.stream().map(Item::sourceId)).containsExactlyInAnyOrder("ann", "bo", "old");
    assertThat(entries.stream().map(Item::id).distinct()).hasSize(4);
  }

  @Test
  void historyAppliesWhereAndSelectAndWritesATombstoneWhereAnItemLeaves() {
    create(
        ViewDefinition.history("ByCity", "People")
            .withPartitionBy("{city}")
            .withWhere("active eq true")
            .withSelect(List.of("name")));
    people.insert(
        Item.builder("p", "1").put("city", "Oslo").put("name", "Ann").put("active", true).build());
    people.merge(Item.builder("p", "1").put("city", "Rome").build(), null);
    people.merge(Item.builder("p", "1").put("active", false).build(), null);
    people.insert(Item.builder("p", "2").put("city", "Oslo").put("active", false).build());

    List<Item> oslo = all(db.table("ByCity"), Query.partition("Oslo"));
    assertThat(oslo).hasSize(2);
    assertThat(oslo.get(0).properties())
        .isEqualTo(Map.of("name", Value.of("Ann"), "_operation", Value.of("insert")));
    assertThat(deleted(oslo.get(1))).isTrue();
    assertThat(operation(oslo.get(1))).isEqualTo("merge");
    List<Item> rome = all(db.table("ByCity"), Query.partition("Rome"));
    assertThat(rome).hasSize(2);
    assertThat(deleted(rome.get(0))).isFalse();
    assertThat(deleted(rome.get(1))).isTrue();
    assertThat(db.verifyView("ByCity", false).drift()).isZero();
  }

  @Test
  void historyTimeRangeIsAnIdRange() throws InterruptedException {
    create(ViewDefinition.history("PeopleHistory", "People"));
    people.upsert(item("p", "1", "n", 1));
    Thread.sleep(5);
    Instant from = Instant.now();
    Thread.sleep(5);
    Item second = people.upsert(item("p", "1", "n", 2));
    Item third = people.upsert(item("p", "1", "n", 3));
    Thread.sleep(5);
    Instant to = Instant.now();
    Thread.sleep(5);
    people.upsert(item("p", "1", "n", 4));
    List<Item> between =
        all(
            db.table("PeopleHistory"),
            Query.partition("p#1")
                .withRange(ViewDefinition.historyId(from), ViewDefinition.historyId(to)));
    assertThat(between.stream().map(Item::timestamp))
        .containsExactly(second.timestamp(), third.timestamp());
    List<Item> newestFirst =
        all(db.table("PeopleHistory"), Query.partition("p#1").descending(true).withLimit(1));
    assertThat(newestFirst.get(0).properties()).containsEntry("n", Value.of(4));
  }

  @Test
  void historyBackfillWritesOneEntryPerItemAtItsVersionAndVerifies() {
    Item ann = people.insert(item("acme", "ann", "age", 30));
    people.insert(item("acme", "bo", "age", 40));
    people.delete("acme", "bo", null);
    Item cy = people.insert(item("zeta", "cy", "age", 50));
    create(ViewDefinition.history("PeopleHistory", "People"));
    List<Item> entries = all(db.table("PeopleHistory"), Query.all());
    assertThat(entries).hasSize(2);
    assertThat(entries.stream().map(ViewKindsContract::operation)).containsOnly("backfill");
    assertThat(entries.stream().map(Item::timestamp))
        .containsExactlyInAnyOrder(ann.timestamp(), cy.timestamp());
    VerifyReport report = db.verifyView("PeopleHistory", false);
    assertThat(report.drift()).isZero();
    assertThat(report.checked()).isEqualTo(2);
  }

  @Test
  void historyVerifyFindsAndRepairsAMissingEntryAndADanglingOne() throws Exception {
    create(ViewDefinition.history("PeopleHistory", "People"));
    Item ann = people.insert(item("acme", "ann", "age", 30));
    people.insert(item("acme", "bo", "age", 40));
    EmbeddedDatabase engine = (EmbeddedDatabase) db;
    int viewId = engine.catalog().require("PeopleHistory").id();
    int sourceId = engine.catalog().require("People").id();
    // drift: ann's entry lost, bo deleted from the source behind the view's back
    engine
        .store()
        .commit(
            List.of(
                new Mutation.Delete(
                    KeyLayout.partition(viewId, "acme#ann"),
                    KeyLayout.sortKey(ViewSpec.historyId(version(ann), "acme", "ann")),
                    Condition.NONE),
                new Mutation.Delete(
                    KeyLayout.partition(sourceId, "acme"),
                    KeyLayout.sortKey("bo"),
                    Condition.NONE)));
    VerifyReport report = db.verifyView("PeopleHistory", true);
    assertThat(report.missing()).isEqualTo(1);
    assertThat(report.extra()).isEqualTo(1);
    assertThat(db.verifyView("PeopleHistory", false).drift()).isZero();
    List<Item> bo = all(db.table("PeopleHistory"), Query.partition("acme#bo"));
    assertThat(bo).hasSize(2);
    assertThat(deleted(bo.get(1))).isTrue();
    assertThat(operation(bo.get(1))).isEqualTo("repair");
  }

  @Test
  void historyRetentionByVersionsKeepsTheNewestPerPartition() {
    create(
        ViewDefinition.history("Recent", "People")
            .withRetention(ViewDefinition.Retention.versions(2)));
    for (int i = 0; i < 5; i++) {
      people.upsert(item("p", "1", "n", i));
    }
    people.upsert(item("p", "2", "n", 0));
    assertThat(all(db.table("Recent"), Query.partition("p#1"))).hasSize(5);
    assertThat(((EmbeddedDatabase) db).trimHistories()).isEqualTo(3);
    List<Item> kept = all(db.table("Recent"), Query.partition("p#1"));
    assertThat(kept.stream().map(e -> e.properties().get("n")))
        .containsExactly(Value.of(3), Value.of(4));
    assertThat(all(db.table("Recent"), Query.partition("p#2"))).hasSize(1);
    assertThat(db.verifyView("Recent", false).drift()).isZero();
  }

  @Test
  void historyRetentionByAgeRemovesOlderEntries() throws InterruptedException {
    create(
        ViewDefinition.history("Recent", "People")
            .withRetention(ViewDefinition.Retention.age(Duration.ofSeconds(1))));
    people.upsert(item("p", "1", "n", 1));
    people.upsert(item("p", "2", "n", 1));
    Thread.sleep(1200);
    people.upsert(item("p", "1", "n", 2));
    assertThat(((EmbeddedDatabase) db).trimHistories()).isEqualTo(2);
    assertThat(all(db.table("Recent"), Query.all()).stream().map(e -> e.properties().get("n")))
        .containsExactly(Value.of(2));
    assertThat(db.verifyView("Recent", false).drift()).isZero(); // p/2's entry is past retention
  }

  // ---- partitions ----

  @Test
  void partitionsCountsInsertsAndDeletesAndTheEntryGoesWithTheLastItem() {
    create(ViewDefinition.partitions("PeoplePartitions", "People"));
    Table partitions = db.table("PeoplePartitions");
    people.insert(item("acme", "ann"));
    people.insert(item("acme", "bo"));
    people.upsert(item("acme", "bo", "age", 3)); // not a new member
    people.merge(item("acme", "bo", "age", 4), null);
    people.insert(item("zeta", "cy"));
    assertThat(count(partitions, "all", "acme")).isEqualTo(2);
    assertThat(count(partitions, "all", "zeta")).isEqualTo(1);
    people.delete("acme", "ann", null);
    assertThat(count(partitions, "all", "acme")).isEqualTo(1);
    people.delete("acme", "bo", null);
    assertThat(partitions.get("all", "acme")).isEmpty();
    Item zeta = partitions.get("all", "zeta").orElseThrow();
    assertThat(zeta.sourcePartitionKey()).isEqualTo("zeta");
    assertThat(zeta.properties()).containsOnlyKeys("count");
    assertThat(db.verifyView("PeoplePartitions", false).drift()).isZero();
  }

  static long count(Table partitions, String pk, String id) {
    return ((Value.Int64) partitions.get(pk, id).orElseThrow().properties().get("count")).value();
  }

  @Test
  void partitionsBatchCountsEachOperationOnTheEarlierOnes() {
    create(ViewDefinition.partitions("PeoplePartitions", "People"));
    Table partitions = db.table("PeoplePartitions");
    db.commit(
        Batch.builder()
            .insert("People", item("acme", "ann"))
            .insert("People", item("acme", "bo"))
            .insert("People", item("zeta", "cy"))
            .build());
    assertThat(count(partitions, "all", "acme")).isEqualTo(2);
    db.commit(
        Batch.builder()
            .delete("People", "acme", "ann", null)
            .insert("People", item("acme", "dee"))
            .delete("People", "zeta", "cy", null)
            .build());
    assertThat(count(partitions, "all", "acme")).isEqualTo(2);
    assertThat(partitions.get("all", "zeta")).isEmpty();
    assertThat(db.verifyView("PeoplePartitions", false).drift()).isZero();
  }

  @Test
  void partitionsWithWhereCountMatchingItemsAndFollowMerges() {
    create(
        ViewDefinition.partitions("Active", "People")
            .withWhere("active eq true")
            .withPartitionBy("tenants"));
    Table active = db.table("Active");
    people.insert(Item.builder("acme", "ann").put("active", true).build());
    people.insert(Item.builder("acme", "bo").put("active", false).build());
    assertThat(count(active, "tenants", "acme")).isEqualTo(1);
    people.merge(Item.builder("acme", "bo").put("active", true).build(), null);
    assertThat(count(active, "tenants", "acme")).isEqualTo(2);
    people.merge(Item.builder("acme", "ann").put("active", false).build(), null);
    people.merge(Item.builder("acme", "bo").put("active", false).build(), null);
    assertThat(active.get("tenants", "acme")).isEmpty();
    assertThat(db.verifyView("Active", false).drift()).isZero();
  }

  @Test
  void partitionsBackfillCountsAndVerifyRepairsDrift() throws Exception {
    for (int p = 0; p < 5; p++) {
      for (int i = 0; i <= p * 300; i++) { // partitions across backfill chunks
        people.insert(item("p" + p, "i" + i));
      }
    }
    create(ViewDefinition.partitions("Counts", "People"));
    Table counts = db.table("Counts");
    for (int p = 0; p < 5; p++) {
      assertThat(count(counts, "all", "p" + p)).isEqualTo(p * 300 + 1);
      assertThat(counts.get("all", "p" + p).orElseThrow().properties()).containsOnlyKeys("count");
    }
    assertThat(db.verifyView("Counts", false).drift()).isZero();

    EmbeddedDatabase engine = (EmbeddedDatabase) db;
    int viewId = engine.catalog().require("Counts").id();
    engine
        .store()
        .commit(
            List.of(
                new Mutation.Delete(
                    KeyLayout.partition(viewId, "all"), KeyLayout.sortKey("p1"), Condition.NONE),
                new Mutation.Put(
                    KeyLayout.partition(viewId, "all"),
                    KeyLayout.sortKey("p2"),
                    1,
                    ViewMaintainer.Counted.encode("p2", 7, ViewMaintainer.Counted.COMPLETE),
                    Condition.NONE),
                new Mutation.Put(
                    KeyLayout.partition(viewId, "all"),
                    KeyLayout.sortKey("nobody"),
                    1,
                    ViewMaintainer.Counted.encode("nobody", 7, ViewMaintainer.Counted.COMPLETE),
                    Condition.NONE)));
    VerifyReport report = db.verifyView("Counts", true);
    assertThat(report.missing()).isEqualTo(1);
    assertThat(report.different()).isEqualTo(1);
    assertThat(report.extra()).isEqualTo(1);
    assertThat(db.verifyView("Counts", false).drift()).isZero();
    assertThat(count(counts, "all", "p2")).isEqualTo(601);
  }

  @Test
  void partitionsByAPartitionKeyTemplate() {
    create(
        ViewDefinition.partitions("Sharded", "People").withPartitionBy("s#{partitionKey|upper}"));
    people.insert(item("acme", "ann"));
    assertThat(count(db.table("Sharded"), "s#ACME", "acme")).isEqualTo(1);
  }

  // ---- both ----

  @Test
  void definitionsThatDoNotFitTheKindAreRefused() {
    assertCode(
        () ->
            db.createView(
                ViewDefinition.history("BadHistory1", "People")
                    .withRetention(new ViewDefinition.Retention(-1, null))),
        ErrorCode.InvalidView);
    assertCode(
        () ->
            db.createView(
                new ViewDefinition(
                    "BadHistory2",
                    "People",
                    null,
                    "{id}",
                    null,
                    List.of(),
                    ViewDefinition.Kind.HISTORY,
                    null)),
        ErrorCode.InvalidView);
    assertCode(
        () ->
            db.createView(
                ViewDefinition.partitions("BadParts1", "People").withSelect(List.of("a"))),
        ErrorCode.InvalidView);
    assertCode(
        () ->
            db.createView(
                ViewDefinition.partitions("BadParts2", "People").withPartitionBy("{city}")),
        ErrorCode.InvalidView);
    assertCode(
        () ->
            db.createView(ViewDefinition.partitions("BadParts3", "People").withPartitionBy("{id}")),
        ErrorCode.InvalidView);
    assertCode(
        () ->
            db.createView(
                ViewDefinition.of("BadCopy1", "People", null, null)
                    .withRetention(ViewDefinition.Retention.versions(3))),
        ErrorCode.InvalidView);
  }

  @Test
  void statusAndDefinitionsCarryTheKindAndKindedViewsAreReadOnly() {
    ViewDefinition history =
        ViewDefinition.history("PeopleHistory", "People")
            .withRetention(new ViewDefinition.Retention(10, Duration.ofDays(7)));
    assertThat(create(history).definition()).isEqualTo(history);
    assertThat(create(ViewDefinition.partitions("Counts", "People")).definition().kind())
        .isEqualTo(ViewDefinition.Kind.PARTITIONS);
    assertThat(db.viewStatus("PeopleHistory").definition().retention().maxAge())
        .isEqualTo(Duration.ofDays(7));
    assertCode(() -> db.table("Counts").insert(item("all", "x")), ErrorCode.ViewIsReadOnly);
    assertCode(() -> db.table("PeopleHistory").upsert(item("a", "x")), ErrorCode.ViewIsReadOnly);
  }

  @Test
  void thePlannerNeverAnswersASourceQueryFromAHistoryOrPartitionsView() {
    create(ViewDefinition.history("ByEmail", "People").withPartitionBy("{email}"));
    create(ViewDefinition.partitions("Counts", "People").withPartitionBy("{partitionKey}"));
    people.insert(Item.builder("p", "1").put("email", "a@x").build());
    people.merge(Item.builder("p", "1").put("name", "Ann").build(), null);
    Query query = Query.all().withFilter("email eq 'a@x'");
    QueryPlan plan = people.explain(query);
    assertThat(plan.kind()).isNotEqualTo(QueryPlan.VIEW_LOOKUP);
    assertThat(people.query(query).items()).hasSize(1);
    assertThat(
            people.explain(Query.all().withFilter("PartitionKey eq 'p' and email eq 'a@x'")).kind())
        .isNotEqualTo(QueryPlan.VIEW_LOOKUP);
    // a copy view with the same key is used, so the history view was the one refused
    create(ViewDefinition.of("Copy", "People", "{email}", "{id}"));
    assertThat(people.explain(query).kind()).isEqualTo(QueryPlan.VIEW_LOOKUP);
    assertThat(people.explain(query).source()).isEqualTo("Copy");
  }
}
