package io.viewbase.cassandra.it;

import io.viewbase.api.Database;
import io.viewbase.server.dynamodb.DynamoDbItemsContract;
import java.nio.file.Path;
import java.util.Map;

/**
 * The DynamoDB item operations' AWS SDK suite, unchanged, on a Cassandra table of the shared node:
 * every condition is a lightweight transaction here, every write with an index a logged batch.
 */
class CassandraDynamoDbItemsTest extends DynamoDbItemsContract {
  @Override
  protected Database open(Path dir) {
    return SharedCassandra.open(SharedCassandra.freshName("ddb_items"), Map.of());
  }
}
