package io.viewbase.server;

import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import java.nio.file.Path;

class RocksDbChangesApiTest extends ChangesApiContract {
  @Override
  Database open(Path dir) {
    return Viewbase.open(OpenOptions.at(dir));
  }
}
