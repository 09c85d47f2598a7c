package io.viewbase.server;

import io.viewbase.api.Batch;
import io.viewbase.api.BatchResult;
import io.viewbase.api.Database;
import io.viewbase.api.Limits;
import io.viewbase.api.Table;
import io.viewbase.api.TableInfo;
import io.viewbase.api.VerifyReport;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import java.util.List;
import java.util.Optional;

/**
 * A real database behind every call, for tests that stand a fault in for one of them (a fault no
 * real database can be made to raise on demand): a subclass overrides just that call. Closing it
 * leaves the real database open; the test closes that.
 */
public abstract class DelegatingDatabase implements Database {
  protected final Database real;

  protected DelegatingDatabase(Database real) {
    this.real = real;
  }

  @Override
  public TableInfo createTable(String name) {
    return real.createTable(name);
  }

  @Override
  public void dropTable(String name) {
    real.dropTable(name);
  }

  @Override
  public List<TableInfo> listTables() {
    return real.listTables();
  }

  @Override
  public Table table(String name) {
    return real.table(name);
  }

  @Override
  public ViewStatus createView(ViewDefinition definition) {
    return real.createView(definition);
  }

  @Override
  public ViewStatus viewStatus(String name) {
    return real.viewStatus(name);
  }

  @Override
  public void dropView(String name) {
    real.dropView(name);
  }

  @Override
  public VerifyReport verifyView(String name, boolean repair) {
    return real.verifyView(name, repair);
  }

  @Override
  public BatchResult commit(Batch batch) {
    return real.commit(batch);
  }

  @Override
  public Optional<String> setting(String table, String name) {
    return real.setting(table, name);
  }

  @Override
  public void putSetting(String table, String name, String value) {
    real.putSetting(table, name, value);
  }

  @Override
  public Limits limits() {
    return real.limits();
  }

  @Override
  public void close() {}
}
