package io.viewbase.client;

import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The scenario on the embedded engine: the behaviour the remote one must match. */
class EmbeddedScenarioTest extends DatabaseScenario {
  private Database db;

  @BeforeAll
  void open() {
    db = Viewbase.open(OpenOptions.inMemory());
  }

  @AfterAll
  void close() {
    db.close();
  }

  @Override
  Database db() {
    return db;
  }
}
