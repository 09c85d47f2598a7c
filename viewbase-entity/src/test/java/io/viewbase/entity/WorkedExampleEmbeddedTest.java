package io.viewbase.entity;

import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The worked example of docs/entities.md on an embedded RocksDB database. */
class WorkedExampleEmbeddedTest {
  @Test
  void workedExampleRunsEmbedded(@TempDir Path dir) {
    try (Database db = Viewbase.open(OpenOptions.at(dir))) {
      WorkedExample.run(db);
    }
  }
}
