package io.viewbase.server;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.TableInfo;
import io.viewbase.api.TableOptions;
import io.viewbase.api.ViewbaseException;
import io.viewbase.json.TableInfoJson;
import io.viewbase.json.TableOptionsJson;

/**
 * A table's options over {@code /v1/tables/{table}} ({@link TableOptionsJson} is the body):
 *
 * <pre>
 * request              | body                      | Database call               | success
 * ---------------------+---------------------------+-----------------------------+-------------------
 * PUT                  | none (empty)              | createTable(name)           | 201 + description
 * PUT                  | options; absent = default | createTable(name, options)  | 201 + description
 * GET                  | -                         | tableOptions(name)          | 200 + description
 *                      |                           |   (NativeApi, with the sweep)|
 * PATCH                | options; absent = as now  | alterTable(name, merged)    | 200 + description
 * </pre>
 *
 * A table's description carries its options as {@code "options"}; a view's carries none. A PATCH is
 * applied over the options as they are when it is served: two PATCHes at once of different members
 * may each undo the other's change, so send them one at a time.
 */
final class TableOptionEndpoints {
  private final Database db;

  TableOptionEndpoints(Database db) {
    this.db = db;
  }

  ApiResponse create(ApiRequest r, String name) {
    TableInfo created;
    if (r.body().length == 0) {
      created = db.createTable(name);
    } else {
      NativeApi.requireJson(r);
      created = db.createTable(name, TableOptionsJson.read(r.body(), TableOptions.DEFAULT));
    }
    return ApiResponse.json(201, TableInfoJson.write(created, db.tableOptions(created.name())))
        .withHeader("Location", "/v1/tables/" + created.name());
  }

  ApiResponse alter(ApiRequest r, String name) {
    NativeApi.requireJson(r);
    TableInfo info = info(name);
    if (!TableInfo.TABLE.equals(info.kind())) {
      throw ViewbaseException.of(
          ErrorCode.ViewIsReadOnly,
          "A view has no options of its own; alter its source table",
          "view",
          info.name(),
          "source",
          info.source());
    }
    TableOptions merged = TableOptionsJson.read(r.body(), db.tableOptions(info.name()));
    TableOptions altered = db.alterTable(info.name(), merged);
    return ApiResponse.json(200, TableInfoJson.write(info, altered));
  }

  /** A table's options, for its description; null for a view, which has none. */
  TableOptions options(TableInfo info) {
    return TableInfo.TABLE.equals(info.kind()) ? db.tableOptions(info.name()) : null;
  }

  /** A table's or view's description; 404 TableNotFound. */
  private TableInfo info(String name) {
    for (TableInfo info : db.listTables()) {
      if (info.name().equalsIgnoreCase(name)) {
        return info;
      }
    }
    throw ViewbaseException.of(ErrorCode.TableNotFound, "Table not found", "table", name);
  }
}
