package io.viewbase.core;

import static io.viewbase.core.DatabaseContract.assertCode;
import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Query;
import io.viewbase.api.Table;
import io.viewbase.api.TableInfo;
import io.viewbase.api.Value;
import io.viewbase.api.VerifyReport;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Views on the embedded engine, run against each storage backend by a one-method subclass. */
abstract class ViewContract {
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

  static ViewStatus awaitBuilt(Database db, String view) {
    long deadline = System.nanoTime() + 600_000_000_000L;
    while (System.nanoTime() < deadline) {
      ViewStatus status = db.viewStatus(view);
      if (!status.state().equals(ViewStatus.BUILDING)) {
        return status;
      }
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }
    throw new AssertionError("view " + view + " still building after 600 s");
  }

  private Item person(String email, String name) {
    return Item.builder("people", UUID.randomUUID().toString())
        .put("email", email)
        .put("name", name)
        .build();
  }

  @Test
  void gyxiExampleFetchByEmailMovesOnChangeAndRefusesDuplicates() {
    db.createView(ViewDefinition.of("PeopleByEmail", "People", "all", "{email}"));
    assertThat(awaitBuilt(db, "PeopleByEmail").state()).isEqualTo(ViewStatus.READY);
    Item ann = people.insert(person("ann@example.com", "Ann"));
    Table byEmail = db.table("PeopleByEmail");

    Item found = byEmail.get("all", "ann@example.com").orElseThrow();
    assertThat(found.sourceId()).isEqualTo(ann.id());
    assertThat(found.sourcePartitionKey()).isEqualTo("people");
    assertThat(found.properties()).containsEntry("name", Value.of("Ann"));

    people.merge(Item.builder("people", ann.id()).put("email", "ann@new.example").build(), null);
    assertThat(byEmail.get("all", "ann@example.com")).isEmpty();
    assertThat(byEmail.get("all", "ann@new.example").orElseThrow().sourceId()).isEqualTo(ann.id());

    Item bo = person("ann@new.example", "Bo");
    assertCode(() -> people.insert(bo), ErrorCode.ViewKeyConflict);
    assertThat(people.get("people", bo.id())).isEmpty();
    assertThat(people.query(Query.partition("people")).items()).hasSize(1);
  }

  @Test
  void asyncWritesKeepViewsExactAndAViewRefusesThem() {
    db.createView(ViewDefinition.of("PeopleByEmail", "People", "all", "{email}"));
    awaitBuilt(db, "PeopleByEmail");
    Table byEmail = db.table("PeopleByEmail");
    Item ann = DatabaseContract.await(people.insertAsync(person("ann@example.com", "Ann")));
    DatabaseContract.await(
        people.mergeAsync(
            Item.builder("people", ann.id()).put("email", "ann@new.example").build(), ann.etag()));

    assertThat(byEmail.get("all", "ann@example.com")).isEmpty();
    assertThat(byEmail.get("all", "ann@new.example").orElseThrow().sourceId()).isEqualTo(ann.id());
    Item bo = person("ann@new.example", "Bo");
    assertCode(() -> DatabaseContract.await(people.insertAsync(bo)), ErrorCode.ViewKeyConflict);
    assertCode(
        () -> DatabaseContract.await(byEmail.upsertAsync(Item.builder("all", "x").build())),
        ErrorCode.ViewIsReadOnly);
    DatabaseContract.await(people.deleteAsync("people", ann.id(), null));
    assertThat(byEmail.get("all", "ann@new.example")).isEmpty();
    assertThat(people.get("people", bo.id())).isEmpty();
  }

  @Test
  void designGuideEmployeesByDepartmentWithTwoViewsAndPrefixQueries() {
    db.createTable("Employees");
    Table employees = db.table("Employees");
    db.createView(
        ViewDefinition.of("EmployeesById", "Employees", "{department}", "empid_{employeeId:06}"));
    db.createView(
        ViewDefinition.of("EmployeesByEmail", "Employees", "{department}", "email_{email|lower}"));
    for (int i = 1; i <= 30; i++) {
      employees.insert(
          Item.builder("corp", "e" + i)
              .put("department", i % 2 == 0 ? "Sales" : "Dev")
              .put("employeeId", i)
              .put("email", "Person" + i + "@Corp.com")
              .build());
    }
    awaitBuilt(db, "EmployeesById");
    awaitBuilt(db, "EmployeesByEmail");
    Table byId = db.table("EmployeesById");
    assertThat(byId.get("Sales", "empid_000012").orElseThrow().sourceId()).isEqualTo("e12");
    assertThat(
            byId.query(Query.partition("Sales").withRange("empid_000010", "empid_000020")).items())
        .extracting(Item::sourceId)
        .containsExactly("e10", "e12", "e14", "e16", "e18");
    assertThat(
            db.table("EmployeesByEmail")
                .query(Query.partition("Dev").withPrefix("email_person1"))
                .items())
        .extracting(Item::id)
        .containsExactly(
            "email_person11@corp.com",
            "email_person13@corp.com",
            "email_person15@corp.com",
            "email_person17@corp.com",
            "email_person19@corp.com",
            "email_person1@corp.com"); // '@' sorts after digits
  }

