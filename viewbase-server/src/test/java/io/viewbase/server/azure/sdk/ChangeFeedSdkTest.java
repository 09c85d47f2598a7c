package io.viewbase.server.azure.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import io.viewbase.api.Change;
import io.viewbase.api.ChangePage;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.TableOptions;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Writes through the official Azure SDK, on the Azure Tables dialect, are recorded in the table's
 * change feed like any other: each kind of entity write, and a transaction as one contiguous
 * transaction of the feed.
 */
class ChangeFeedSdkTest {
  @RegisterExtension static final AzureSdkServer azure = new AzureSdkServer();

  private TableClient tableWithFeed(String prefix) {
    TableClient table = azure.newTable(prefix);
    try {
      azure
          .db()
          .alterTable(
              table.getTableName(),
              TableOptions.DEFAULT.withChangeFeed(
                  TableOptions.ChangeFeed.ON.withBeforeImages(true)));
    } catch (ViewbaseException e) {
      Assumptions.assumeTrue(
          e.code() != ErrorCode.NotImplemented, "the storage backend keeps no sequences");
      throw e;
    }
    return table;
  }

  private List<Change> feed(TableClient table) {
    return azure.db().table(table.getTableName()).changes(0, ChangePage.MAX_LIMIT).changes();
  }

  @Test
  void everyEntityWriteOfTheSdkIsInTheFeed() {
    TableClient table = tableWithFeed("FeedSdk");
    table.createEntity(new TableEntity("pk", "a").addProperty("n", 1));
    table.upsertEntity(new TableEntity("pk", "a").addProperty("m", 2)); // merge by default
    table.upsertEntityWithResponse(
        new TableEntity("pk", "b").addProperty("n", 3), TableEntityUpdateMode.REPLACE, null, null);
    table.updateEntity(
        new TableEntity("pk", "b").addProperty("n", 4), TableEntityUpdateMode.REPLACE);
    TableEntity stored = table.getEntity("pk", "a");
    table.deleteEntity("pk", "a");

    List<Change> changes = feed(table);

    assertThat(changes)
        .extracting(Change::kind)
        .containsExactly(
            Change.Kind.INSERT,
            Change.Kind.UPDATE,
            Change.Kind.INSERT,
            Change.Kind.UPDATE,
            Change.Kind.DELETE);
    assertThat(changes.get(1).item().properties())
        .containsEntry("n", Value.of(1))
        .containsEntry("m", Value.of(2));
    assertThat(changes.get(1).etag()).isEqualTo(stored.getETag());
    assertThat(changes.get(3).before().properties()).containsEntry("n", Value.of(3));
    assertThat(changes.get(4).etag()).isEqualTo(stored.getETag());
  }

  @Test
  void aTransactionIsOneContiguousTransactionOfTheFeed() {
    TableClient table = tableWithFeed("FeedTx");
    table.createEntity(new TableEntity("pk", "gone"));
    table.submitTransaction(
        List.of(
            new TableTransactionAction(
                TableTransactionActionType.CREATE, new TableEntity("pk", "x").addProperty("n", 1)),
            new TableTransactionAction(
                TableTransactionActionType.UPSERT_MERGE,
                new TableEntity("pk", "y").addProperty("n", 2)),
            new TableTransactionAction(
                TableTransactionActionType.DELETE, new TableEntity("pk", "gone"))));

    List<Change> changes = feed(table);

    assertThat(changes).hasSize(4);
    assertThat(changes.subList(1, 4))
        .allSatisfy(
            c -> {
              assertThat(c.transaction()).isEqualTo(2);
              assertThat(c.transactionSize()).isEqualTo(3);
            });
    assertThat(changes.subList(1, 4))
        .extracting(Change::kind)
        .containsExactly(Change.Kind.INSERT, Change.Kind.INSERT, Change.Kind.DELETE);
  }
}
