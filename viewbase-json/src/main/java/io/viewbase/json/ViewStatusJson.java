package io.viewbase.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.viewbase.api.Value;
import io.viewbase.api.ViewStatus;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A view's status as JSON, the answer of {@code GET /v1/views/{view}}:
 *
 * <pre>
 * {"name": "PeopleByEmail", "source": "People", "partitionBy": "all", "idBy": "{email}",
 *  "where": null, "select": [], "kind": "copy", "retention": null, "state": "building",
 *  "progress": {"done": 1200, "total": 5000, "itemsPerSecond": 40000.0, "etaSeconds": 1},
 *  "conflicts": [{"viewPartitionKey", "viewId", "sourcePartitionKey", "sourceId",
 *                 "otherSourcePartitionKey", "otherSourceId"}],
 *  "created": "2026-11-30T12:00:00.1234567Z"}
 * </pre>
 *
 * The reader skips members it does not know, so a client keeps working against a newer server.
 */
public final class ViewStatusJson {
  private ViewStatusJson() {}

  public static byte[] write(ViewStatus status) {
    return Json.write(
        g -> {
          g.writeStartObject();
          ViewDefinitionJson.writeMembers(g, status.definition());
          g.writeStringField("state", status.state());
          writeProgress(g, status.progress());
          g.writeArrayFieldStart("conflicts");
          for (ViewStatus.Conflict c : status.conflicts()) {
            g.writeStartObject();
            g.writeStringField("viewPartitionKey", c.viewPartitionKey());
            g.writeStringField("viewId", c.viewId());
            g.writeStringField("sourcePartitionKey", c.sourcePartitionKey());
            g.writeStringField("sourceId", c.sourceId());
            g.writeStringField("otherSourcePartitionKey", c.otherSourcePartitionKey());
            g.writeStringField("otherSourceId", c.otherSourceId());
            g.writeEndObject();
          }
          g.writeEndArray();
          g.writeStringField(
              "created",
              status.created() == null ? null : Value.DateTime.isoString(status.created()));
          g.writeEndObject();
        });
  }

  private static void writeProgress(JsonGenerator g, ViewStatus.Progress progress)
      throws IOException {
    if (progress == null) {
      g.writeNullField("progress");
      return;
    }
    g.writeObjectFieldStart("progress");
    g.writeNumberField("done", progress.done());
    g.writeNumberField("total", progress.total());
    double rate = progress.itemsPerSecond();
    g.writeNumberField("itemsPerSecond", Double.isFinite(rate) ? rate : 0.0);
    g.writeNumberField("etaSeconds", progress.etaSeconds());
    g.writeEndObject();
  }

  public static ViewStatus read(byte[] json) {
    return Json.read(json, 0, json.length, ViewStatusJson::readObject);
  }

  private static ViewStatus readObject(JsonParser p) throws IOException {
    PageJson.expect(p, JsonToken.START_OBJECT, "A view status must be a JSON object");
    ViewDefinitionJson.Fields definition = new ViewDefinitionJson.Fields();
    String state = null;
    ViewStatus.Progress progress = null;
    List<ViewStatus.Conflict> conflicts = List.of();
    Instant created = null;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String member = p.currentName();
      p.nextToken();
      if (definition.read(p, member)) {
        continue;
      }
      switch (member) {
        case "state" -> state = p.currentToken() == JsonToken.VALUE_STRING ? p.getText() : skip(p);
        case "progress" -> progress = readProgress(p);
        case "conflicts" -> conflicts = readConflicts(p);
        case "created" ->
            created =
                p.currentToken() == JsonToken.VALUE_STRING
                    ? IsoTimes.parseInstant(p.getText()).orElse(null)
                    : null;
        default -> p.skipChildren();
      }
    }
    if (definition.name == null || state == null) {
      throw Json.shape(p, "A view status must have a \"name\" and a \"state\"");
    }
    return new ViewStatus(definition.toDefinition(), state, progress, conflicts, created);
  }

  private static String skip(JsonParser p) throws IOException {
    p.skipChildren();
    return null;
  }

  private static ViewStatus.Progress readProgress(JsonParser p) throws IOException {
    if (p.currentToken() == JsonToken.VALUE_NULL) {
      return null;
    }
    PageJson.expect(p, JsonToken.START_OBJECT, "\"progress\" must be a JSON object");
    long done = 0;
    long total = 0;
    double rate = 0;
    long eta = -1;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String member = p.currentName();
      p.nextToken();
      switch (member) {
        case "done" -> done = p.getValueAsLong();
        case "total" -> total = p.getValueAsLong();
        case "itemsPerSecond" -> rate = p.getValueAsDouble();
        case "etaSeconds" -> eta = p.getValueAsLong(-1);
        default -> p.skipChildren();
      }
    }
    return new ViewStatus.Progress(done, total, rate, eta);
  }

  private static List<ViewStatus.Conflict> readConflicts(JsonParser p) throws IOException {
    PageJson.expect(p, JsonToken.START_ARRAY, "\"conflicts\" must be a JSON array");
    List<ViewStatus.Conflict> conflicts = new ArrayList<>();
    while (p.nextToken() != JsonToken.END_ARRAY) {
      PageJson.expect(p, JsonToken.START_OBJECT, "A conflict must be a JSON object");
      String[] f = new String[6];
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String member = p.currentName();
        p.nextToken();
        int i =
            switch (member) {
              case "viewPartitionKey" -> 0;
              case "viewId" -> 1;
              case "sourcePartitionKey" -> 2;
              case "sourceId" -> 3;
              case "otherSourcePartitionKey" -> 4;
              case "otherSourceId" -> 5;
              default -> -1;
            };
        if (i >= 0 && p.currentToken() == JsonToken.VALUE_STRING) {
          f[i] = p.getText();
        } else {
          p.skipChildren();
        }
      }
      conflicts.add(new ViewStatus.Conflict(f[0], f[1], f[2], f[3], f[4], f[5]));
    }
    return conflicts;
  }
}
