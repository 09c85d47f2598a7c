package io.viewbase.json;

import com.fasterxml.jackson.core.JsonToken;
import io.viewbase.api.BatchResult;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import java.util.ArrayList;
import java.util.List;

/**
 * What a committed batch wrote, as JSON, the answer of {@code POST /v1/batch}: {@code {"items":
 * [{stored item with _etag and _timestamp} | null, ...]}}, one entry per operation in order; null
 * for delete and check. The reader skips members it does not know, so a client keeps working
 * against a newer server.
 */
public final class BatchResultJson {
  private BatchResultJson() {}

  public static byte[] write(BatchResult result) {
    return Json.write(
        g -> {
          g.writeStartObject();
          g.writeArrayFieldStart("items");
          for (Item item : result.items()) {
            if (item == null) {
              g.writeNull();
            } else {
              ItemJson.write(g, item);
            }
          }
          g.writeEndArray();
          g.writeEndObject();
        });
  }

  public static BatchResult read(byte[] json, Limits limits) {
    ValueReader values = new ValueReader(limits);
    return Json.read(
        json,
        0,
        json.length,
        p -> {
          PageJson.expect(p, JsonToken.START_OBJECT, "A batch result must be a JSON object");
          List<Item> items = null;
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            if (!name.equals("items")) {
              p.skipChildren();
              continue;
            }
            PageJson.expect(p, JsonToken.START_ARRAY, "\"items\" must be a JSON array");
            items = new ArrayList<>();
            while (p.nextToken() != JsonToken.END_ARRAY) {
              items.add(
                  p.currentToken() == JsonToken.VALUE_NULL
                      ? null
                      : ItemJson.readObject(p, values, limits).toStoredItem());
            }
          }
          if (items == null) {
            throw Json.shape(p, "A batch result must have an \"items\" array");
          }
          return new BatchResult(items);
        });
  }
}
