package io.viewbase.core;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
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
  record ViewKey(String partitionKey, String id) {
  }

  private final ViewDefinition definition;
  private final KeyTemplate partitionBy;
  private final KeyTemplate idBy;
  private final WhereFilter where;
  private final List<String> select;

  private ViewSpec(ViewDefinition definition, KeyTemplate partitionBy, KeyTemplate idBy, WhereFilter where) {
    this.definition = definition;
    this.partitionBy = partitionBy;
    this.idBy = idBy;
    this.where = where;
    this.select = definition.select();
  }

  /** Compiles a definition, failing with InvalidView on a bad template, filter or projection. */
  static ViewSpec compile(ViewDefinition definition) {
    KeyTemplate partitionBy = KeyTemplate.parse(
        definition.partitionBy() == null ? "{partitionKey}" : definition.partitionBy(), "partitionBy");
    KeyTemplate idBy = KeyTemplate.parse(definition.idBy() == null ? "{id}" : definition.idBy(), "idBy");
    WhereFilter where = definition.where() == null || definition.where().isBlank() ? null
        : WhereFilter.parse(definition.where());
    for (String name : definition.select()) {
      if (name == null || name.isEmpty() || name.startsWith("_") || name.equals("partitionKey") || name.equals("id")) {
        throw ViewbaseException.of(ErrorCode.InvalidView,
            "select names user properties (not empty, not starting with '_', not partitionKey or id)",
            "field", "select", "property", name);
      }
    }
    return new ViewSpec(definition, partitionBy, idBy, where);
  }

  ViewDefinition definition() {
    return definition;
  }

  /** The view key of a source item, or null if the item is not in the view. */
  ViewKey keyOf(String partitionKey, String id, Map<String, Value> properties) {
    if (properties == null) {
      return null;
    }
    if (where != null && !where.matches(partitionKey, id, properties)) {
      return null;
    }
    String viewPartitionKey = partitionBy.render(partitionKey, id, properties);
    if (viewPartitionKey == null || viewPartitionKey.isEmpty()) {
      return null;
    }
    String viewId = idBy.render(partitionKey, id, properties);
    if (viewId == null || viewId.isEmpty()) {
      return null;
    }
    return new ViewKey(viewPartitionKey, viewId);
  }

  /** The properties the view copies from a source item. */
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
    return Collections.unmodifiableMap(kept);
  }
}
