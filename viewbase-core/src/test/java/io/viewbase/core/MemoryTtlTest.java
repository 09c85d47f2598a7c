package io.viewbase.core;

import io.viewbase.api.OpenOptions;
import java.nio.file.Path;

class MemoryTtlTest extends TtlContract {
  @Override
  OpenOptions options(Path directory) {
    return OpenOptions.inMemory();
  }
}
