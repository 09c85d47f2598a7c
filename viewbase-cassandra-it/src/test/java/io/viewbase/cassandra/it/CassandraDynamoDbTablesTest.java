package io.viewbase.cassandra.it;

import io.viewbase.api.Database;
import io.viewbase.server.dynamodb.DynamoDbTablesContract;
import java.nio.file.Path;
import java.util.Map;

/**
 * The DynamoDB table operations' AWS SDK suite, unchanged, on a Cassandra table of the shared node:
 * descriptions are catalog settings there, and indexes views built online as Cassandra builds them.
 */
class CassandraDynamoDbTablesTest extends DynamoDbTablesContract {
  @Override
  protected Database open(Path dir) {
    return SharedCassandra.open(SharedCassandra.freshName("ddb_tables"), Map.of());
  }
}
