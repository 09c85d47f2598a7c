package io.viewbase.server.dynamodb;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.dynamodb.DynamoDbTable.AttributeType;
import io.viewbase.server.dynamodb.DynamoDbTable.Index;
import io.viewbase.server.dynamodb.DynamoDbTable.KeyAttribute;
import io.viewbase.server.dynamodb.DynamoDbTable.KeySchema;
import io.viewbase.server.dynamodb.DynamoDbTable.ProjectionType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The copy view that holds a secondary index: its key templates and projection, from the index's
 * key schema. The engine maintains it in each write's own commit, so an index is never behind its
 * table, and backfills it online when an index is added to a table that has items.
 *
 * <pre>
 * index  | partitionBy                        | idBy
 * -------+------------------------------------+--------------------------------------------------
 * global | {h} for an S partition key,        | {r|key}{partitionKey|key}{id|key}, without its
 *        |   {h|key} for N or B;              |   first part when the index has no sort key;
 *        |   {h1|key}…{hN|key} for a          |   {r1|key}…{rN|key}{partitionKey|key}{id|key}
 *        |   multi-attribute partition key    |   for a multi-attribute sort key
 * local  | {partitionKey} (the table's)       | {r|key}{id|key}
 * </pre>
 *
 * where {@code h} and {@code r} are the properties of the index's partition and sort keys ({@link
 * AttributeNames}), and {@code h1…hN}, {@code r1…rN} those of a multi-attribute key's HASH and
 * RANGE attributes in the key's order (at most four each). A multi-attribute partition key renders
 * every part with {@code |key}, strings too: plain strings joined could collide ("a"+"bc" and
 * "ab"+"c"), self-delimiting renderings cannot. {@code |key} renders a value in a self-delimiting,
 * order-preserving form (strings by code point, numbers numerically, binaries bytewise), so an
 * index's sort order is DynamoDB's, and appending the table's identity makes every view key unique
 * although index keys are not: no write ever fails for the index's sake. An item without the
 * index's key attributes is not in the view (indexes are sparse): with a multi-attribute key, an
 * item without any one of them. The projection is the view's {@code select}:
 *
 * <pre>
 * ProjectionType | select
 * ---------------+---------------------------------------------------------------
 * ALL            | none (every property)
 * KEYS_ONLY      | the table's and the index's key attributes
 * INCLUDE        | those and NonKeyAttributes
 * </pre>
 */
final class IndexViews {
  private IndexViews() {}

  /** The definition of the view that holds {@code index} of {@code table}. */
  static ViewDefinition definition(DynamoDbTable table, Index index, boolean global) {
    KeySchema key = index.key();
    String partitionBy;
    String idBy;
    if (global) {
      if (key.hashKeys().size() == 1) {
        KeyAttribute h = key.hash();
        partitionBy = h.type() == AttributeType.S ? "{" + name(h) + "}" : "{" + name(h) + "|key}";
      } else {
        partitionBy = sortable(key.hashKeys());
      }
      idBy = sortable(key.rangeKeys()) + "{partitionKey|key}{id|key}";
    } else {
      partitionBy = "{partitionKey}";
      idBy = "{" + name(key.range()) + "|key}{id|key}";
    }
    return new ViewDefinition(
        index.viewName(),
        table.viewbaseName(),
        partitionBy,
        idBy,
        null,
        select(table.key(), index));
  }

  /** {@code {a1|key}…{aN|key}}: the attributes' sortable renderings, which join as tuples. */
  private static String sortable(List<KeyAttribute> attributes) {
    StringBuilder sb = new StringBuilder();
    for (KeyAttribute a : attributes) {
      sb.append('{').append(name(a)).append("|key}");
    }
    return sb.toString();
  }

  /** The properties the view copies: none listed for ALL (every property). */
  static List<String> select(KeySchema tableKey, Index index) {
    if (index.projection().type() == ProjectionType.ALL) {
      return List.of();
    }
    Set<String> properties = new LinkedHashSet<>();
    for (String attribute : tableKey.names()) {
      properties.add(AttributeNames.property(attribute));
    }
    for (String attribute : index.key().names()) {
      properties.add(AttributeNames.property(attribute));
    }
    for (String attribute : index.projection().nonKeyAttributes()) {
      properties.add(AttributeNames.property(attribute));
    }
    return new ArrayList<>(properties);
  }

  /**
   * The property of a key attribute, as a template names it; refuses a name a placeholder cannot
   * hold.
   */
  static String name(KeyAttribute attribute) {
    String property = AttributeNames.property(attribute.name());
    for (int i = 0; i < property.length(); i++) {
      char c = property.charAt(i);
      if (c == '{' || c == '}' || c == '|' || c == ':') {
        throw ViewbaseException.of(
            ErrorCode.ValidationFailure,
            "One or more parameter values were invalid: Viewbase cannot index the attribute "
                + attribute.name()
                + ": an index key attribute's name may not hold '{', '}', '|' or ':'");
      }
    }
    return property;
  }
}
