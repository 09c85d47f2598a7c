package io.viewbase.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.viewbase.api.Change;
import io.viewbase.api.ChangePage;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.Value;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Change-feed entries and pages as JSON, the answer of {@code GET /v1/tables/{t}/changes}:
 *
 * <pre>
 * {"changes": [entry, ...], "next": 42, "oldest": 1, "latest": 57}
 *
 * entry: {"sequence": 42, "kind": "insert" | "update" | "delete" | "expire",
 *         "partitionKey": "acme", "id": "alice", "etag": "W/\"datetime'...'\"",
 *         "timestamp": "2026-11-30T12:00:00.1234567Z",
 *         "item": {...} | null,          the item after the write, as the item API writes it
 *         "before": {...},               only where the table keeps before-images (null: none)
 *         "transaction": {"first": 41, "size": 2}}
 * </pre>
 *
 * An entry is one line of {@code viewbase changes} too. Reading skips members it does not know, so
 * a newer server may add some.
 */
public final class ChangeJson {
  private ChangeJson() {}

  /** A page, as the server answers it. */
  public static byte[] write(ChangePage page) {
    return Json.write(
        g -> {
          g.writeStartObject();
          g.writeArrayFieldStart("changes");
          for (Change change : page.changes()) {
            write(g, change);
          }
          g.writeEndArray();
          g.writeNumberField("next", page.next());
          g.writeNumberField("oldest", page.oldest());
          g.writeNumberField("latest", page.latest());
          g.writeEndObject();
        });
  }

  /** One entry alone (a line of JSON Lines). */
  public static byte[] write(Change change) {
    return Json.write(g -> write(g, change));
  }

  public static ChangePage readPage(byte[] json, Limits limits) {
    ValueReader values = new ValueReader(limits);
    return Json.read(
        json,
        0,
        json.length,
        p -> {
          PageJson.expect(p, JsonToken.START_OBJECT, "A change page must be a JSON object");
          List<Change> changes = null;
          long next = 0;
          long oldest = 0;
          long latest = 0;
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            switch (name) {
              case "changes" -> {
                PageJson.expect(p, JsonToken.START_ARRAY, "\"changes\" must be a JSON array");
                changes = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                  changes.add(readObject(p, values, limits));
                }
              }
              case "next" -> next = number(p, name);
              case "oldest" -> oldest = number(p, name);
              case "latest" -> latest = number(p, name);
              default -> p.skipChildren();
            }
          }
          if (changes == null) {
            throw Json.shape(p, "A change page must have a \"changes\" array");
          }
          return new ChangePage(changes, next, oldest, latest);
        });
  }

  /** One entry, as {@link #write(Change)} wrote it. */
  public static Change read(byte[] json, Limits limits) {
    ValueReader values = new ValueReader(limits);
    return Json.read(json, 0, json.length, p -> readObject(p, values, limits));
  }

  /** The kind as the JSON names it: its constant in lower case. */
  public static String kindName(Change.Kind kind) {
    return kind.name().toLowerCase(Locale.ROOT);
  }

  private static void write(JsonGenerator g, Change c) throws IOException {
    g.writeStartObject();
    g.writeNumberField("sequence", c.sequence());
    g.writeStringField("kind", kindName(c.kind()));
    g.writeStringField("partitionKey", c.partitionKey());
    g.writeStringField("id", c.id());
    g.writeStringField("etag", c.etag());
    g.writeStringField(
        "timestamp", c.timestamp() == null ? null : Value.DateTime.isoString(c.timestamp()));
    g.writeFieldName("item");
    if (c.item() == null) {
      g.writeNull();
    } else {
      ItemJson.write(g, c.item());
    }
    if (c.before() != null) {
      g.writeFieldName("before");
      ItemJson.write(g, c.before());
    }
    g.writeObjectFieldStart("transaction");
    g.writeNumberField("first", c.transaction());
    g.writeNumberField("size", c.transactionSize());
    g.writeEndObject();
    g.writeEndObject();
  }

  private static Change readObject(JsonParser p, ValueReader values, Limits limits)
      throws IOException {
    PageJson.expect(p, JsonToken.START_OBJECT, "A change must be a JSON object");
    long sequence = -1;
    Change.Kind kind = null;
    String partitionKey = null;
    String id = null;
    String etag = null;
    Instant timestamp = null;
    Item item = null;
    Item before = null;
    long first = -1;
    int size = 0;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      p.nextToken();
      switch (name) {
        case "sequence" -> sequence = number(p, name);
        case "kind" -> kind = kind(p);
        case "partitionKey" -> partitionKey = text(p);
        case "id" -> id = text(p);
        case "etag" -> etag = text(p);
        case "timestamp" -> {
          String t = text(p);
          timestamp = t == null ? null : IsoTimes.parseInstant(t).orElse(null);
        }
        case "item" -> item = itemOrNull(p, values, limits);
        case "before" -> before = itemOrNull(p, values, limits);
        case "transaction" -> {
          PageJson.expect(p, JsonToken.START_OBJECT, "\"transaction\" must be a JSON object");
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String member = p.currentName();
            p.nextToken();
            switch (member) {
              case "first" -> first = number(p, member);
              case "size" -> size = (int) number(p, member);
              default -> p.skipChildren();
            }
          }
        }
        default -> p.skipChildren();
      }
    }
    if (sequence < 0 || kind == null || partitionKey == null || id == null) {
      throw Json.shape(p, "A change needs a sequence, a kind, a partitionKey and an id");
    }
    if (first < 0) { // a transaction of one, if the document did not say
      first = sequence;
      size = 1;
    }
    return new Change(sequence, kind, partitionKey, id, etag, timestamp, item, before, first, size);
  }

  private static Item itemOrNull(JsonParser p, ValueReader values, Limits limits)
      throws IOException {
    if (p.currentToken() == JsonToken.VALUE_NULL) {
      return null;
    }
    return ItemJson.readObject(p, values, limits).toStoredItem();
  }

  private static Change.Kind kind(JsonParser p) throws IOException {
    String text = text(p);
    if (text != null) {
      for (Change.Kind k : Change.Kind.values()) {
        if (kindName(k).equals(text)) {
          return k;
        }
      }
    }
    throw Json.shape(p, "A change's kind is insert, update, delete or expire");
  }

  private static String text(JsonParser p) throws IOException {
    return switch (p.currentToken()) {
      case VALUE_STRING -> p.getText();
      case VALUE_NULL -> null;
      default -> throw Json.shape(p, "Expected a string");
    };
  }

  private static long number(JsonParser p, String name) throws IOException {
    if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) {
      throw Json.shape(p, "\"" + name + "\" must be a whole number");
    }
    return p.getLongValue();
  }
}
