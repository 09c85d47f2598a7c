package io.viewbase.core;

import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import java.nio.file.Path;

class MemoryViewKindsTest extends ViewKindsContract {
  @Override
  protected Database open(Path directory) {
    return Viewbase.open(OpenOptions.inMemory());
  }
}
