package io.viewbase.core;

import io.viewbase.api.TableOptions;
import io.viewbase.api.Value;
import java.time.Instant;
import java.util.Objects;

/**
 * A table as the catalog stores it: the name with the case given at creation, its storage id (never
 * reused), when it was created, and its options (change feed, time-to-live). A view has one too
 * ({@link ViewRecord#table()}), always with the default options.
 *
 * @param created kept at the catalog's precision (100 ns, as every stored datetime), so a record
 *     read back equals the one written
 * @param options null reads as {@link TableOptions#DEFAULT}
 */
record TableRecord(String name, int id, Instant created, TableOptions options)
    implements CatalogRecord {
  TableRecord {
    Objects.requireNonNull(name, "name");
    created = Value.DateTime.of(Objects.requireNonNull(created, "created")).toInstant();
    options = options == null ? TableOptions.DEFAULT : options;
  }

  TableRecord(String name, int id, Instant created) {
    this(name, id, created, TableOptions.DEFAULT);
  }

  TableRecord withOptions(TableOptions changed) {
    return new TableRecord(name, id, created, changed);
  }

  @Override
  public TableRecord table() {
    return this;
  }
}
