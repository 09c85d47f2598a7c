package io.viewbase.core;

import static io.viewbase.core.DatabaseContract.assertCode;
import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.ItemCursor;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Page;
import io.viewbase.api.Query;
import io.viewbase.api.QueryPlan;
import io.viewbase.api.Table;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.Viewbase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The plans the planner chooses, and that each answers exactly what the filter says. */
class QueryPlannerTest {
  @TempDir Path dir;

  Database db;
  Table people;

  @BeforeEach
  void setUp() {
    db = Viewbase.open(OpenOptions.at(dir).withSync(false));
    db.createTable("People");
    people = db.table("People");
    for (int i = 0; i < 300; i++) {
      people.insert(
          Item.builder("p" + (i % 3), String.format("id%03d", i))
              .put("email", "u" + i + "@x")
              .put("age", i % 50)
              .put("city", i % 2 == 0 ? "Oslo" : "Rome")
              .build());
    }
  }

  @AfterEach
  void tearDown() {
    db.close();
  }

  private List<String> all(Query query) {
    List<String> ids = new ArrayList<>();
    try (ItemCursor cursor = people.cursor(query)) {
      cursor.forEachRemaining(i -> ids.add(i.partitionKey() + "/" + i.id()));
    }
    return ids;
  }

  @Test
  void explainShowsAKeyRangeForKeyConditions() {
    QueryPlan plan =
        people.explain(
            Query.all()
                .withFilter("PartitionKey eq 'p1' and RowKey ge 'id010' and RowKey lt 'id020'"));
    assertThat(plan.kind()).isEqualTo(QueryPlan.KEY_RANGE);
    assertThat(plan.description()).contains("partition 'p1'").contains("['id010', 'id020')");
    assertThat(
            all(
                Query.all()
                    .withFilter(
                        "PartitionKey eq 'p1' and RowKey ge 'id010' and RowKey lt 'id020'")))
        .containsExactly("p1/id010", "p1/id013", "p1/id016", "p1/id019");
  }

  @Test
  void explainShowsPointReadsForAnOrOfExactKeys() {
    String filter =
        "(PartitionKey eq 'p0' and RowKey eq 'id003') or (PartitionKey eq 'p2' and RowKey eq 'id005')"
            + " or (PartitionKey eq 'p0' and RowKey eq 'id999')";
    assertThat(people.explain(Query.all().withFilter(filter)).kind())
        .isEqualTo(QueryPlan.POINT_READ);
    assertThat(all(Query.all().withFilter(filter))).containsExactly("p0/id003", "p2/id005");
  }

  @Test
  void explainShowsAViewLookupForAViewKeyEquality() {
    db.createView(ViewDefinition.of("ByEmail", "People", "all", "{email}"));
    ViewContract.awaitBuilt(db, "ByEmail");
    QueryPlan plan = people.explain(Query.all().withFilter("email eq 'u42@x'"));
    assertThat(plan.kind()).isEqualTo(QueryPlan.VIEW_LOOKUP);
    assertThat(plan.source()).isEqualTo("ByEmail");
    assertThat(all(Query.all().withFilter("email eq 'u42@x'"))).containsExactly("p0/id042");
    assertThat(all(Query.all().withFilter("email eq 'u42@x' and age eq 3"))).isEmpty();
    assertThat(people.explain(Query.all().withFilter("age eq 42")).kind())
        .isEqualTo(QueryPlan.SCAN);
  }

  @Test
  void viewPrefixLookupAnswersEqualityOnTheLeadingPartOfTheKey() {
    db.createView(
        ViewDefinition.of("ByCity", "People", "{city}", "{partitionKey}#{id}")
            .withSelect(List.of("age", "city")));
    ViewContract.awaitBuilt(db, "ByCity");
    Query q = Query.all().withFilter("city eq 'Rome' and age eq 7");
    // the view is read for the whole partition 'Rome' (its ids are identity only) and age is
    // filtered
    assertThat(people.explain(q).kind()).isEqualTo(QueryPlan.VIEW_LOOKUP);
    assertThat(people.explain(q).description()).startsWith("all ids in partition 'Rome'");
    assertThat(all(q))
        .containsExactlyInAnyOrder(
            "p1/id007", "p0/id057", "p2/id107", "p1/id157", "p0/id207", "p2/id257");
    Query byCity = Query.all().withFilter("city eq 'Rome'");
    QueryPlan plan = people.explain(byCity);
    assertThat(plan.kind()).isEqualTo(QueryPlan.VIEW_LOOKUP);
    assertThat(all(byCity)).hasSize(150);
    assertThat(all(byCity.withSelect(List.of("age")))).hasSize(150);
    assertThat(people.explain(byCity.withSelect(List.of("age"))).description())
        .contains("view's copy");
  }

  @Test
  void aViewIsNotUsedWhenItemsMatchingTheFilterMayBeMissingFromIt() {
    people.insert(Item.builder("p9", "noAge").put("city", "Rome").put("email", "x@y").build());
    db.createView(ViewDefinition.of("ByCityAge", "People", "{city}", "{age:03}#{id}"));
    ViewContract.awaitBuilt(db, "ByCityAge");
    Query q = Query.all().withFilter("city eq 'Rome'");
    assertThat(people.explain(q).kind()).isEqualTo(QueryPlan.SCAN);
    assertThat(all(q)).contains("p9/noAge").hasSize(151);
  }

  @Test
  void aFilterThatCanNeverHoldReadsNothing() {
    Query q = Query.all().withFilter("PartitionKey eq 'p0' and PartitionKey eq 'p1'");
    assertThat(people.explain(q).kind()).isEqualTo(QueryPlan.EMPTY);
    assertThat(people.query(q).items()).isEmpty();
  }

  @Test
  void filteredScansPageAcrossPartitionsWithoutDuplicates() {
    Query q = Query.all().withFilter("city eq 'Oslo' and age lt 10").withLimit(7);
    List<String> ids = all(q);
    assertThat(ids).hasSize(30).doesNotHaveDuplicates();
    assertThat(people.explain(q).kind()).isEqualTo(QueryPlan.SCAN);
  }

  @Test
  void partitionQueriesCombineRangeAndFilter() {
    Query q =
        Query.partition("p1")
            .withRange("id100", "id200")
            .withFilter("RowKey lt 'id130' and age lt 10");
    assertThat(all(q)).containsExactly("p1/id100", "p1/id103", "p1/id106", "p1/id109");
    assertThat(all(q.descending(true)))
        .containsExactly("p1/id109", "p1/id106", "p1/id103", "p1/id100");
    assertThat(people.explain(q).description()).contains("['id100', 'id130')");
  }

  @Test
  void badFiltersFailWithInvalidFilter() {
    assertCode(() -> people.query(Query.all().withFilter("age eq")), ErrorCode.InvalidFilter);
    assertCode(() -> people.explain(Query.all().withFilter("(age eq 1")), ErrorCode.InvalidFilter);
  }

  @Test
  void aContinuationTokenIsBoundToTheFilter() {
    Page page = people.query(Query.all().withFilter("age lt 10").withLimit(5));
    assertCode(
        () ->
            people.query(Query.all().withFilter("age lt 11").withContinuation(page.continuation())),
        ErrorCode.InvalidContinuation);
  }
}
