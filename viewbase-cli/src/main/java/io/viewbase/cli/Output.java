package io.viewbase.cli;

import io.viewbase.api.Item;
import io.viewbase.api.TableInfo;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The {@code --format} option and the printing of items and table descriptions in that format.
 * JSON output streams: one line per item, flushed as it goes. Table output is laid out a batch
 * of {@value #TABLE_BATCH} rows at a time, so memory stays bounded on {@code query --all}.
 */
final class Output {
  private static final int TABLE_BATCH = 1000;

  @Option(names = "--format", paramLabel = "json|table", defaultValue = "json",
      description = "Output format: json (one JSON object per line) or table (default: ${DEFAULT-VALUE}).")
  OutputFormat format = OutputFormat.json;

  void item(PrintWriter out, Item item) {
    items(out, List.of(item).iterator());
  }

  void items(PrintWriter out, Iterator<Item> items) {
    if (format == OutputFormat.json) {
      while (items.hasNext()) {
        out.println(JsonText.item(items.next()));
      }
      out.flush();
      return;
    }
    List<Item> batch = new ArrayList<>();
    while (items.hasNext()) {
      batch.add(items.next());
      if (batch.size() == TABLE_BATCH) {
        TextTable.ofItems(batch).print(out);
        batch.clear();
      }
    }
    if (!batch.isEmpty()) {
      TextTable.ofItems(batch).print(out);
    }
    out.flush();
  }

  void tables(PrintWriter out, List<TableInfo> tables) {
    if (format == OutputFormat.json) {
      tables.forEach(t -> out.println(JsonText.table(t)));
    } else {
      TextTable.ofTables(tables).print(out);
    }
    out.flush();
  }
}
