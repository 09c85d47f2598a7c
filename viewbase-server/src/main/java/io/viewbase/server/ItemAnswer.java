package io.viewbase.server;

import io.viewbase.api.Item;
import io.viewbase.api.ItemMapping;
import io.viewbase.json.ItemJson;
import java.util.Map;

/**
 * The native API's answer that carries one stored item: its JSON body and its {@code ETag} header.
 * A point read gets it through {@link io.viewbase.api.Table#get(String, String, ItemMapping)} with
 * {@link #READ}, so that while the database caches the item, a repeat read sends the answer made
 * the first time, not decoding and rendering the item again. Such an answer goes to many
 * connections: nothing may change its body.
 */
final class ItemAnswer {
  /** Makes the 200 answer of {@code GET /v1/tables/{t}/items/{pk}/{id}}. */
  static final ItemMapping<ApiResponse> READ = new Read();

  private ItemAnswer() {}

  static ApiResponse of(int status, Item item) {
    // encoded once: a point read's answer is cached and sent again by every read of the item
    return new ApiResponse(
        status,
        ApiResponse.JSON,
        ItemJson.write(item),
        HeaderLines.of(Map.of("ETag", item.etag())));
  }

  /** Stateless, so one instance, equal only to itself. */
  private static final class Read implements ItemMapping<ApiResponse> {
    @Override
    public ApiResponse map(Item item) {
      return of(200, item);
    }

    @Override
    public long weight(ApiResponse answer) {
      // the record, the body array, the headers (a one-entry map and its encoded line), and the
      // ETag string with its array
      String etag = answer.headers().get("ETag");
      return 32
          + 16
          + answer.body().length
          + 24
          + 24
          + 16
          + (etag.length() + 8)
          + 40
          + etag.length();
    }
  }
}
