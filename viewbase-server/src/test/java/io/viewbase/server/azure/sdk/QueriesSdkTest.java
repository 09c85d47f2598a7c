package io.viewbase.server.azure.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.http.rest.PagedResponse;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code $filter}, {@code $select} and {@code $top} through the official Java SDK's listEntities.
 */
class QueriesSdkTest {
  @RegisterExtension static final AzureSdkServer azure = new AzureSdkServer();

  private static final UUID GUID_A1 = UUID.fromString("11111111-1111-1111-1111-111111111111");
  private static final UUID GUID_A2 = UUID.fromString("22222222-2222-2222-2222-222222222222");
  private static final UUID GUID_B1 = UUID.fromString("33333333-3333-3333-3333-333333333333");

  private static TableClient table;

  @BeforeAll
  static void load() {
    table = azure.newTable("Query");
    table.createEntity(
        person("a", "1", "ann", 30, 5L, 1.5, 2020, GUID_A1, new byte[] {1, 2}, true));
    table.createEntity(
        person("a", "2", "bob", 40, 6_000_000_000L, 2.5, 2021, GUID_A2, new byte[] {3, 4}, false));
    table.createEntity(
        person("b", "1", "cat", 50, 5L, 3.5, 2022, GUID_B1, new byte[] {1, 2}, true));
    // dan has no age: a missing property matches no comparison, not even ne.
    table.createEntity(
        new TableEntity("b", "2").addProperty("name", "dan").addProperty("active", false));
  }

  private static TableEntity person(
      String pk,
      String rk,
      String name,
      int age,
      long big,
      double score,
      int year,
      UUID guid,
      byte[] bytes,
      boolean active) {
    return new TableEntity(pk, rk)
        .addProperty("name", name)
        .addProperty("age", age)
        .addProperty("big", big)
        .addProperty("score", score)
        .addProperty("when", OffsetDateTime.of(year, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC))
        .addProperty("guid", guid)
        .addProperty("bytes", bytes)
        .addProperty("active", active);
  }

  /** The names of the entities the filter selects, in the order listEntities yields them. */
  private static List<String> names(String filter) {
    return table.listEntities(new ListEntitiesOptions().setFilter(filter), null, null).stream()
        .map(e -> (String) e.getProperty("name"))
        .toList();
  }

  @Test
  void filterOnPartitionKeyReturnsThatPartitionInRowKeyOrder() {
    assertThat(names("PartitionKey eq 'a'")).containsExactly("ann", "bob");
  }

  @Test
  void filterOnBothKeysReturnsOneEntity() {
    assertThat(names("PartitionKey eq 'b' and RowKey eq '1'")).containsExactly("cat");
  }

  @Test
  void filterOnRowKeyRangeAcrossPartitions() {
    assertThat(names("RowKey ge '2'")).containsExactly("bob", "dan");
  }

  @Test
  void noFilterReturnsEverythingOrderedByPartitionKeyThenRowKey() {
    assertThat(
            table.listEntities().stream()
                .map(e -> e.getPartitionKey() + "/" + e.getRowKey())
                .toList())
        .containsExactly("a/1", "a/2", "b/1", "b/2");
  }

  @Test
  void filterWithEqOnAStringProperty() {
    assertThat(names("name eq 'bob'")).containsExactly("bob");
  }

  @Test
  void filterWithNeOnAnInt32PropertySkipsEntitiesWithoutIt() {
    assertThat(names("age ne 30")).containsExactly("bob", "cat");
  }

  @Test
  void filterWithGtAndLtOnInt32() {
    assertThat(names("age gt 30")).containsExactly("bob", "cat");
    assertThat(names("age lt 50")).containsExactly("ann", "bob");
    assertThat(names("age ge 30 and age le 40")).containsExactly("ann", "bob");
  }

  @Test
  void filterOnADoubleProperty() {
    assertThat(names("score gt 2.0")).containsExactly("bob", "cat");
    assertThat(names("score eq 1.5")).containsExactly("ann");
  }

  @Test
  void filterOnABooleanProperty() {
    assertThat(names("active eq true")).containsExactly("ann", "cat");
    assertThat(names("active eq false")).containsExactly("bob", "dan");
  }

  @Test
  void filterWithAndOrAndNot() {
    assertThat(names("PartitionKey eq 'a' and age gt 35")).containsExactly("bob");
    assertThat(names("name eq 'ann' or name eq 'dan'")).containsExactly("ann", "dan");
    assertThat(names("not (name eq 'ann')")).containsExactly("bob", "cat", "dan");
    assertThat(names("(name eq 'ann' or name eq 'cat') and not (PartitionKey eq 'b')"))
        .containsExactly("ann");
  }

