package io.viewbase.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.Page;
import io.viewbase.api.QueryPlan;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** A query page as JSON: {@code {"items": [...], "continuation": "..." | null}}. */
public final class PageJson {
  private PageJson() {}

  public static byte[] write(Page page) {
    return write(page, null);
  }

  /**
   * The page, with the query plan as {@code "plan": {kind, source, description, reason}} when
   * given. Written without a Jackson generator, like a point read's item (a page is up to a
   * thousand of them); {@link #writeWithGenerator} is what it must equal, byte for byte.
   */
  public static byte[] write(Page page, QueryPlan plan) {
    JsonBytes out = JsonBytes.scratch();
    out.startObject().name("items").startArray();
    boolean comma = false;
    for (Item item : page.items()) {
      if (comma) {
        out.comma();
      }
      comma = true;
      ItemJson.write(out, item);
    }
    out.endArray().comma().name("continuation");
    if (page.continuation() == null) {
      out.nullValue();
    } else {
      out.string(page.continuation());
    }
    if (plan != null) {
      out.comma().name("plan").startObject();
      member(out.name("kind"), plan.kind()).comma();
      member(out.name("source"), plan.source()).comma();
      member(out.name("description"), plan.description()).comma();
      member(out.name("reason"), plan.reason());
      out.endObject();
    }
    return out.endObject().toByteArray();
  }

  private static JsonBytes member(JsonBytes out, String value) {
    return value == null ? out.nullValue() : out.string(value);
  }

  static byte[] writeWithGenerator(Page page, QueryPlan plan) {
    return Json.write(
        g -> {
          g.writeStartObject();
          g.writeArrayFieldStart("items");
          for (Item item : page.items()) {
            ItemJson.write(g, item);
          }
          g.writeEndArray();
          g.writeStringField("continuation", page.continuation());
          if (plan != null) {
            g.writeObjectFieldStart("plan");
            g.writeStringField("kind", plan.kind());
            g.writeStringField("source", plan.source());
            g.writeStringField("description", plan.description());
            g.writeStringField("reason", plan.reason());
            g.writeEndObject();
          }
          g.writeEndObject();
        });
  }

  /** The plan a page written with {@code explain=true} carries, or null. */
  public static QueryPlan readPlan(byte[] json) {
    return Json.read(
        json,
        0,
        json.length,
        p -> {
          expect(p, JsonToken.START_OBJECT, "A page must be a JSON object");
          QueryPlan plan = null;
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            if (name.equals("plan") && p.currentToken() == JsonToken.START_OBJECT) {
              String kind = null;
              String source = null;
              String description = null;
              String reason = null;
              while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                switch (field) {
                  case "kind" -> kind = p.getValueAsString();
                  case "source" -> source = p.getValueAsString();
                  case "description" -> description = p.getValueAsString();
                  case "reason" -> reason = p.getValueAsString();
                  default -> p.skipChildren();
                }
              }
              plan = new QueryPlan(kind, source, description, reason);
            } else {
              p.skipChildren();
            }
          }
          return plan;
        });
  }

  public static Page read(byte[] json, Limits limits) {
    ValueReader values = new ValueReader(limits);
    return Json.read(
        json,
        0,
        json.length,
        p -> {
          expect(p, JsonToken.START_OBJECT, "A page must be a JSON object");
          List<Item> items = null;
          String continuation = null;
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            switch (name) {
              case "items" -> items = readItems(p, values, limits);
              case "continuation" ->
                  continuation =
                      p.currentToken() == JsonToken.VALUE_NULL ? null : p.getValueAsString();
              default -> p.skipChildren(); // newer servers may add members
            }
          }
          if (items == null) {
            throw Json.shape(p, "A page must have an \"items\" array");
          }
          return new Page(items, continuation);
        });
  }

  private static List<Item> readItems(JsonParser p, ValueReader values, Limits limits)
      throws IOException {
    expect(p, JsonToken.START_ARRAY, "\"items\" must be a JSON array");
    List<Item> items = new ArrayList<>();
    while (p.nextToken() != JsonToken.END_ARRAY) {
      items.add(ItemJson.readObject(p, values, limits).toStoredItem());
    }
    return items;
  }

  static void expect(JsonParser p, JsonToken token, String message) {
    if (p.currentToken() != token) {
      throw Json.shape(p, message);
    }
  }
}
