package io.viewbase.cli;

import io.viewbase.api.Item;
import io.viewbase.api.TableInfo;
import io.viewbase.api.Value;
import io.viewbase.json.ItemJson;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Rows of text in aligned columns, for {@code --format table}. Cells (but ETags) are cut to {@value
 * #MAX_CELL} characters and line breaks shown as spaces, so one row stays one line.
 */
final class TextTable {
  private static final int MAX_CELL = 40;

  private final List<String> header;
  private final List<List<String>> rows;

  private TextTable(List<String> header, List<List<String>> rows) {
    this.header = header;
    this.rows = rows;
  }

  /** Columns: partitionKey, id, every property in order of first appearance, _etag. */
  static TextTable ofItems(List<Item> items) {
    Set<String> properties = new LinkedHashSet<>();
    items.forEach(item -> properties.addAll(item.properties().keySet()));
    List<String> header = new ArrayList<>(List.of("partitionKey", "id"));
    header.addAll(properties);
    header.add(ItemJson.ETAG);
    List<List<String>> rows = new ArrayList<>();
    for (Item item : items) {
      List<String> row = new ArrayList<>(List.of(item.partitionKey(), item.id()));
      for (String property : properties) {
        row.add(item.get(property).map(TextTable::text).orElse(""));
      }
      row.add(item.etag() == null ? "" : item.etag());
      rows.add(row);
    }
    return new TextTable(header, rows);
  }

  /** Any rows under a header, for descriptions such as a view's status (field, value). */
  static TextTable of(List<String> header, List<List<String>> rows) {
    return new TextTable(List.copyOf(header), List.copyOf(rows));
  }

  static TextTable ofTables(List<TableInfo> tables) {
    List<List<String>> rows = new ArrayList<>();
    for (TableInfo t : tables) {
      rows.add(
          List.of(
              t.name(),
              t.kind(),
              t.source() == null ? "" : t.source(),
              t.state(),
              t.created() == null ? "" : t.created().toString()));
    }
    return new TextTable(List.of("name", "kind", "source", "state", "created"), rows);
  }

  void print(PrintWriter out) {
    int[] widths = new int[header.size()];
    List<List<String>> all = new ArrayList<>();
    all.add(header);
    for (List<String> row : rows) {
      List<String> cells = new ArrayList<>(row.size());
      for (int c = 0; c < row.size(); c++) {
        cells.add(cell(row.get(c), !header.get(c).equals(ItemJson.ETAG)));
      }
      all.add(cells);
    }
    for (List<String> row : all) {
      for (int c = 0; c < row.size(); c++) {
        widths[c] = Math.max(widths[c], row.get(c).length());
      }
    }
    for (List<String> row : all) {
      StringBuilder line = new StringBuilder();
      for (int c = 0; c < row.size(); c++) {
        String cell = row.get(c);
        line.append(cell);
        if (c < row.size() - 1) {
          line.append(" ".repeat(widths[c] - cell.length() + 2));
        }
      }
      out.println(line);
    }
  }

  /**
   * A value as people read it: strings bare, datetimes in ISO-8601, binary in base64, decimals in
   * plain notation (12.5, 100), nested values as compact JSON. (A chain of instanceof, not a
   * pattern switch: that is a preview in Java 17.)
   */
  static String text(Value value) {
    if (value instanceof Value.Str s) {
      return s.value();
    } else if (value instanceof Value.DateTime t) {
      return t.toInstant().toString();
    } else if (value instanceof Value.Binary b) {
      return Base64.getEncoder().encodeToString(b.value());
    } else if (value instanceof Value.Guid g) {
      return g.value().toString();
    } else if (value instanceof Value.Obj o) {
      return o.properties().entrySet().stream()
          .map(e -> JsonText.quote(e.getKey()) + ":" + nested(e.getValue()))
          .collect(Collectors.joining(",", "{", "}"));
    } else if (value instanceof Value.Arr a) {
      return a.elements().stream()
          .map(TextTable::nested)
          .collect(Collectors.joining(",", "[", "]"));
    } else if (value instanceof Value.Bool b) {
      return Boolean.toString(b.value());
    } else if (value instanceof Value.Int32 i) {
      return Integer.toString(i.value());
    } else if (value instanceof Value.Int64 l) {
      return Long.toString(l.value());
    } else if (value instanceof Value.Double d) {
      return Double.toString(d.value());
    } else if (value instanceof Value.Decimal d) {
      return d.text();
    }
    return "null";
  }

  /** Inside an object or array, strings keep their quotes so the structure stays readable. */
  private static String nested(Value value) {
    return value instanceof Value.Str s ? JsonText.quote(s.value()) : text(value);
  }

  /** One line of text; cut unless it is an ETag, which people copy into --if-match whole. */
  private static String cell(String text, boolean cut) {
    String oneLine = text.replaceAll("\\R|\\t", " ");
    return !cut || oneLine.length() <= MAX_CELL
        ? oneLine
        : oneLine.substring(0, MAX_CELL - 1) + "…";
  }
}
