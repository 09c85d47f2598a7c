package io.viewbase.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.viewbase.api.TableInfo;
import io.viewbase.api.TableOptions;
import io.viewbase.api.Value;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Table descriptions as JSON: {@code {"name", "kind", "source", "state", "created"}}, and lists of
 * them as {@code {"tables": [...]}}. The description of one table ({@code GET /v1/tables/{t}}) adds
 * its {@code "options"} ({@link TableOptionsJson}).
 */
public final class TableInfoJson {
  private TableInfoJson() {}

  public static byte[] write(TableInfo info) {
    return Json.write(g -> write(g, info));
  }

  /** One table's description with its options ({@code "options"}; left out when null). */
  public static byte[] write(TableInfo info, TableOptions options) {
    return Json.write(
        g -> {
          g.writeStartObject();
          writeMembers(g, info);
          if (options != null) {
            g.writeFieldName("options");
            TableOptionsJson.write(g, options);
          }
          g.writeEndObject();
        });
  }

  public static byte[] writeList(List<TableInfo> tables) {
    return Json.write(
        g -> {
          g.writeStartObject();
          g.writeArrayFieldStart("tables");
          for (TableInfo info : tables) {
            write(g, info);
          }
          g.writeEndArray();
          g.writeEndObject();
        });
  }

  public static TableInfo read(byte[] json) {
    return Json.read(json, 0, json.length, TableInfoJson::readObject);
  }

  public static List<TableInfo> readList(byte[] json) {
    return Json.read(
        json,
        0,
        json.length,
        p -> {
          PageJson.expect(p, JsonToken.START_OBJECT, "A table list must be a JSON object");
          List<TableInfo> tables = null;
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            if (name.equals("tables")) {
              PageJson.expect(p, JsonToken.START_ARRAY, "\"tables\" must be a JSON array");
              tables = new ArrayList<>();
              while (p.nextToken() != JsonToken.END_ARRAY) {
                tables.add(readObject(p));
              }
            } else {
              p.skipChildren();
            }
          }
          if (tables == null) {
            throw Json.shape(p, "A table list must have a \"tables\" array");
          }
          return tables;
        });
  }

  private static void write(JsonGenerator g, TableInfo info) throws IOException {
    g.writeStartObject();
    writeMembers(g, info);
    g.writeEndObject();
  }

  private static void writeMembers(JsonGenerator g, TableInfo info) throws IOException {
    g.writeStringField("name", info.name());
    g.writeStringField("kind", info.kind());
    g.writeStringField("source", info.source());
    g.writeStringField("state", info.state());
    g.writeStringField(
        "created", info.created() == null ? null : Value.DateTime.isoString(info.created()));
  }

  private static TableInfo readObject(JsonParser p) throws IOException {
    PageJson.expect(p, JsonToken.START_OBJECT, "A table description must be a JSON object");
    String name = null;
    String kind = null;
    String source = null;
    String state = null;
    Instant created = null;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      p.nextToken();
      String text = p.currentToken() == JsonToken.VALUE_STRING ? p.getText() : null;
      switch (field) {
        case "name" -> name = text;
        case "kind" -> kind = text;
        case "source" -> source = text;
        case "state" -> state = text;
        case "created" -> created = text == null ? null : IsoTimes.parseInstant(text).orElse(null);
        default -> p.skipChildren();
      }
    }
    if (name == null) {
      throw Json.shape(p, "A table description must have a \"name\"");
    }
    return new TableInfo(name, kind, source, state, created);
  }
}
