package io.viewbase.core;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.PropertyName;
import io.viewbase.api.TimeToLive;
import io.viewbase.api.Value;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewbaseException;
import io.viewbase.filter.Filter;
import io.viewbase.filter.Filters;
import io.viewbase.filter.PreparedFilter;
import io.viewbase.filter.SystemProperty;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A view definition compiled for use on every write: its kind, key templates, filter and
 * projection. Pure: it computes the view entry a source item implies and reads nothing.
 *
 * <pre>
 * kind       | partitionBy (default)         | id                                 | select
 * -----------+-------------------------------+------------------------------------+--------
 * copy       | any template ({partitionKey}) | idBy ({id})                        | allowed
 * history    | any template                  | {@link #historyId}: version, then  | allowed
 *            |   ({partitionKey}#{id})       |   the source identity (no idBy)    |
 * partitions | literal text and {partitionKey} | the source partition key (no     | refused
 *            |   only ("all")                |   idBy)                            |
 * </pre>
 */
final class ViewSpec {
  /** Where a source item lands in the view. */
  record ViewKey(String partitionKey, String id) {}

  /** A history entry's operation: the write's kind, or {@code backfill} for a copied item. */
  static final String OPERATION = "_operation";

  /** A history tombstone's mark: the item was deleted or left the view (true; else absent). */
  static final String DELETED = "_deleted";

  /** A partitions entry's item count (an int64). */
  static final String COUNT = "count";

  /**
   * How far the backfill has counted a partitions entry's source partition, only while it builds:
   * the last source id counted, null before the first; absent once the partition is counted.
   */
  static final String COUNTED_THROUGH = "_countedThrough";

  /** The operation of a history entry the backfill wrote for an item that existed. */
  static final String BACKFILL = "backfill";

  private final ViewDefinition definition;
  private final ViewDefinition.Kind kind;
  private final KeyTemplate partitionBy;
  private final KeyTemplate idBy;
  private final Filter where;

  /** {@link #where}, prepared once for testing every write; null without one. */
  private final PreparedFilter preparedWhere;

  private final List<String> select;

  private ViewSpec(
      ViewDefinition definition, KeyTemplate partitionBy, KeyTemplate idBy, Filter where) {
    this.definition = definition;
    this.kind = definition.kind();
    this.partitionBy = partitionBy;
    this.idBy = idBy;
    this.where = where;
    this.preparedWhere = where == null ? null : PreparedFilter.of(where);
    this.select = definition.select();
  }

  /** Compiles a definition, failing with InvalidView on a bad template, filter or projection. */
  static ViewSpec compile(ViewDefinition definition) {
    ViewDefinition.Kind kind = definition.kind();
    if (kind != ViewDefinition.Kind.COPY && definition.idBy() != null) {
      throw ViewbaseException.of(
          ErrorCode.InvalidView,
          "Only copy views take idBy: a "
              + kind.text()
              + " view's ids are "
              + (kind == ViewDefinition.Kind.HISTORY ? "versions" : "source partition keys"),
          "field",
          "idBy",
          "kind",
          kind.text());
    }
    if (kind == ViewDefinition.Kind.PARTITIONS && !definition.select().isEmpty()) {
      throw ViewbaseException.of(
          ErrorCode.InvalidView,
          "A partitions view holds counts, not properties: select does not apply",
          "field",
          "select",
          "kind",
          kind.text());
    }
    checkRetention(definition);
    String defaultPartition =
        switch (kind) {
          case COPY -> "{partitionKey}";
          case HISTORY -> "{partitionKey}#{id}";
          case PARTITIONS -> "all";
        };
    KeyTemplate partitionBy =
        KeyTemplate.parse(
            definition.partitionBy() == null ? defaultPartition : definition.partitionBy(),
            "partitionBy");
    if (kind == ViewDefinition.Kind.PARTITIONS && !onlyPartitionKey(partitionBy)) {
      throw ViewbaseException.of(
          ErrorCode.InvalidView,
          "A partitions view's partitionBy may hold literal text and {partitionKey} only: "
              + "its entries count whole source partitions",
          "field",
          "partitionBy",
          "template",
          definition.partitionBy());
    }
    KeyTemplate idBy =
        KeyTemplate.parse(
            kind != ViewDefinition.Kind.COPY || definition.idBy() == null
                ? "{id}"
                : definition.idBy(),
            "idBy");
    Filter where =
        definition.where() == null || definition.where().isBlank()
            ? null
            : parseWhere(definition.where());
    for (String name : definition.select()) {
      if (name == null || name.isEmpty() || PropertyName.isReserved(name)) {
        throw ViewbaseException.of(
            ErrorCode.InvalidView,
            "select names user properties (not empty, not starting with '_', not partitionKey or id)",
            "field",
            "select",
            "property",
            name);
      }
    }
    return new ViewSpec(definition, partitionBy, idBy, where);
  }

  /**
   * The where filter, in the $filter language; Timestamp is refused (it changes with every write).
   */
  private static Filter parseWhere(String text) {
    Filter filter;
    try {
      filter = Filters.parse(text);
    } catch (ViewbaseException e) {
      throw new ViewbaseException(
          ErrorCode.InvalidView,
          "The where filter does not parse: " + e.getMessage(),
          withField(e.context()));
    }
    for (String name : Filters.properties(filter)) {
      if (Filters.system(name).filter(s -> s == SystemProperty.TIMESTAMP).isPresent()) {
        throw ViewbaseException.of(
            ErrorCode.InvalidView,
            "A view's where cannot depend on the timestamp",
            "field",
            "where",
            "where",
            text);
      }
    }
    return filter;
  }

  private static Map<String, Object> withField(Map<String, Object> context) {
    Map<String, Object> out = new LinkedHashMap<>(context);
    out.put("field", "where");
    return out;
  }

  private static void checkRetention(ViewDefinition definition) {
    ViewDefinition.Retention r = definition.retention();
    if (r == null) {
      return;
    }
    if (definition.kind() != ViewDefinition.Kind.HISTORY) {
      throw ViewbaseException.of(
          ErrorCode.InvalidView,
          "Only history views have a retention",
          "field",
          "retention",
          "kind",
          definition.kind().text());
    }
    if (r.maxVersions() < 0 || (r.maxAge() != null && r.maxAge().isNegative())) {
      throw ViewbaseException.of(
          ErrorCode.InvalidView,
          "A retention's maxVersions and maxAge must not be negative",
          "field",
          "retention");
    }
  }

  /** Whether a template renders from the source partition key alone. */
  private static boolean onlyPartitionKey(KeyTemplate template) {
    if (!template.properties().isEmpty()) {
      return false;
    }
    String a = template.render("p", "a", Map.of());
    return a != null && a.equals(template.render("p", "b", Map.of()));
  }

  ViewDefinition definition() {
    return definition;
  }

  ViewDefinition.Kind kind() {
    return kind;
  }

  /** Whether the view is a copy of its source, which queries on the source may read instead. */
  boolean isCopy() {
    return kind == ViewDefinition.Kind.COPY;
  }

  /** Whether an item with these properties (null: absent) is in the view: where holds for it. */
  boolean matches(String partitionKey, String id, Map<String, Value> properties) {
    return properties != null
        && (preparedWhere == null || preparedWhere.matches(partitionKey, id, null, properties));
  }

  /**
   * The view partition of a history entry of this item, or null if the item (null: absent) is not
   * in the view.
   */
  String historyPartition(String partitionKey, String id, Map<String, Value> properties) {
    if (!matches(partitionKey, id, properties)) {
      return null;
    }
    return partitionBy.render(partitionKey, id, properties);
  }

  /**
   * The id of a history entry: the version zero-padded to 19 digits, so ids sort in commit order
   * and a time is an id bound; then {@code #}, the length of the source partition key, {@code #},
   * the partition key, {@code #} and the source id, which keeps ids unique when several items of
   * one batch (one version) share a view partition, and unambiguous whatever the keys hold.
   */
  static String historyId(long version, String partitionKey, String id) {
    return ViewDefinition.historyId(version)
        + '#'
        + partitionKey.length()
        + '#'
        + partitionKey
        + '#'
        + id;
  }

  /** The view partition of the partitions entry that counts source partition {@code pk}. */
  String countPartition(String partitionKey) {
    return partitionBy.render(partitionKey, "", Map.of());
  }

  /** A history entry's properties: the item's (select applied) and the operation. */
  Map<String, Value> historyEntry(Map<String, Value> properties, String operation) {
    Map<String, Value> entry = new LinkedHashMap<>(project(properties));
    entry.put(OPERATION, Value.of(operation));
    return Collections.unmodifiableMap(entry);
  }

  /** A history tombstone's properties: the operation and the deleted mark. */
  static Map<String, Value> tombstone(String operation) {
    Map<String, Value> entry = new LinkedHashMap<>();
    entry.put(OPERATION, Value.of(operation));
    entry.put(DELETED, Value.of(true));
    return Collections.unmodifiableMap(entry);
  }

  /** The view key of a source item, or null if the item is not in the view. */
  ViewKey keyOf(String partitionKey, String id, Map<String, Value> properties) {
    if (!matches(partitionKey, id, properties)) {
      return null;
    }
    // Only a placeholder that cannot render keeps an item out. An empty rendering is a key like
    // any other (keys may be empty): were it left out, a query the planner answers from the view
    // would miss the source items with an empty id or key property.
    String viewPartitionKey = partitionBy.render(partitionKey, id, properties);
    if (viewPartitionKey == null) {
      return null;
    }
    String viewId = idBy.render(partitionKey, id, properties);
    if (viewId == null) {
      return null;
    }
    return new ViewKey(viewPartitionKey, viewId);
  }

  /**
   * Where items with these known values sit in the view: the view partition (which must render
   * completely) and the id, complete or as a prefix. Null when the partition does not render.
   */
  KeyTemplate.Prefix[] lookup(String partitionKey, String id, Map<String, Value> known) {
    if (where != null) {
      return null; // the view may lack items that match; only unconditional views can answer for
      // the source
    }
    KeyTemplate.Prefix viewPartition = partitionBy.renderPrefix(partitionKey, id, known);
    if (!viewPartition.complete()) {
      return null;
    }
    KeyTemplate.Prefix viewId = idBy.renderPrefix(partitionKey, id, known);
    if (!viewId.complete() && !viewId.restIsIdentity()) {
      return null; // items lacking a later property are not in the view (views are sparse)
    }
    if (!viewId.complete() && viewId.text().isEmpty() && !partitionBy.hasPlaceholders()) {
      return null; // a literal partition and no id prefix: the whole view, no better than a scan
    }
    return new KeyTemplate.Prefix[] {viewPartition, viewId};
  }

  /** Whether the view copies every property (no select). */
  boolean copiesAll() {
    return select.isEmpty();
  }

  boolean copies(String property) {
    return select.isEmpty() || select.contains(property);
  }

  /**
   * The properties the view copies from a source item: those selected, and its {@code _ttl} always,
   * so that an entry expires with its source item (an entry has its source's version).
   */
  Map<String, Value> project(Map<String, Value> properties) {
    if (select.isEmpty()) {
      return properties;
    }
    Map<String, Value> kept = new LinkedHashMap<>();
    for (String name : select) {
      Value v = properties.get(name);
      if (v != null) {
        kept.put(name, v);
      }
    }
    Value ttl = properties.get(TimeToLive.PROPERTY);
    if (ttl != null) {
      kept.put(TimeToLive.PROPERTY, ttl);
    }
    return Collections.unmodifiableMap(kept);
  }
}
