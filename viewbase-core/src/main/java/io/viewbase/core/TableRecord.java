package io.viewbase.core;

import io.viewbase.api.Value;
import java.time.Instant;
import java.util.Objects;

/**
 * A table as the catalog stores it: the name with the case given at creation, its storage id (never
 * reused), and when it was created. A view has one too ({@link ViewRecord#table()}).
 *
 * @param created kept at the catalog's precision (100 ns, as every stored datetime), so a record
 *     read back equals the one written
 */
record TableRecord(String name, int id, Instant created) implements CatalogRecord {
  TableRecord {
    Objects.requireNonNull(name, "name");
    created = Value.DateTime.of(Objects.requireNonNull(created, "created")).toInstant();
  }

  @Override
  public TableRecord table() {
    return this;
  }
}
