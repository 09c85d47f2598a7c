package io.viewbase.cli;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.PropertyName;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import io.viewbase.json.ItemJson;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes exported items in one of the {@link TransferFormat}s. A CSV header names every column
 * before the first row, so the CSV formats see the items twice: {@link #scan} each (a first pass
 * over the table, streamed like the second), then {@link #begin} and {@link #write} each.
 *
 * <p>What is written, so that export, import into another table and export again give the same
 * bytes:
 *
 * <pre>
 * format    | an item                                     | system properties (--system)
 * ----------+---------------------------------------------+--------------------------------------
 * jsonl     | {"partitionKey", "id", properties in their  | _etag, _timestamp (and a view item's
 *           |   stored order, annotated as the native API |   _sourcePartitionKey, _sourceId)
 *           |   writes them}                              |   after id
 * csv       | partitionKey, id, then a column per         | _etag, _timestamp columns after id
 *           |   property in the order first met, named    |
 *           |   name (a String) or name@Type              |
 * azure-csv | PartitionKey, RowKey, Timestamp, then       | the Timestamp cells (empty otherwise)
 *           |   name, name@type per property              |
 * </pre>
 *
 * A null is no cell in either CSV format (CSV has no null; JSON Lines keeps it). A csv column has
 * one type: a property that holds values of two types (null aside) fails the export at the first
 * pass, before anything is written, naming the property (azure-csv, typed per cell, or jsonl keep
 * it). An item met only in the second pass with a property or type the header lacks (a write
 * between the passes) fails the export with {@link ErrorCode#WriteConflict}: export again.
 */
abstract class ExportSink {
  protected final boolean system;

  ExportSink(boolean system) {
    this.system = system;
  }

  static ExportSink of(TransferFormat format, boolean system) {
    return switch (format) {
      case JSONL -> new Jsonl(system);
      case CSV -> new Csv(system);
      case AZURE_CSV -> new AzureCsv(system);
    };
  }

  /** Whether the items must be {@link #scan}ned before they are written. */
  abstract boolean needsScan();

  /** Sees an item of the first pass. */
  void scan(Item item) {}

  /** Writes what comes before the first item (a header). */
  void begin(OutputStream out) throws IOException {}

  abstract void write(Item item, OutputStream out) throws IOException;

  /** JSON Lines: {@link ItemJson#write}, one item a line. */
  static final class Jsonl extends ExportSink {
    Jsonl(boolean system) {
      super(system);
    }

    @Override
    boolean needsScan() {
      return false;
    }

    @Override
    void write(Item item, OutputStream out) throws IOException {
      Item written = system ? item : Item.of(item.partitionKey(), item.id(), item.properties());
      out.write(ItemJson.write(written));
      out.write('\n');
    }
  }

  /** {@code csv}: a column per property, typed in the header. */
  static final class Csv extends ExportSink {
    /** Each property's type ({@link CellText#typeName}), in the order first met. */
    private final Map<String, String> columns = new LinkedHashMap<>();

    Csv(boolean system) {
      super(system);
    }

    @Override
    boolean needsScan() {
      return true;
    }

    @Override
    void scan(Item item) {
      for (Map.Entry<String, Value> p : item.properties().entrySet()) {
        String type = CellText.typeName(p.getValue());
        if (type == null) {
          continue;
        }
        String before = columns.putIfAbsent(p.getKey(), type);
        if (before != null && !before.equals(type)) {
          throw ViewbaseException.of(
              ErrorCode.InvalidInput,
              "A property holds values of two types, and a csv column has one: export with "
                  + "--format azure-csv (a type per cell) or jsonl",
              "property",
              p.getKey(),
              "types",
              before + ", " + type,
              "partitionKey",
              item.partitionKey(),
              "id",
              item.id());
        }
      }
    }

    @Override
    void begin(OutputStream out) throws IOException {
      List<String> header = new ArrayList<>();
      header.add(PropertyName.PARTITION_KEY);
      header.add(PropertyName.ID);
      if (system) {
        header.add(ItemJson.ETAG);
        header.add(ItemJson.TIMESTAMP);
      }
      columns.forEach((name, type) -> header.add(type.equals("String") ? name : name + "@" + type));
      writeRecord(out, header);
    }

    @Override
    void write(Item item, OutputStream out) throws IOException {
      List<String> cells = new ArrayList<>(columns.size() + 4);
      cells.add(item.partitionKey());
      cells.add(item.id());
      if (system) {
        cells.add(item.etag());
        cells.add(item.timestamp() == null ? null : Value.DateTime.isoString(item.timestamp()));
      }
      int present = 0;
      for (Map.Entry<String, String> column : columns.entrySet()) {
        Value value = item.properties().get(column.getKey());
        if (value == null || value.type() == Value.Type.NULL) {
          cells.add(null);
          continue;
        }
        present++;
        if (!CellText.typeName(value).equals(column.getValue())) {
          throw changed(item, column.getKey());
        }
        cells.add(CellText.text(value));
      }
      for (Map.Entry<String, Value> p : item.properties().entrySet()) {
        if (p.getValue().type() != Value.Type.NULL && !columns.containsKey(p.getKey())) {
          throw changed(item, p.getKey());
        }
      }
      writeRecord(out, cells);
    }
  }

  /** {@code azure-csv}: Azure Storage Explorer's typed CSV, a type column beside each property. */
  static final class AzureCsv extends ExportSink {
    private static final List<String> KEYS = List.of("PartitionKey", "RowKey", "Timestamp");
    private final Map<String, Boolean> columns = new LinkedHashMap<>();

    AzureCsv(boolean system) {
      super(system);
    }

    @Override
    boolean needsScan() {
      return true;
    }

    @Override
    void scan(Item item) {
      for (Map.Entry<String, Value> p : item.properties().entrySet()) {
        if (p.getValue().type() == Value.Type.NULL) {
          continue;
        }
        if (KEYS.contains(p.getKey())) {
          throw ViewbaseException.of(
              ErrorCode.InvalidInput,
              "A property has the name of one of Azure's key columns: export with --format csv or jsonl",
              "property",
              p.getKey(),
              "partitionKey",
              item.partitionKey(),
              "id",
              item.id());
        }
        columns.put(p.getKey(), Boolean.TRUE);
      }
    }

    @Override
    void begin(OutputStream out) throws IOException {
      List<String> header = new ArrayList<>(KEYS);
      for (String name : columns.keySet()) {
        header.add(name);
        header.add(name + "@type");
      }
      writeRecord(out, header);
    }

    @Override
    void write(Item item, OutputStream out) throws IOException {
      List<String> cells = new ArrayList<>(2 * columns.size() + 3);
      cells.add(item.partitionKey());
      cells.add(item.id());
      cells.add(
          system && item.timestamp() != null ? Value.DateTime.isoString(item.timestamp()) : null);
      for (String name : columns.keySet()) {
        Value value = item.properties().get(name);
        if (value == null || value.type() == Value.Type.NULL) {
          cells.add(null);
          cells.add(null);
        } else {
          cells.add(CellText.text(value));
          cells.add(edmName(value));
        }
      }
      for (Map.Entry<String, Value> p : item.properties().entrySet()) {
        if (p.getValue().type() != Value.Type.NULL && !columns.containsKey(p.getKey())) {
          throw changed(item, p.getKey());
        }
      }
      writeRecord(out, cells);
    }

    /** {@code Edm.Int32} as Storage Explorer writes it; {@code Json} for an object or array. */
    private static String edmName(Value value) {
      String edm = value.type().edmName();
      return edm == null ? CellText.JSON : edm;
    }
  }

  private static void writeRecord(OutputStream out, List<String> cells) throws IOException {
    StringBuilder record = new StringBuilder(64);
    CsvRecords.write(record, cells);
    out.write(record.toString().getBytes(StandardCharsets.UTF_8));
  }

  private static ViewbaseException changed(Item item, String property) {
    return ViewbaseException.of(
        ErrorCode.WriteConflict,
        "The table changed during the export: an item has a property or type the header, "
            + "written from a first pass, lacks; export again",
        "property",
        property,
        "partitionKey",
        item.partitionKey(),
        "id",
        item.id());
  }
}