  @Test
  void anEmptyRenderedKeyIsAViewKeySoQueriesAnsweredFromTheViewMissNothing() {
    // Keys may be empty: a source item with an empty id, or an empty key property, is in the view
    // under that key; only a missing property keeps an item out.
    db.createView(ViewDefinition.of("PeopleByGroup", "People", "{group}", "{id}"));
    awaitBuilt(db, "PeopleByGroup");
    people.insert(Item.builder("p", "").put("group", "g").build());
    people.insert(Item.builder("p", "a").put("group", "g").build());
    people.insert(Item.builder("q", "b").put("group", "").build());
    people.insert(Item.builder("q", "c").build());
    Table view = db.table("PeopleByGroup");

    assertThat(view.query(Query.partition("g")).items())
        .extracting(Item::id)
        .containsExactly("", "a");
    assertThat(view.get("", "b").orElseThrow().sourceId()).isEqualTo("b");
    assertThat(people.explain(Query.all().withFilter("group eq 'g'")).kind())
        .isEqualTo("viewLookup");
    assertThat(people.query(Query.all().withFilter("group eq 'g'")).items())
        .extracting(Item::id)
        .containsExactly("", "a");
    assertThat(people.query(Query.all().withFilter("group eq ''")).items())
        .extracting(Item::id)
        .containsExactly("b");
    assertCode(
        () -> people.insert(Item.builder("r", "b").put("group", "").build()),
        ErrorCode.ViewKeyConflict);
  }

  @Test
  void aViewKeyedByKeyTransformsReadsNumbersOfEveryTypeInNumericOrder() {
    Object[] values = {
      new BigDecimal("12.5"),
      -3,
      7L,
      0.5,
      1e20,
      new BigDecimal("-0.001"),
      100,
      -1e-5,
      new BigDecimal("12345678901234567890123456789012345678"),
      Long.MIN_VALUE,
      2.0,
      2L,
      0,
      -0.0,
      Double.NaN,
      "not a number",
      true
    };
    for (int i = 0; i < values.length; i++) {
      people.insert(Item.builder("p", "i" + i).put("n", toValue(values[i])).build());
    }
    people.insert(Item.builder("p", "without").build());
    db.createView(
        ViewDefinition.of("PeopleByN", "People", "{partitionKey|key}", "{n|key}{id|key}"));
    assertThat(awaitBuilt(db, "PeopleByN").state()).isEqualTo(ViewStatus.READY);
    people.insert(Item.builder("p", "late").put("n", new BigDecimal("2.00")).build());

    List<String> ids =
        db.table("PeopleByN").query(Query.partition("p ")).items().stream()
            .map(Item::sourceId)
            .toList();

    // the strings after every number; NaN, booleans and a missing n leave the item out; ties
    // (2.0, 2L, 2.00 as a decimal; 0 and -0.0) in id order
    assertThat(ids)
        .containsExactly(
            "i9", "i1", "i5", "i7", "i12", "i13", "i3", "i10", "i11", "late", "i2", "i0", "i6",
            "i4", "i8", "i15");
    assertThat(db.verifyView("PeopleByN", false).drift()).isZero();
  }

  private static Value toValue(Object o) {
    if (o instanceof BigDecimal d) {
      return Value.of(d);
    } else if (o instanceof Integer i) {
      return Value.of(i);
    } else if (o instanceof Long l) {
      return Value.of(l);
    } else if (o instanceof Double d) {
      return Value.of(d);
    } else if (o instanceof Boolean b) {
      return Value.of(b);
    }
    return Value.of((String) o);
  }

