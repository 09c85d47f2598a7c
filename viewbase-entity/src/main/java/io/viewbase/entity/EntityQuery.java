package io.viewbase.entity;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Page;
import io.viewbase.api.Query;
import io.viewbase.api.Stability;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import io.viewbase.filter.Filter;
import io.viewbase.filter.Filters;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A query of one index: one partition (every partition-key attribute given), narrowed by sort-key
 * attributes. Each condition becomes a key prefix or key range of the index, never a scan.
 *
 * <pre>
 * condition        | reads ids of the partition                          | example, sort key [name, joined]
 * -----------------+-----------------------------------------------------+-----------------------------------
 * (key only)       | starting with the given leading values exactly      | {name: Ann} -> "$user_1#name_Ann#joined_"
 * begins(v)        | starting with the text of v                         | {name: An}  -> "$user_1#name_An"
 * gte(v), gt(v)    | from the text of v; gt skips items equal to v       |
 * lte(v), lt(v)    | up to the text of v; lte keeps items equal to v     |
 * between(a, b)    | gte(a) and lte(b)                                   |
 * where(filter)    | the above, filtered by an OData $filter over stored fields |
 * </pre>
 *
 * Range and begins values follow the leading values the key gave. Keys compare as text, so numbers
 * compare as numbers only when padded to one width (and non-negative), or in a template's {@code
 * ${attribute|key}} slot, whose sortable text is in value order for every number and string.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class EntityQuery<T> {
  private final EntityClient<T> client;
  private final IndexLayout layout;
  private final Map<String, Value> key;
  private String prefix;
  private String from;
  private String to;

  /** The key gave the whole sort key of a unique (or the primary) index: one item at most. */
  private boolean exact;

  private String where;
  private boolean descending;
  private int limit = Query.DEFAULT_LIMIT;
  private final String partitionKey;

  EntityQuery(EntityClient<T> client, IndexLayout layout, Map<String, Value> key) {
    this.client = client;
    this.layout = layout;
    this.key = key;
    for (String name : key.keySet()) {
      if (!isComposite(layout.pk(), name) && !isComposite(layout.sk(), name)) {
        throw invalid(
            "The key of a query of index '"
                + layout.index().name()
                + "' names '"
                + name
                + "', which is not one of its key attributes");
      }
    }
    this.partitionKey = layout.pk().render(key);
    if (partitionKey == null) {
      throw invalid(
          "A query of index '"
              + layout.index().name()
              + "' needs every partition-key attribute: "
              + layout.pk().composites().stream().map(Attribute::name).toList());
    }
    checkLeading(key);
    KeyFormat.Rendered sk = layout.sk().renderPrefix(key);
    if (!sk.complete()) {
      prefix = sk.loose();
    } else if (layout.index().primary() || layout.unique()) {
      prefix = sk.tight();
      exact = true;
    } else {
      prefix = sk.tight() + KeyFormat.SEPARATOR;
    }
  }

  public EntityQuery<T> begins(Map<String, ?> values) {
    prefix = KeyFormat.begins(bound(values, "begins"));
    exact = false;
    return this;
  }

  public EntityQuery<T> gte(Map<String, ?> values) {
    from = bound(values, "gte").tight();
    exact = false;
    return this;
  }

  public EntityQuery<T> gt(Map<String, ?> values) {
    from = KeyFormat.after(bound(values, "gt"));
    exact = false;
    return this;
  }

  public EntityQuery<T> lte(Map<String, ?> values) {
    to = KeyFormat.after(bound(values, "lte"));
    exact = false;
    return this;
  }

  public EntityQuery<T> lt(Map<String, ?> values) {
    to = bound(values, "lt").tight();
    exact = false;
    return this;
  }

  /** Both ends included. */
  public EntityQuery<T> between(Map<String, ?> low, Map<String, ?> high) {
    return gte(low).lte(high);
  }

  /** An OData $filter over stored fields, applied to the items the key selects. */
  public EntityQuery<T> where(String filter) {
    this.where = filter;
    return this;
  }

  public EntityQuery<T> descending() {
    this.descending = true;
    return this;
  }

  /** Largest page, 1..1000. */
  public EntityQuery<T> limit(int pageSize) {
    this.limit = pageSize;
    return this;
  }

  public EntityPage<T> page() {
    return page(null);
  }

  /** One page; {@code cursor} is the previous page's cursor, or null for the first. */
  public EntityPage<T> page(String cursor) {
    Page page =
        client.bound().tableFor(client.entity(), layout).query(toQuery().withContinuation(cursor));
    List<T> items = new ArrayList<>(page.items().size());
    for (Item item : page.items()) {
      items.add(client.value(item));
    }
    return new EntityPage<>(items, page.continuation());
  }

  /** Every matching item, following cursors. */
  public List<T> all() {
    List<T> out = new ArrayList<>();
    String cursor = null;
    do {
      EntityPage<T> page = page(cursor);
      out.addAll(page.items());
      cursor = page.cursor();
    } while (cursor != null);
    return out;
  }

  /** The database query this index query runs. */
  Query toQuery() {
    Query q = Query.partition(partitionKey).withLimit(limit).descending(descending);
    Filter required = layout.index().primary() ? client.entity().identity() : null;
    if (exact) {
      required =
          Filters.and(required, new Filter.Compare("RowKey", Filter.Op.EQ, Value.of(prefix)));
      q = q.withPrefix(prefix);
    } else {
      q = q.withPrefix(prefix).withRange(from, to);
    }
    String filter = Entity.allOf(required, where);
    return filter == null ? q : q.withFilter(filter);
  }

  private KeyFormat.Rendered bound(Map<String, ?> values, String operation) {
    Map<String, Value> merged = new LinkedHashMap<>(key);
    merged.putAll(client.entity().mapper().keyValues(values));
    checkLeading(merged);
    for (String name : values.keySet()) {
      if (!isComposite(layout.sk(), name)) {
        throw invalid(
            operation
                + " names '"
                + name
                + "', which is not a sort-key attribute of index '"
                + layout.index().name()
                + "'");
      }
    }
    return layout.sk().renderPrefix(merged);
  }

  private static boolean isComposite(KeyFormat format, String name) {
    return format.composites().stream().anyMatch(a -> a.name().equals(name));
  }

  /** Sort-key values must be leading ones: a value after a gap could not narrow the key text. */
  private void checkLeading(Map<String, Value> values) {
    boolean gap = false;
    for (Attribute a : layout.sk().composites()) {
      boolean given = values.containsKey(a.name());
      if (given && gap) {
        throw invalid(
            "The sort key of index '"
                + layout.index().name()
                + "' is "
                + layout.sk().composites().stream().map(Attribute::name).toList()
                + ": give its attributes in order, without gaps ('"
                + a.name()
                + "' follows a missing one)");
      }
      gap |= !given;
    }
  }

  private ViewbaseException invalid(String message) {
    return ViewbaseException.of(
        ErrorCode.InvalidInput,
        message,
        "entity",
        client.entity().name(),
        "index",
        layout.index().name());
  }
}
