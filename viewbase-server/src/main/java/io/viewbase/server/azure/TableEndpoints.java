package io.viewbase.server.azure;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.TableInfo;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import io.viewbase.filter.Filter;
import io.viewbase.filter.Filters;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Table operations: Create Table, Delete Table and Query Tables. Views are listed beside tables
 * (they are read-only tables to Azure's clients); creating and dropping views stays in the native
 * API, so Delete Table refuses a view by name.
 *
 * <pre>
 * request                    | answer
 * ---------------------------+---------------------------------------------------------------------
 * POST /Tables {"TableName"} | 201 + the table (204 with return-no-content); 409 TableAlreadyExists
 * DELETE /Tables('t')        | 204; 404 ResourceNotFound; 409 OperationNotAllowedOnView for a view
 * GET /Tables                | 200 + {value: [{TableName}...]} by name, $filter on TableName (the entity
 *                            | filter language), $top,
 *                            | NextTableName (x-ms-continuation-NextTableName when more remain)
 * </pre>
 */
final class TableEndpoints {
  static final String NEXT_TABLE_NAME = "x-ms-continuation-NextTableName";
  private static final JsonFactory FACTORY = new JsonFactory();
  private static final Comparator<String> ORDER =
      String.CASE_INSENSITIVE_ORDER.thenComparing(Comparator.naturalOrder());

  private final Database db;

  TableEndpoints(Database db) {
    this.db = db;
  }

  AzureResponse create(Call call) {
    call.grant().check(Permission.CREATE_TABLE, null);
    String name = tableName(call.request().body());
    if (name.equalsIgnoreCase("Tables")) {
      throw ViewbaseException.of(ErrorCode.InvalidTableName, "The name is reserved", "table", name);
    }
    if (name.length() < 3 || name.length() > 63) {
      throw new ViewbaseException(
          ErrorCode.OutOfRangeInput,
          "The specified resource name length is not within the permissible limits (3 to 63 characters).");
    }
    TableInfo created = db.createTable(name);
    Boolean noContent = call.prefersNoContent();
    if (Boolean.TRUE.equals(noContent)) {
      return AzureResponse.empty(204).with("Preference-Applied", "return-no-content");
    }
    byte[] body =
        EntityWriter.write(
            g -> {
              g.writeStartObject();
              if (call.level() != MetadataLevel.NONE) {
                g.writeStringField(
                    "odata.metadata", call.path().baseUrl() + "/$metadata#Tables/@Element");
              }
              writeTable(g, call, created.name());
              g.writeEndObject();
            });
    return AzureResponse.of(201, call.level().contentType(), body)
        .with("Preference-Applied", noContent == null ? null : "return-content");
  }

  private static void writeTable(JsonGenerator g, Call call, String name) throws IOException {
    if (call.level() == MetadataLevel.FULL) {
      g.writeStringField("odata.type", call.path().account() + ".Tables");
      g.writeStringField("odata.id", call.path().baseUrl() + "/Tables('" + name + "')");
      g.writeStringField("odata.editLink", "Tables('" + name + "')");
    }
    g.writeStringField("TableName", name);
  }

  private static String tableName(byte[] body) {
    try (JsonParser p = FACTORY.createParser(body)) {
      String name = null;
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new ViewbaseException(
            ErrorCode.InvalidJson,
            "Create Table needs a JSON body such as " + "{\"TableName\":\"mytable\"}");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken t = p.nextToken();
        if (field.equals("TableName") && t == JsonToken.VALUE_STRING) {
          name = p.getText();
        } else {
          p.skipChildren();
        }
      }
      if (p.nextToken() != null) {
        throw new ViewbaseException(
            ErrorCode.InvalidJson, "Unexpected content after the JSON object of Create Table");
      }
      if (name == null) {
        throw ViewbaseException.of(
            ErrorCode.PropertiesNeedValue,
            "Create Table needs the TableName property",
            "property",
            "TableName");
      }
      return name;
    } catch (IOException e) {
      throw ViewbaseException.of(
          ErrorCode.InvalidJson, "The request body is not valid JSON", "reason", e.getMessage());
    }
  }

  AzureResponse delete(Call call) {
    call.grant().check(Permission.DELETE_TABLE, null);
    String name = call.path().table();
    TableInfo info = find(name);
    if (info == null) {
      throw notFoundOnDelete(name);
    }
    if (TableInfo.VIEW.equals(info.kind())) {
      throw ViewbaseException.of(
          ErrorCode.ViewIsReadOnly,
          "The Azure dialect cannot drop a view: drop it with the "
              + "native API (DELETE /v1/views/{view}) or the viewbase CLI",
          "view",
          info.name());
    }
    try {
      db.dropTable(info.name());
    } catch (ViewbaseException e) {
      if (e.code() == ErrorCode.TableNotFound) {
        throw notFoundOnDelete(name);
      }
      throw e;
    }
    return AzureResponse.empty(204); // its access policies went with it (a table setting)
  }

  /**
   * Delete Table of a missing table: Azure answers for the addressed resource (ResourceNotFound).
   */
  private static ViewbaseException notFoundOnDelete(String name) {
    return ViewbaseException.of(ErrorCode.TableNotFoundOnDelete, "Table not found", "table", name);
  }

  /** The table or view of this name (case-insensitively), or null. */
  TableInfo find(String name) {
    if (name == null) {
      return null;
    }
    for (TableInfo info : db.listTables()) {
      if (info.name().equalsIgnoreCase(name)) {
        return info;
      }
    }
    return null;
  }

  AzureResponse query(Call call) {
    call.grant().check(Permission.LIST_TABLES, null);
    Predicate<String> filter = tableNameFilter(call.query().get("$filter"));
    int top = top(call.query().get("$top"));
    String next = call.query().get("NextTableName");
    List<String> names = new ArrayList<>();
    for (TableInfo info : db.listTables()) {
      if (filter.test(info.name()) && (next == null || ORDER.compare(info.name(), next) >= 0)) {
        names.add(info.name());
      }
    }
    names.sort(ORDER);
    String continuation = names.size() > top ? names.get(top) : null;
    List<String> page = names.subList(0, Math.min(top, names.size()));
    byte[] body =
        EntityWriter.write(
            g -> {
              g.writeStartObject();
              if (call.level() != MetadataLevel.NONE) {
                g.writeStringField("odata.metadata", call.path().baseUrl() + "/$metadata#Tables");
              }
              g.writeArrayFieldStart("value");
              for (String name : page) {
                g.writeStartObject();
                writeTable(g, call, name);
                g.writeEndObject();
              }
              g.writeEndArray();
              g.writeEndObject();
            });
    return AzureResponse.of(200, call.level().contentType(), body)
        .with(NEXT_TABLE_NAME, continuation);
  }

  /**
   * Query Tables' {@code $filter} as a test on table names: the entity filter language, in Azure's
   * dialect, over one string property, {@code TableName} (so its limits bound the text and its
   * nesting, and {@code true}, {@code false} and {@code not} work as for entities). A filter on any
   * other name matches no table; one that does not parse is 400 InvalidInput.
   */
  private static Predicate<String> tableNameFilter(String text) {
    Filter filter = PropertyNames.parseFilter(text);
    if (filter == null) {
      return name -> true;
    }
    return name -> Filters.matches(filter, null, null, null, Map.of("TableName", Value.of(name)));
  }

  private static int top(String text) {
    if (text == null) {
      return EntityEndpoints.MAX_PAGE;
    }
    try {
      int top = Integer.parseInt(text.trim());
      if (top < 1) {
        throw new NumberFormatException();
      }
      return Math.min(top, EntityEndpoints.MAX_PAGE);
    } catch (NumberFormatException e) {
      throw ViewbaseException.of(
          ErrorCode.InvalidQuery,
          "$top must be a whole number from 1 to 1000",
          "parameter",
          "$top",
          "value",
          text);
    }
  }
}
