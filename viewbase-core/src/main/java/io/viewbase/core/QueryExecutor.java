package io.viewbase.core;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.Page;
import io.viewbase.api.Query;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import io.viewbase.storage.spi.Bytes;
import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.Store;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Runs partition queries (an id range or prefix within one partition, ascending or descending)
 * and table scans (every partition of a table), one bounded page at a time. A page ends at the
 * query's limit or at {@link #PAGE_BYTE_BUDGET} bytes of stored items, whichever comes first, so
 * the memory a request holds is bounded whatever the items' sizes; a continuation token is issued
 * only when more items exist.
 */
final class QueryExecutor {
  /** Stored bytes one page may hold; at least one item is always returned. */
  static final int PAGE_BYTE_BUDGET = 4 << 20;

  private final Store store;
  private final ContinuationCodec tokens;
  private final Limits limits;
  private final ItemRules rules;

  QueryExecutor(Store store, ContinuationCodec tokens, Limits limits, ItemRules rules) {
    this.store = store;
    this.tokens = tokens;
    this.limits = limits;
    this.rules = rules;
  }

  Page run(TableEntry table, Query query) {
    validate(query);
    return query.partitionKey() == null ? scan(table, query) : partition(table, query);
  }

  private void validate(Query query) {
    if (query.limit() < 1 || query.limit() > limits.maxPageSize()) {
      throw ViewbaseException.of(ErrorCode.InvalidQuery, "limit must be between 1 and " + limits.maxPageSize(),
          "limit", query.limit());
    }
    if (query.filter() != null && !query.filter().isBlank()) {
      throw new ViewbaseException(ErrorCode.NotImplemented,
          "$filter is not supported by this version yet; query by partition key with from/to/prefix");
    }
    if (query.partitionKey() == null
        && (query.from() != null || query.to() != null || query.prefix() != null || query.descending())) {
      throw new ViewbaseException(ErrorCode.InvalidQuery,
          "from, to, prefix and desc apply to a partition query; give a partition key");
    }
    if (query.partitionKey() != null) {
      rules.checkKey("partitionKey", query.partitionKey());
    }
  }

  private Page partition(TableEntry table, Query query) {
    byte[] partition = KeyLayout.partition(table.id(), query.partitionKey());
    KeyRange range = rangeOf(query);
    int fingerprint = fingerprint(query);
    if (query.continuation() != null) {
      ContinuationCodec.Position after = tokens.decode(query.continuation(), table.id(), fingerprint, false);
      range = query.descending() ? range.before(after.key()) : range.after(after.key());
    }
    if (range.isEmpty()) {
      return new Page(List.of(), null);
    }
    try (Cursor cursor = store.scan(partition, range, query.descending())) {
      return collect(table, query, cursor, fingerprint, false);
    }
  }

  private Page scan(TableEntry table, Query query) {
    int fingerprint = fingerprint(query);
    byte[] afterPartition = null;
    byte[] afterKey = null;
    if (query.continuation() != null) {
      ContinuationCodec.Position after = tokens.decode(query.continuation(), table.id(), fingerprint, true);
      afterPartition = after.partition();
      afterKey = after.key();
    }
    try (Cursor cursor = store.scanAll(table.prefix(), afterPartition, afterKey)) {
      return collect(table, query, cursor, fingerprint, true);
    }
  }

  private Page collect(TableEntry table, Query query, Cursor cursor, int fingerprint, boolean acrossPartitions) {
    List<Item> items = new ArrayList<>(Math.min(query.limit(), 64));
    long bytes = 0;
    byte[] lastPartition = null;
    byte[] lastKey = null;
    while (cursor.next()) {
      if (items.size() >= query.limit() || bytes >= PAGE_BYTE_BUDGET) {
        // One more entry exists: the page is full and the query continues after the last item.
        ContinuationCodec.Position position =
            new ContinuationCodec.Position(acrossPartitions ? lastPartition : null, lastKey);
        return new Page(items, tokens.encode(table.id(), fingerprint, position));
      }
      byte[] value = cursor.value();
      lastPartition = cursor.partition();
      lastKey = cursor.key();
      bytes += value.length + lastKey.length;
      items.add(project(StoredItems.toItem(KeyLayout.partitionKeyOf(lastPartition), KeyLayout.idOf(lastKey),
          cursor.version(), value), query.select()));
    }
    return new Page(items, null);
  }

  private static Item project(Item item, List<String> select) {
    if (select.isEmpty()) {
      return item;
    }
    Map<String, Value> kept = new LinkedHashMap<>();
    for (String name : select) {
      Value v = item.properties().get(name);
      if (v != null) {
        kept.put(name, v);
      }
    }
    return item.withProperties(kept);
  }

  /** The id range a partition query reads: [from, to) intersected with the prefix's range. */
  static KeyRange rangeOf(Query query) {
    byte[] lower = query.from() == null ? null : utf8(query.from());
    byte[] upper = query.to() == null ? null : utf8(query.to());
    if (query.prefix() != null && !query.prefix().isEmpty()) {
      byte[] prefix = utf8(query.prefix());
      byte[] prefixEnd = Bytes.prefixEnd(prefix);
      if (lower == null || Arrays.compareUnsigned(prefix, lower) > 0) {
        lower = prefix;
      }
      if (prefixEnd != null && (upper == null || Arrays.compareUnsigned(prefixEnd, upper) < 0)) {
        upper = prefixEnd;
      }
    }
    return KeyRange.halfOpen(lower, upper);
  }

  /** Binds a token to the query that issued it (the parts that decide which items follow). */
  private static int fingerprint(Query query) {
    return Objects.hash(query.partitionKey(), query.from(), query.to(), query.prefix(), query.descending());
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
