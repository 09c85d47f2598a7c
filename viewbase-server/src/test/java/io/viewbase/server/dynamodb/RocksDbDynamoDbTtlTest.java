package io.viewbase.server.dynamodb;

import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import java.nio.file.Path;

class RocksDbDynamoDbTtlTest extends DynamoDbTtlContract {
  @Override
  Database open(Path dir) {
    return Viewbase.open(OpenOptions.at(dir).withOptions(WITHOUT_BACKGROUND_SWEEPS));
  }
}
