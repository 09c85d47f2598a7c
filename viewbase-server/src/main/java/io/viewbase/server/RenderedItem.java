package io.viewbase.server;

import io.viewbase.api.Item;
import io.viewbase.api.ItemMapping;
import io.viewbase.json.ItemJson;
import java.util.Map;

/**
 * A stored item as the native API answers a read of it: its JSON body and its {@code ETag}
 * header. Made by {@link #MAPPING} through {@link io.viewbase.api.Table#get(String, String, ItemMapping)},
 * so that while the database caches the item, a repeat read sends the bytes rendered the first
 * time instead of decoding and rendering the item again. Never changed once made: the body may go
 * to many connections.
 */
record RenderedItem(byte[] body, Map<String, String> headers) {
  /** Renders an item as {@code GET /v1/tables/{t}/items/{pk}/{id}} answers it. */
  static final ItemMapping<RenderedItem> MAPPING = new Mapping();

  static RenderedItem of(Item item) {
    return new RenderedItem(ItemJson.write(item), Map.of("ETag", item.etag()));
  }

  /** Stateless, so one instance, equal only to itself. */
  private static final class Mapping implements ItemMapping<RenderedItem> {
    @Override
    public RenderedItem map(Item item) {
      return of(item);
    }

    @Override
    public long weight(RenderedItem r) {
      // the record, the body array, a one-entry map, and the ETag string with its array
      return 16 + 16 + r.body.length + 24 + 40 + r.headers.get("ETag").length();
    }
  }
}
