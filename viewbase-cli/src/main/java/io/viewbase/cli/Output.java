package io.viewbase.cli;

import io.viewbase.api.Batch;
import io.viewbase.api.BatchResult;
import io.viewbase.api.Item;
import io.viewbase.api.TableInfo;
import io.viewbase.api.TableOptions;
import io.viewbase.api.VerifyReport;
import io.viewbase.api.ViewStatus;
import io.viewbase.json.BatchJson;
import io.viewbase.json.SweepStatusJson;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The {@code --format} option and the printing of items, table descriptions, view status and verify
 * reports in that format. JSON output streams: one line per item, flushed as it goes. Table output
 * is laid out a batch of {@value #TABLE_BATCH} rows at a time, so memory stays bounded on {@code
 * query --all}.
 */
final class Output {
  private static final int TABLE_BATCH = 1000;

  @Option(
      names = "--format",
      paramLabel = "json|table",
      defaultValue = "json",
      description =
          "Output format: json (one JSON object per line) or table (default: ${DEFAULT-VALUE}).")
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

  /** A committed batch: the result document, or one row per operation with the ETag it left. */
  void batch(PrintWriter out, Batch batch, BatchResult result) {
    if (format == OutputFormat.json) {
      out.println(JsonText.batchResult(result));
    } else {
      List<List<String>> rows = new ArrayList<>();
      for (int i = 0; i < batch.size(); i++) {
        Batch.Operation op = batch.operations().get(i);
        Item stored = result.items().get(i);
        rows.add(
            List.of(
                Integer.toString(i),
                BatchJson.opName(op.kind()),
                op.table(),
                op.partitionKey(),
                op.id(),
                stored == null ? "" : stored.etag()));
      }
      TextTable.of(List.of("#", "op", "table", "partitionKey", "id", "_etag"), rows).print(out);
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

  /** One table's description with its options (null: a view's, which has none). */
  void table(PrintWriter out, TableInfo table, TableOptions options) {
    if (format == OutputFormat.json) {
      out.println(JsonText.table(table, options));
    } else {
      List<List<String>> rows = new ArrayList<>();
      rows.add(List.of("name", table.name()));
      rows.add(List.of("kind", table.kind()));
      if (table.source() != null) {
        rows.add(List.of("source", table.source()));
      }
      rows.add(List.of("created", table.created() == null ? "" : table.created().toString()));
      if (options != null) {
        TableOptions.ChangeFeed feed = options.changeFeed();
        rows.add(List.of("changeFeed", feed.enabled() ? "on" : "off"));
        rows.add(List.of("beforeImages", Boolean.toString(feed.beforeImages())));
        rows.add(List.of("retention", feed.retention().toString()));
        rows.add(List.of("maxEntries", Long.toString(feed.maxEntries())));
        rows.add(List.of("ttl", options.ttl() == null ? "none" : options.ttl().toString()));
      }
      TextTable.of(List.of("field", "value"), rows).print(out);
    }
    out.flush();
  }

  void viewStatus(PrintWriter out, ViewStatus status) {
    if (format == OutputFormat.json) {
      out.println(JsonText.viewStatus(status));
    } else {
      List<List<String>> rows = new ArrayList<>();
      var d = status.definition();
      rows.add(List.of("name", d.name()));
      rows.add(List.of("source", d.source()));
      rows.add(List.of("kind", d.kind().text()));
      rows.add(
          List.of(
              "partitionBy",
              d.partitionBy() != null
                  ? d.partitionBy()
                  : switch (d.kind()) {
                    case COPY -> "{partitionKey}";
                    case HISTORY -> "{partitionKey}#{id}";
                    case PARTITIONS -> "all";
                  }));
      rows.add(
          List.of(
              "idBy",
              switch (d.kind()) {
                case COPY -> d.idBy() == null ? "{id}" : d.idBy();
                case HISTORY -> "(version#item)";
                case PARTITIONS -> "(source partition key)";
              }));
      rows.add(List.of("where", d.where() == null ? "" : d.where()));
      rows.add(List.of("select", d.select().isEmpty() ? "(all)" : String.join(",", d.select())));
      if (d.retention() != null) {
        rows.add(
            List.of(
                "retention",
                (d.retention().maxVersions() > 0
                        ? d.retention().maxVersions() + " versions per partition"
                        : "")
                    + (d.retention().maxVersions() > 0 && d.retention().maxAge() != null
                        ? ", "
                        : "")
                    + (d.retention().maxAge() != null ? "maxAge " + d.retention().maxAge() : "")));
      }
      rows.add(List.of("state", status.state()));
      rows.add(
          List.of(
              "progress",
              status.progress() == null
                  ? ""
                  : ViewStatus.BUILDING.equals(status.state())
                      ? BuildProgress.describe(status.progress())
                      : BuildProgress.describeDone(status.progress())));
      for (ViewStatus.Conflict c : status.conflicts()) {
        rows.add(List.of("conflict", BuildProgress.describe(c)));
      }
      rows.add(List.of("created", status.created() == null ? "" : status.created().toString()));
      TextTable.of(List.of("field", "value"), rows).print(out);
    }
    out.flush();
  }

  /** A forced sweep's count: {@code {"table", "expired"}} as the HTTP API answers it, or a line. */
  void expired(PrintWriter out, String table, long expired) {
    if (format == OutputFormat.json) {
      out.println(new String(SweepStatusJson.writeExpired(table, expired), StandardCharsets.UTF_8));
    } else {
      out.println("expired " + expired + " items of " + table);
    }
    out.flush();
  }

  void report(PrintWriter out, VerifyReport report) {
    if (format == OutputFormat.json) {
      out.println(JsonText.report(report));
    } else {
      List<List<String>> rows = new ArrayList<>();
      rows.add(List.of("view", report.view()));
      rows.add(List.of("checked", Long.toString(report.checked())));
      rows.add(List.of("missing", Long.toString(report.missing())));
      rows.add(List.of("extra", Long.toString(report.extra())));
      rows.add(List.of("different", Long.toString(report.different())));
      rows.add(List.of("repaired", Boolean.toString(report.repaired())));
      for (VerifyReport.Difference d : report.samples()) {
        rows.add(
            List.of(
                d.kind(),
                d.viewPartitionKey()
                    + "/"
                    + d.viewId()
                    + " <- "
                    + (d.sourceId() == null
                        ? "(no source)"
                        : d.sourcePartitionKey() + "/" + d.sourceId())));
      }
      TextTable.of(List.of("field", "value"), rows).print(out);
    }
    out.flush();
  }
}
