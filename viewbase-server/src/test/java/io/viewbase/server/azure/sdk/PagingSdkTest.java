package io.viewbase.server.azure.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.http.rest.PagedResponse;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Paging over more than 5,000 entities with the official Java SDK's continuation handling. */
class PagingSdkTest {
  @RegisterExtension static final AzureSdkServer azure = new AzureSdkServer();

  private static final int PARTITIONS = 5;
  private static final int ROWS_PER_PARTITION = 1_010;
  private static final int TOTAL = PARTITIONS * ROWS_PER_PARTITION;

  private static TableClient table;

  /** "pk/rk" of every entity, in Azure's order: PartitionKey, then RowKey. */
  private static final List<String> EXPECTED = new ArrayList<>();

  @BeforeAll
  static void load() {
    table = azure.newTable("Paging");
    int n = 0;
    for (int p = 0; p < PARTITIONS; p++) {
      String pk = "part" + p;
      List<TableTransactionAction> actions = new ArrayList<>();
      for (int r = 0; r < ROWS_PER_PARTITION; r++) {
        String rk = String.format("row%05d", r);
        actions.add(
            new TableTransactionAction(
                TableTransactionActionType.CREATE, new TableEntity(pk, rk).addProperty("n", n++)));
        EXPECTED.add(pk + "/" + rk);
        if (actions.size() == 100) {
          table.submitTransaction(actions);
          actions = new ArrayList<>();
        }
      }
      if (!actions.isEmpty()) {
        table.submitTransaction(actions);
      }
    }
  }

  @Test
  void listEntitiesIteratesEveryEntityExactlyOnceInKeyOrder() {
    List<String> seen =
        table.listEntities().stream().map(e -> e.getPartitionKey() + "/" + e.getRowKey()).toList();

    assertThat(seen).hasSize(TOTAL).containsExactlyElementsOf(EXPECTED);
  }

  @Test
  void iterableByPageShowsPagesOfAtMostAThousandWithContinuations() {
    List<PagedResponse<TableEntity>> pages = new ArrayList<>();
    table.listEntities().iterableByPage().forEach(pages::add);

    assertThat(pages.size()).isGreaterThanOrEqualTo(TOTAL / 1000 + 1);
    assertThat(pages)
        .allSatisfy(page -> assertThat(page.getValue().size()).isLessThanOrEqualTo(1000));
    assertThat(pages.subList(0, pages.size() - 1))
        .allSatisfy(page -> assertThat(page.getContinuationToken()).isNotNull());
    assertThat(pages.get(pages.size() - 1).getContinuationToken()).isNull();
    assertThat(pages.stream().mapToInt(page -> page.getValue().size()).sum()).isEqualTo(TOTAL);
  }

  @Test
  void listEntitiesWithANonKeyFilterPagesThroughTheMatchesInOrder() {
    List<Integer> seen =
        table
            .listEntities(
                new ListEntitiesOptions().setFilter("n ge 1500 and n lt 4200"), null, null)
            .stream()
            .map(e -> (Integer) e.getProperty("n"))
            .toList();

    List<Integer> expected = new ArrayList<>();
    for (int i = 1500; i < 4200; i++) {
      expected.add(i);
    }
    assertThat(seen).containsExactlyElementsOf(expected);
  }

  @Test
  void listEntitiesOfOnePartitionWithTopPagesByTop() {
    List<PagedResponse<TableEntity>> pages = new ArrayList<>();
    table
        .listEntities(
            new ListEntitiesOptions().setFilter("PartitionKey eq 'part3'").setTop(250), null, null)
        .iterableByPage()
        .forEach(pages::add);

    assertThat(pages)
        .allSatisfy(page -> assertThat(page.getValue().size()).isLessThanOrEqualTo(250));
    assertThat(pages.stream().mapToInt(page -> page.getValue().size()).sum())
        .isEqualTo(ROWS_PER_PARTITION);
    assertThat(
            pages.stream()
                .flatMap(page -> page.getValue().stream())
                .map(TableEntity::getPartitionKey))
        .containsOnly("part3");
  }

  @Test
  void resumingFromAContinuationTokenContinuesWhereThePageEnded() {
    PagedResponse<TableEntity> first = table.listEntities().iterableByPage().iterator().next();
    String token = first.getContinuationToken();

    PagedResponse<TableEntity> second =
        table.listEntities().iterableByPage(token).iterator().next();

    TableEntity lastOfFirst = first.getValue().get(first.getValue().size() - 1);
    TableEntity firstOfSecond = second.getValue().get(0);
    int index = EXPECTED.indexOf(lastOfFirst.getPartitionKey() + "/" + lastOfFirst.getRowKey());
    assertThat(firstOfSecond.getPartitionKey() + "/" + firstOfSecond.getRowKey())
        .isEqualTo(EXPECTED.get(index + 1));
  }
}
