package io.viewbase.core;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.PropertyName;
import io.viewbase.api.TimeToLive;
import io.viewbase.api.Value;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewbaseException;
import io.viewbase.filter.Filter;
import io.viewbase.filter.Filters;
import io.viewbase.filter.SystemProperty;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A view definition compiled for use on every write: its key templates, its filter and its
 * projection. Pure: it computes the view entry a source item implies and reads nothing.
 */
final class ViewSpec {
  /** Where a source item lands in the view. */
  record ViewKey(String partitionKey, String id) {}

  private final ViewDefinition definition;
  private final KeyTemplate partitionBy;
  private final KeyTemplate idBy;
  private final Filter where;
  private final List<String> select;

  private ViewSpec(
      ViewDefinition definition, KeyTemplate partitionBy, KeyTemplate idBy, Filter where) {
    this.definition = definition;
    this.partitionBy = partitionBy;
    this.idBy = idBy;
    this.where = where;
    this.select = definition.select();
  }

  /** Compiles a definition, failing with InvalidView on a bad template, filter or projection. */
  static ViewSpec compile(ViewDefinition definition) {
    KeyTemplate partitionBy =
        KeyTemplate.parse(
            definition.partitionBy() == null ? "{partitionKey}" : definition.partitionBy(),
            "partitionBy");
    KeyTemplate idBy =
        KeyTemplate.parse(definition.idBy() == null ? "{id}" : definition.idBy(), "idBy");
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

  ViewDefinition definition() {
    return definition;
  }

  /** The view key of a source item, or null if the item is not in the view. */
  ViewKey keyOf(String partitionKey, String id, Map<String, Value> properties) {
    if (properties == null) {
      return null;
    }
    if (where != null && !Filters.matches(where, partitionKey, id, null, properties)) {
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
