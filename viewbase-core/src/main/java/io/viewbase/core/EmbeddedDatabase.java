package io.viewbase.core;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Limits;
import io.viewbase.api.Table;
import io.viewbase.api.TableInfo;
import io.viewbase.api.ViewbaseException;
import io.viewbase.storage.spi.StorageException;
import io.viewbase.storage.spi.Store;
import java.util.List;

/**
 * The embedded engine: a {@link Database} over a storage {@link Store}, with the catalog, the
 * rules, the version clock and the query executor that its tables share.
 */
public final class EmbeddedDatabase implements Database {
  private final Store store;
  private final Limits limits;
  private final ItemRules rules;
  private final VersionClock clock = new VersionClock();
  private final Catalog catalog;
  private final QueryExecutor queries;
  private volatile boolean closed;

  EmbeddedDatabase(Store store, Limits limits) {
    this.store = store;
    this.limits = limits;
    this.rules = new ItemRules(limits);
    this.catalog = new Catalog(store, clock);
    try {
      catalog.load();
    } catch (StorageException e) {
      store.close();
      throw storageError(e);
    }
    this.queries = new QueryExecutor(store, new ContinuationCodec(catalog.tokenSecret()), limits, rules);
  }

  @Override
  public TableInfo createTable(String name) {
    checkOpen();
    try {
      return catalog.create(name);
    } catch (StorageException e) {
      throw storageError(e);
    }
  }

  @Override
  public void dropTable(String name) {
    checkOpen();
    try {
      catalog.drop(name);
    } catch (StorageException e) {
      throw storageError(e);
    }
  }

  @Override
  public List<TableInfo> listTables() {
    checkOpen();
    return catalog.list();
  }

  @Override
  public Table table(String name) {
    checkOpen();
    return new EmbeddedTable(this, catalog.require(name));
  }

  @Override
  public Limits limits() {
    return limits;
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      store.close();
    }
  }

  Store store() {
    return store;
  }

  ItemRules rules() {
    return rules;
  }

  VersionClock clock() {
    return clock;
  }

  QueryExecutor queries() {
    return queries;
  }

  void checkOpen() {
    if (closed) {
      throw new ViewbaseException(ErrorCode.StorageUnavailable, "The database is closed");
    }
  }

  static ViewbaseException storageError(StorageException e) {
    ErrorCode code = e.isUnavailable() ? ErrorCode.StorageUnavailable : ErrorCode.InternalError;
    return new ViewbaseException(code, e.getMessage(), java.util.Map.of(), e);
  }
}