  @Test
  void filterWithAnInt64Literal() {
    assertThat(names("big eq 5L")).containsExactly("ann", "cat");
    assertThat(names("big gt 5000000000L")).containsExactly("bob");
  }

  @Test
  void filterWithADatetimeLiteral() {
    assertThat(names("when ge datetime'2021-01-01T00:00:00Z'")).containsExactly("bob", "cat");
    assertThat(names("when lt datetime'2021-01-01T00:00:00.0000000Z'")).containsExactly("ann");
  }

  @Test
  void filterWithAGuidLiteral() {
    assertThat(names("guid eq guid'" + GUID_A2 + "'")).containsExactly("bob");
  }

  @Test
  void filterWithABinaryLiteral() {
    assertThat(names("bytes eq X'0102'")).containsExactly("ann", "cat");
    assertThat(names("bytes eq binary'0304'")).containsExactly("bob");
  }

  @Test
  void filterComparingAStringPropertyWithANumberMatchesNothing() {
    assertThat(names("name eq 30")).isEmpty();
  }

  @Test
  void filterThatDoesNotParseFailsWithInvalidInput() {
    SdkErrors.assertUnmappedFails(400, "InvalidInput", () -> names("name eq"));
  }

  @Test
  void selectReturnsTheSelectedPropertiesAndTheKeysWhenSelected() {
    List<TableEntity> read =
        table
            .listEntities(
                new ListEntitiesOptions()
                    .setFilter("PartitionKey eq 'a'")
                    .setSelect(List.of("PartitionKey", "RowKey", "name")),
                null,
                null)
            .stream()
            .toList();

    assertThat(read).hasSize(2);
    assertThat(read.get(0).getPartitionKey()).isEqualTo("a");
    assertThat(read.get(0).getRowKey()).isEqualTo("1");
    assertThat(read.get(0).getProperty("name")).isEqualTo("ann");
    assertThat(read.get(0).getProperties())
        .doesNotContainKeys("age", "big", "score", "when", "guid", "bytes");
  }

  @Test
  void selectWithoutTheKeysReturnsOnlyTheSelectedProperties() {
    List<TableEntity> read =
        table
            .listEntities(
                new ListEntitiesOptions()
                    .setFilter("PartitionKey eq 'a'")
                    .setSelect(List.of("age", "big")),
                null,
                null)
            .stream()
            .toList();

    assertThat(read).hasSize(2);
    assertThat(read.get(1).getProperty("age")).isEqualTo(40);
    assertThat(read.get(1).getProperty("big")).isEqualTo(6_000_000_000L);
    assertThat(read.get(1).getProperties()).doesNotContainKeys("name", "score");
    assertThat(read.get(1).getPartitionKey()).isNull();
    assertThat(read.get(1).getRowKey()).isNull();
  }

  @Test
  void selectOfAPropertyTheEntityLacksReturnsItAsNull() {
    TableEntity dan =
        table
            .listEntities(
                new ListEntitiesOptions()
                    .setFilter("PartitionKey eq 'b' and RowKey eq '2'")
                    .setSelect(List.of("name", "age")),
                null,
                null)
            .iterator()
            .next();

    assertThat(dan.getProperties()).containsKey("age");
    assertThat(dan.getProperty("age")).isNull();
  }

  @Test
  void topLimitsEachPageAndListingStillYieldsEveryEntity() {
    ListEntitiesOptions options = new ListEntitiesOptions().setTop(3);

    List<PagedResponse<TableEntity>> pages =
        table.listEntities(options, null, null).streamByPage().toList();

    assertThat(pages.get(0).getValue()).hasSize(3);
    assertThat(pages.get(0).getContinuationToken()).isNotNull();
    assertThat(pages.stream().mapToInt(p -> p.getValue().size()).sum()).isEqualTo(4);
    assertThat(pages).allSatisfy(p -> assertThat(p.getValue().size()).isLessThanOrEqualTo(3));
  }

  @Test
  void topOfOneWithAFilterPagesOneEntityAtATime() {
    List<List<String>> pages =
        table
            .listEntities(
                new ListEntitiesOptions().setTop(1).setFilter("active eq true"), null, null)
            .streamByPage()
            .map(p -> p.getValue().stream().map(e -> (String) e.getProperty("name")).toList())
            .filter(p -> !p.isEmpty())
            .toList();

    assertThat(pages).containsExactly(List.of("ann"), List.of("cat"));
  }
}
