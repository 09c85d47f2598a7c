package io.viewbase.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.viewbase.api.VerifyReport;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What a view verification found, as JSON, the answer of {@code POST /v1/views/{view}/verify}:
 * {@code {"view", "checked", "missing", "extra", "different", "drift", "repaired", "samples":
 * [{"kind", "viewPartitionKey", "viewId", "sourcePartitionKey", "sourceId"}]}}. {@code drift} is
 * the sum of the three counts, written for readers; it is not read back.
 */
public final class VerifyReportJson {
  private VerifyReportJson() {}

  public static byte[] write(VerifyReport report) {
    return Json.write(
        g -> {
          g.writeStartObject();
          g.writeStringField("view", report.view());
          g.writeNumberField("checked", report.checked());
          g.writeNumberField("missing", report.missing());
          g.writeNumberField("extra", report.extra());
          g.writeNumberField("different", report.different());
          g.writeNumberField("drift", report.drift());
          g.writeBooleanField("repaired", report.repaired());
          g.writeArrayFieldStart("samples");
          for (VerifyReport.Difference d : report.samples()) {
            g.writeStartObject();
            g.writeStringField("kind", d.kind());
            g.writeStringField("viewPartitionKey", d.viewPartitionKey());
            g.writeStringField("viewId", d.viewId());
            g.writeStringField("sourcePartitionKey", d.sourcePartitionKey());
            g.writeStringField("sourceId", d.sourceId());
            g.writeEndObject();
          }
          g.writeEndArray();
          g.writeEndObject();
        });
  }

  public static VerifyReport read(byte[] json) {
    return Json.read(
        json,
        0,
        json.length,
        p -> {
          PageJson.expect(p, JsonToken.START_OBJECT, "A verify report must be a JSON object");
          String view = null;
          long checked = 0;
          long missing = 0;
          long extra = 0;
          long different = 0;
          boolean repaired = false;
          List<VerifyReport.Difference> samples = List.of();
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String member = p.currentName();
            p.nextToken();
            switch (member) {
              case "view" -> view = p.getValueAsString();
              case "checked" -> checked = p.getValueAsLong();
              case "missing" -> missing = p.getValueAsLong();
              case "extra" -> extra = p.getValueAsLong();
              case "different" -> different = p.getValueAsLong();
              case "repaired" -> repaired = p.getValueAsBoolean();
              case "samples" -> samples = readSamples(p);
              default -> p.skipChildren();
            }
          }
          if (view == null) {
            throw Json.shape(p, "A verify report must name its \"view\"");
          }
          return new VerifyReport(view, checked, missing, extra, different, repaired, samples);
        });
  }

  private static List<VerifyReport.Difference> readSamples(JsonParser p) throws IOException {
    PageJson.expect(p, JsonToken.START_ARRAY, "\"samples\" must be a JSON array");
    List<VerifyReport.Difference> samples = new ArrayList<>();
    while (p.nextToken() != JsonToken.END_ARRAY) {
      PageJson.expect(p, JsonToken.START_OBJECT, "A sample must be a JSON object");
      String kind = null;
      String viewPartitionKey = null;
      String viewId = null;
      String sourcePartitionKey = null;
      String sourceId = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String member = p.currentName();
        p.nextToken();
        String text = p.currentToken() == JsonToken.VALUE_STRING ? p.getText() : null;
        switch (member) {
          case "kind" -> kind = text;
          case "viewPartitionKey" -> viewPartitionKey = text;
          case "viewId" -> viewId = text;
          case "sourcePartitionKey" -> sourcePartitionKey = text;
          case "sourceId" -> sourceId = text;
          default -> p.skipChildren();
        }
      }
      samples.add(
          new VerifyReport.Difference(
              kind, viewPartitionKey, viewId, sourcePartitionKey, sourceId));
    }
    return samples;
  }
}
