package io.viewbase.cli;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.PropertyName;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the two CSV formats: their header row, when the reader is made, then an item per record.
 *
 * <p>{@code csv}: columns {@code partitionKey}, {@code id}, then one per property, named {@code
 * name@Type} ({@code age@Int32}) or plain {@code name}, which is a string unless {@code --types
 * name=Type} says otherwise. Columns {@code _etag} and {@code _timestamp} (an export with {@code
 * --system}) are read and dropped.
 *
 * <p>{@code azure-csv} (Azure Storage Explorer's typed CSV): columns {@code PartitionKey}, {@code
 * RowKey} (the item's partitionKey and id), {@code Timestamp} (dropped), then per property a value
 * column {@code name} and a type column {@code name@type}, whose cell names the type of that row's
 * value ({@code Edm.Int32}; the {@code Edm.} is optional).
 *
 * <pre>
 * cell (value, type)             | csv                          | azure-csv
 * -------------------------------+------------------------------+------------------------------
 * empty, unquoted                | absent property              | absent (when its type is empty)
 * "" (quoted)                    | the column type's "" (a      | its type's "" (String: "")
 *                                |   String "", else refused)   |
 * text                           | parsed as the column's type  | parsed as the cell's type, a
 *                                |   ({@link CellText})         |   String when the type is empty
 * key cell empty, unquoted       | rejected: InvalidKey (an empty key is written "")
 * more or fewer cells than the header | rejected: InvalidInput
 * a cell that is no value of its type | rejected: InvalidValue
 * </pre>
 *
 * A header that names no key columns, an unknown type, a property name that is not allowed or a
 * column twice is the import's error (nothing is read): {@link ErrorCode#InvalidInput}.
 */
final class CsvRows implements ImportRow.Reader {
  private static final String TYPE_SUFFIX = "@type";

  private final CsvRecords records;
  private final ByteInput input;
  private final Limits limits;
  private final int maxBytes;
  private final int width;
  private final int partitionKeyColumn;
  private final int idColumn;

  /** One property's columns: its value, and (azure-csv) its type column or its fixed type. */
  private record Column(String name, int value, int typeColumn, String type) {}

  private final List<Column> columns = new ArrayList<>();

  private CsvRows(
      CsvRecords records,
      ByteInput input,
      Limits limits,
      int maxBytes,
      int width,
      int partitionKeyColumn,
      int idColumn) {
    this.records = records;
    this.input = input;
    this.limits = limits;
    this.maxBytes = maxBytes;
    this.width = width;
    this.partitionKeyColumn = partitionKeyColumn;
    this.idColumn = idColumn;
  }

  /**
   * Reads a {@code csv} header from the start of {@code input}; {@code types} types the plain
   * columns it names (a name it does not hold is an error, most likely a typo).
   */
  static CsvRows csv(ByteInput input, Limits limits, int maxBytes, Map<String, String> types) {
    CsvRecords records = new CsvRecords(input, maxBytes);
    List<String> header = header(records);
    Map<String, Integer> seen = new LinkedHashMap<>();
    List<Column> properties = new ArrayList<>();
    Set<String> typed = new HashSet<>();
    for (int i = 0; i < header.size(); i++) {
      String cell = header.get(i);
      int at = cell.lastIndexOf('@');
      String name = at < 0 ? cell : cell.substring(0, at);
      once(seen, name, i);
      if (name.equals(PropertyName.PARTITION_KEY)
          || name.equals(PropertyName.ID)
          || name.equals("_etag")
          || name.equals("_timestamp")) {
        continue;
      }
      String type;
      if (at >= 0) {
        type = type(cell.substring(at + 1), name);
      } else if (types.containsKey(name)) {
        type = type(types.get(name), name);
        typed.add(name);
      } else {
        type = "String";
      }
      properties.add(new Column(checkName(name, limits), i, -1, type));
    }
    for (String name : types.keySet()) {
      if (!typed.contains(name)) {
        throw ViewbaseException.of(
            ErrorCode.InvalidInput,
            "--types names a column the header does not hold as a plain name",
            "column",
            name);
      }
    }
    CsvRows rows =
        new CsvRows(
            records,
            input,
            limits,
            maxBytes,
            header.size(),
            key(seen, PropertyName.PARTITION_KEY),
            key(seen, PropertyName.ID));
    rows.columns.addAll(properties);
    return rows;
  }

