package io.viewbase.server;

import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import java.nio.file.Path;

class MemoryChangesApiTest extends ChangesApiContract {
  @Override
  Database open(Path dir) {
    return Viewbase.open(OpenOptions.inMemory());
  }
}
