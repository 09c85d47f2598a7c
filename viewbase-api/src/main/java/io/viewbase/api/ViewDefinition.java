package io.viewbase.api;

import java.util.List;

/**
 * A view: a named, read-only table that the database keeps as an exact copy of a source table,
 * keyed by other properties. Its key is unique, so a view is also a uniqueness constraint.
 *
 * <p>Key templates are literal text with placeholders: {@code {property}}; {@code {partitionKey}}
 * and {@code {id}} (the source item's identity); {@code {age:08}} zero-pads an integer to 8 digits
 * so that numeric order is key order; {@code {email|lower}} lower-cases (never implicit); {@code
 * {{} and {@code }}} are literal braces. An item lacking a template's property, or failing {@code
 * where}, is not in the view (views are sparse).
 *
 * @param name the view's name; it shares the namespace of tables
 * @param source the source table
 * @param partitionBy template of the view partition key (null: the source's {@code {partitionKey}})
 * @param idBy template of the view id (null: the source's {@code {id}})
 * @param where an OData filter an item must match to be in the view (null: every item)
 * @param select the properties copied into the view (empty: all)
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record ViewDefinition(
    String name,
    String source,
    String partitionBy,
    String idBy,
    String where,
    List<String> select) {

  public ViewDefinition {
    select = select == null ? List.of() : List.copyOf(select);
  }

  public static ViewDefinition of(String name, String source, String partitionBy, String idBy) {
    return new ViewDefinition(name, source, partitionBy, idBy, null, List.of());
  }

  public ViewDefinition withWhere(String filter) {
    return new ViewDefinition(name, source, partitionBy, idBy, filter, select);
  }

  public ViewDefinition withSelect(List<String> properties) {
    return new ViewDefinition(name, source, partitionBy, idBy, where, properties);
  }
}