  /** Reads an Azure Storage Explorer header from the start of {@code input}. */
  static CsvRows azure(ByteInput input, Limits limits, int maxBytes) {
    CsvRecords records = new CsvRecords(input, maxBytes);
    List<String> header = header(records);
    Map<String, Integer> values = new LinkedHashMap<>();
    Map<String, Integer> typeColumns = new LinkedHashMap<>();
    for (int i = 0; i < header.size(); i++) {
      String cell = header.get(i);
      if (cell.endsWith(TYPE_SUFFIX)) {
        once(typeColumns, cell.substring(0, cell.length() - TYPE_SUFFIX.length()), i);
      } else {
        once(values, cell, i);
      }
    }
    CsvRows rows =
        new CsvRows(
            records,
            input,
            limits,
            maxBytes,
            header.size(),
            key(values, "PartitionKey"),
            key(values, "RowKey"));
    for (Map.Entry<String, Integer> value : values.entrySet()) {
      String name = value.getKey();
      if (name.equals("PartitionKey") || name.equals("RowKey") || name.equals("Timestamp")) {
        continue;
      }
      rows.columns.add(
          new Column(
              checkName(name, limits), value.getValue(), typeColumns.getOrDefault(name, -1), null));
    }
    for (String typeOf : typeColumns.keySet()) {
      if (!values.containsKey(typeOf)) {
        throw ViewbaseException.of(
            ErrorCode.InvalidInput,
            "The header has a type column without its value column",
            "column",
            typeOf + TYPE_SUFFIX);
      }
    }
    return rows;
  }

  @Override
  public ImportRow next() {
    long start = input.offset();
    CsvRecords.Record record = records.next();
    if (record == null) {
      return null;
    }
    long bytes = input.offset() - start;
    if (record.tooLong()) {
      return ImportRow.rejected(record.line(), bytes, JsonlRows.tooLong(bytes, maxBytes));
    }
    try {
      if (record.error() != null) {
        throw new ViewbaseException(ErrorCode.InvalidInput, "Malformed CSV: " + record.error());
      }
      List<CsvRecords.Field> fields = record.fields();
      if (fields.size() != width) {
        throw ViewbaseException.of(
            ErrorCode.InvalidInput,
            "The row has another number of cells than the header",
            "cells",
            fields.size(),
            "columns",
            width);
      }
      Map<String, Value> properties = new LinkedHashMap<>();
      for (Column column : columns) {
        Value value = value(column, fields);
        if (value != null) {
          properties.put(column.name(), value);
        }
      }
      Item item =
          Item.of(
              key(fields.get(partitionKeyColumn), "partitionKey"),
              key(fields.get(idColumn), "id"),
              properties);
      return ImportRow.of(record.line(), bytes, item);
    } catch (ViewbaseException rejected) {
      return ImportRow.rejected(record.line(), bytes, rejected);
    }
  }

  private Value value(Column column, List<CsvRecords.Field> fields) {
    CsvRecords.Field cell = fields.get(column.value());
    String type = column.type();
    if (type == null) { // azure-csv: the row's type cell
      CsvRecords.Field typeCell = column.typeColumn() < 0 ? null : fields.get(column.typeColumn());
      if (typeCell == null || typeCell.text().isEmpty()) {
        if (cell.absent()) {
          return null;
        }
        type = "String";
      } else {
        type = CellText.canonical(typeCell.text());
        if (type == null) {
          throw ViewbaseException.of(
              ErrorCode.InvalidValue,
              "Unknown type; expected one of " + CellText.known(),
              "property",
              column.name(),
              "type",
              typeCell.text());
        }
      }
    } else if (cell.absent()) {
      return null;
    }
    return CellText.parse(type, cell.text(), column.name(), limits);
  }

  private static String key(CsvRecords.Field cell, String name) {
    if (cell.absent()) {
      throw ViewbaseException.of(
          ErrorCode.InvalidKey,
          "The row has no " + name + " (an empty key is written \"\")",
          "field",
          name);
    }
    return cell.text();
  }

  private static List<String> header(CsvRecords records) {
    CsvRecords.Record header = records.next();
    if (header == null) {
      throw new ViewbaseException(ErrorCode.InvalidInput, "The CSV input is empty: no header row");
    }
    if (header.error() != null) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput, "The header row cannot be read: " + header.error());
    }
    return header.fields().stream().map(CsvRecords.Field::text).toList();
  }

  private static void once(Map<String, Integer> seen, String name, int column) {
    if (seen.putIfAbsent(name, column) != null) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput, "The header names a column twice", "column", name);
    }
  }

  private static int key(Map<String, Integer> columns, String name) {
    Integer column = columns.get(name);
    if (column == null) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "The header has no " + name + " column",
          "columns",
          columns.keySet());
    }
    return column;
  }

  private static String type(String name, String property) {
    String type = CellText.canonical(name);
    if (type == null) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "Unknown column type; expected one of " + CellText.known(),
          "column",
          property,
          "type",
          name);
    }
    return type;
  }

  private static String checkName(String name, Limits limits) {
    try {
      PropertyName.check(name, true, limits.maxPropertyNameLength());
    } catch (ViewbaseException bad) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "The header names a column that is no allowed property name: " + bad.getMessage(),
          "column",
          name);
    }
    return name;
  }
}