  @Test
  void sparseViewHoldsOnlyItemsWithTheKeyPropertyAndMatchingWhere() {
    db.createView(
        ViewDefinition.of("ActiveByEmail", "People", "all", "{email}")
            .withWhere("active eq true")
            .withSelect(List.of("email")));
    people.insert(
        Item.builder("p", "1").put("email", "a@x").put("active", true).put("name", "A").build());
    people.insert(Item.builder("p", "2").put("email", "b@x").put("active", false).build());
    people.insert(Item.builder("p", "3").put("active", true).build());
    awaitBuilt(db, "ActiveByEmail");
    Table view = db.table("ActiveByEmail");
    List<Item> items = view.query(Query.partition("all")).items();
    assertThat(items).extracting(Item::id).containsExactly("a@x");
    assertThat(items.get(0).properties()).containsOnlyKeys("email");
    people.merge(Item.builder("p", "1").put("active", false).build(), null);
    assertThat(view.query(Query.partition("all")).items()).isEmpty();
    people.merge(Item.builder("p", "2").put("active", true).build(), null);
    assertThat(view.query(Query.partition("all")).items())
        .extracting(Item::id)
        .containsExactly("b@x");
    people.delete("p", "2", null);
    assertThat(view.query(Query.all()).items()).isEmpty();
  }

  @Test
  void anUpdateKeepingTheKeyRewritesTheViewItem() {
    db.createView(ViewDefinition.of("ByEmail", "People", "all", "{email}"));
    awaitBuilt(db, "ByEmail");
    people.insert(Item.builder("p", "1").put("email", "a@x").put("n", 1).build());
    Item updated = people.merge(Item.builder("p", "1").put("n", 2).build(), null);
    Item viewItem = db.table("ByEmail").get("all", "a@x").orElseThrow();
    assertThat(viewItem.properties()).containsEntry("n", Value.of(2));
    assertThat(viewItem.etag()).isEqualTo(updated.etag());
  }

  @Test
  void viewsAreReadOnlyAndListedWithTheirSource() {
    db.createView(ViewDefinition.of("ByEmail", "People", "all", "{email}"));
    awaitBuilt(db, "ByEmail");
    assertCode(
        () -> db.table("ByEmail").insert(Item.builder("all", "x").build()),
        ErrorCode.ViewIsReadOnly);
    assertCode(() -> db.table("ByEmail").delete("all", "x", null), ErrorCode.ViewIsReadOnly);
    assertThat(db.listTables())
        .contains(
            new TableInfo(
                "ByEmail", "view", "People", "ready", db.viewStatus("ByEmail").created()));
  }

  @Test
  void invalidDefinitionsAreRejectedWithClearErrors() {
    assertCode(
        () -> db.createView(ViewDefinition.of("V1x", "Nope", null, "{email}")),
        ErrorCode.TableNotFound);
    assertCode(
        () -> db.createView(ViewDefinition.of("People", "People", null, "{email}")),
        ErrorCode.TableAlreadyExists);
    assertCode(
        () -> db.createView(ViewDefinition.of("Bad", "People", null, "{email")),
        ErrorCode.InvalidView);
    assertCode(
        () -> db.createView(ViewDefinition.of("Bad", "People", null, "{age:x}")),
        ErrorCode.InvalidView);
    assertCode(
        () -> db.createView(ViewDefinition.of("Bad", "People", null, "{email|title}")),
        ErrorCode.InvalidView);
    assertCode(
        () -> db.createView(ViewDefinition.of("Bad", "People", null, "{}")), ErrorCode.InvalidView);
    assertCode(
        () -> db.createView(ViewDefinition.of("Bad", "People", null, "{a}").withWhere("a eq")),
        ErrorCode.InvalidView);
    assertCode(
        () ->
            db.createView(
                ViewDefinition.of("Bad", "People", null, "{a}").withSelect(List.of("_etag"))),
        ErrorCode.InvalidView);
    assertCode(
        () -> db.createView(ViewDefinition.of("b!", "People", null, "{a}")),
        ErrorCode.InvalidTableName);
    assertThat(db.listTables()).extracting(TableInfo::name).containsExactly("People");
  }

  @Test
  void backfillOfExistingItemsEndsReadyAndVerifiesClean() {
    for (int i = 0; i < 2000; i++) {
      people.insert(Item.builder("p" + (i % 7), "id" + i).put("email", "u" + i + "@x").build());
    }
    ViewStatus created = db.createView(ViewDefinition.of("ByEmail", "People", "all", "{email}"));
    assertThat(created.state()).isIn(ViewStatus.BUILDING, ViewStatus.READY);
    ViewStatus built = awaitBuilt(db, "ByEmail");
    assertThat(built.state()).isEqualTo(ViewStatus.READY);
    assertThat(built.progress().done()).isEqualTo(2000);
    assertThat(db.table("ByEmail").get("all", "u1234@x").orElseThrow().sourceId())
        .isEqualTo("id1234");
    VerifyReport report = db.verifyView("ByEmail", false);
    assertThat(report.drift()).isZero();
    assertThat(report.checked()).isEqualTo(2000);
  }

