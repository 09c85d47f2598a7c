package io.viewbase.cli;

import io.viewbase.api.BatchResult;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.TableInfo;
import io.viewbase.api.TableOptions;
import io.viewbase.api.VerifyReport;
import io.viewbase.api.ViewStatus;
import io.viewbase.json.BatchResultJson;
import io.viewbase.json.ItemJson;
import io.viewbase.json.TableInfoJson;
import io.viewbase.json.VerifyReportJson;
import io.viewbase.json.ViewStatusJson;
import java.nio.charset.StandardCharsets;

/**
 * The CLI's JSON, through viewbase-json, so it is the same text the HTTP API speaks; plus the
 * string quoting that the human table format uses for nested values.
 */
final class JsonText {
  private JsonText() {}

  /** One item on one line, with its system properties. */
  static String item(Item item) {
    return new String(ItemJson.write(item), StandardCharsets.UTF_8);
  }

  /**
   * The item a write body describes, at the address given on the command line; a body naming
   * another partitionKey or id fails with KeyMismatch, as it does over HTTP.
   */
  static Item readItem(String json, String partitionKey, String id, Limits limits) {
    return ItemJson.read(json.getBytes(StandardCharsets.UTF_8), limits)
        .addressedTo(partitionKey, id);
  }

  /** A committed batch's result, as {@code POST /v1/batch} answers it. */
  static String batchResult(BatchResult result) {
    return new String(BatchResultJson.write(result), StandardCharsets.UTF_8);
  }

  /** A table or view description, as {@code GET /v1/tables} lists them. */
  static String table(TableInfo table) {
    return new String(TableInfoJson.write(table), StandardCharsets.UTF_8);
  }

  /** One table's description with its options, as {@code GET /v1/tables/{t}} answers it. */
  static String table(TableInfo table, TableOptions options) {
    return new String(TableInfoJson.write(table, options), StandardCharsets.UTF_8);
  }

  /** A view's definition, state and progress, as {@code GET /v1/views/{view}} answers it. */
  static String viewStatus(ViewStatus status) {
    return new String(ViewStatusJson.write(status), StandardCharsets.UTF_8);
  }

  /** A verify report, as {@code POST /v1/views/{view}/verify} answers it. */
  static String report(VerifyReport report) {
    return new String(VerifyReportJson.write(report), StandardCharsets.UTF_8);
  }

  /** A JSON string literal, or {@code null}. */
  static String quote(String text) {
    if (text == null) {
      return "null";
    }
    StringBuilder json = new StringBuilder(text.length() + 2).append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> json.append("\\\"");
        case '\\' -> json.append("\\\\");
        case '\n' -> json.append("\\n");
        case '\r' -> json.append("\\r");
        case '\t' -> json.append("\\t");
        default -> {
          if (c < 0x20) {
            json.append(String.format("\\u%04x", (int) c));
          } else {
            json.append(c);
          }
        }
      }
    }
    return json.append('"').toString();
  }
}
