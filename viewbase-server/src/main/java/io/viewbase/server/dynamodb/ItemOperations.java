package io.viewbase.server.dynamodb;

import io.viewbase.api.Database;
import io.viewbase.api.Stability;
import java.util.Map;

/**
 * The DynamoDB item operations (PutItem, GetItem, UpdateItem, DeleteItem, Query, Scan, the batch
 * and transaction operations) over the tables of {@link DynamoDbTables}: each item is an item of
 * the table's Viewbase table, addressed by {@link DynamoDbKeys}, its attributes stored under {@link
 * AttributeNames}; each index is read through its view.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class ItemOperations {
  private final Database db;
  private final DynamoDbTables tables;

  public ItemOperations(Database db, DynamoDbTables tables) {
    this.db = db;
    this.tables = tables;
  }

  /** The operations by name ({@code PutItem}); none yet. */
  public Map<String, DynamoDbOperation> operations() {
    return Map.of();
  }
}