  @Test
  void backfillOverDuplicateKeysFailsNamingTheConflict() {
    people.insert(Item.builder("p", "1").put("email", "same@x").build());
    people.insert(Item.builder("p", "2").put("email", "same@x").build());
    db.createView(ViewDefinition.of("ByEmail", "People", "all", "{email}"));
    ViewStatus status = awaitBuilt(db, "ByEmail");
    assertThat(status.state()).isEqualTo(ViewStatus.FAILED);
    assertThat(status.conflicts())
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.viewId()).isEqualTo("same@x");
              assertThat(List.of(c.sourceId(), c.otherSourceId()))
                  .containsExactlyInAnyOrder("1", "2");
            });
    assertCode(() -> db.table("ByEmail").get("all", "same@x"), ErrorCode.ViewNotReady);
    people.insert(
        Item.builder("p", "3").put("email", "same@x").build()); // a failed view is not maintained
    db.dropView("ByEmail");
    assertCode(() -> db.viewStatus("ByEmail"), ErrorCode.TableNotFound);
  }

  @Test
  void dropViewRemovesItsDataAndARecreatedViewStartsFresh() {
    db.createView(ViewDefinition.of("ByEmail", "People", "all", "{email}"));
    awaitBuilt(db, "ByEmail");
    people.insert(Item.builder("p", "1").put("email", "a@x").build());
    db.dropView("ByEmail");
    people.insert(Item.builder("p", "2").put("email", "a@x").build()); // no longer unique
    assertCode(() -> db.table("ByEmail"), ErrorCode.TableNotFound);
    db.createView(ViewDefinition.of("ByEmail", "People", "all", "{email}|{id}"));
    awaitBuilt(db, "ByEmail");
    assertThat(db.table("ByEmail").query(Query.partition("all")).items())
        .extracting(Item::id)
        .containsExactly("a@x|1", "a@x|2");
  }

  @Test
  void droppingTheSourceDropsItsViews() {
    db.createView(ViewDefinition.of("ByEmail", "People", "all", "{email}"));
    awaitBuilt(db, "ByEmail");
    db.dropTable("People");
    assertThat(db.listTables()).isEmpty();
  }

  @Test
  void verifyFindsAndRepairsDrift() {
    db.createView(ViewDefinition.of("ByEmail", "People", "all", "{email}"));
    awaitBuilt(db, "ByEmail");
    for (int i = 0; i < 10; i++) {
      people.insert(Item.builder("p", "id" + i).put("email", "u" + i + "@x").put("n", i).build());
    }
    EmbeddedDatabase engine = (EmbeddedDatabase) db;
    TableEntry view = ((EmbeddedDatabase) db).catalogForTests().require("ByEmail");
    TableEntry source = ((EmbeddedDatabase) db).catalogForTests().require("People");
    try {
      engine
          .store()
          .commit(
              List.of(
                  io.viewbase.storage.spi.Mutation.delete(
                      KeyLayout.partition(view.id(), "all"), KeyLayout.sortKey("u1@x")),
                  io.viewbase.storage.spi.Mutation.put(
                      KeyLayout.partition(view.id(), "all"),
                      KeyLayout.sortKey("ghost"),
                      1,
                      ItemCodec.encodeView("p", "nobody", java.util.Map.of())),
                  io.viewbase.storage.spi.Mutation.put(
                      KeyLayout.partition(source.id(), "p"),
                      KeyLayout.sortKey("id2"),
                      1,
                      ItemCodec.encode(
                          java.util.Map.of("email", Value.of("u2@x"), "n", Value.of(99))))));
    } catch (io.viewbase.storage.spi.ConditionFailedException e) {
      throw new AssertionError(e);
    }
    VerifyReport report = db.verifyView("ByEmail", false);
    assertThat(report.missing()).isEqualTo(1);
    assertThat(report.extra()).isEqualTo(1);
    assertThat(report.different()).isEqualTo(1);
    assertThat(db.verifyView("ByEmail", true).drift()).isEqualTo(3);
    assertThat(db.verifyView("ByEmail", false).drift()).isZero();
    assertThat(db.table("ByEmail").get("all", "u2@x").orElseThrow().properties())
        .containsEntry("n", Value.of(99));
  }
}
