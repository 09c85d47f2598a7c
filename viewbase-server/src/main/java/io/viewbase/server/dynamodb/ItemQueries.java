package io.viewbase.server.dynamodb;

import io.viewbase.api.KeyText;
import io.viewbase.api.Page;
import io.viewbase.api.Query;
import io.viewbase.api.Table;
import io.viewbase.filter.Filters;
import io.viewbase.server.dynamodb.DynamoDbTable.AttributeType;
import io.viewbase.server.dynamodb.DynamoDbTable.Index;
import io.viewbase.server.dynamodb.DynamoDbTable.KeyAttribute;
import io.viewbase.server.dynamodb.DynamoDbTable.KeySchema;
import io.viewbase.server.dynamodb.DynamoDbTable.ProjectionType;
import io.viewbase.server.dynamodb.expr.Condition;
import io.viewbase.server.dynamodb.expr.KeyCondition;
import io.viewbase.server.dynamodb.expr.LegacyParameters;
import io.viewbase.server.dynamodb.expr.Projection;
import io.viewbase.server.dynamodb.model.AttributeValue;
import io.viewbase.server.dynamodb.model.AttributeValues;
import io.viewbase.server.dynamodb.model.ItemSize;
import io.viewbase.server.dynamodb.model.KeyOrder;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * Query and Scan: a read of the Viewbase table that holds a DynamoDB table, or of the view that
 * holds one of its indexes, turned into DynamoDB's pages.
 *
 * <p>A Query's key condition becomes one partition and an id range of the table or view ({@link
 * Bounds}); {@code ExclusiveStartKey} moves the range's start past that key. A Scan reads every
 * partition, and resumes after {@code ExclusiveStartKey} with a filter on the identity that the
 * planner turns into key ranges. A page ends, as DynamoDB's does, after {@code Limit} items
 * evaluated or 1 MB read, whichever comes first, with the last evaluated item's key as {@code
 * LastEvaluatedKey}, also when no item follows it (the next page is then empty, without a key);
 * only a page that ends because the items ran out has none. {@code FilterExpression} is applied
 * after that (it does not change what is read), so a page may hold fewer items than it evaluated,
 * even none.
 */
final class ItemQueries {
  /** DynamoDB's page size: a page stops once this much has been read. */
  static final long PAGE_BYTES = 1 << 20;

  private final io.viewbase.api.Database db;
  private final DynamoDbTables tables;

  ItemQueries(io.viewbase.api.Database db, DynamoDbTables tables) {
    this.db = db;
    this.tables = tables;
  }

  Object query(RequestTree r) {
    DynamoDbTable table = tables.require(r.string("TableName"));
    Index index = index(table, r.string("IndexName"));
    RequestExpressions ex = RequestExpressions.of(r, LegacyParameters.Operation.QUERY);
    KeySchema schema = index == null ? table.key() : index.key();
    KeyCondition key = ex.keyCondition(names(schema.hashKeys()), names(schema.rangeKeys()));
    checkTypes(key, table);
    Condition filter = ex.filter("QueryFilter");
    checkFilterSparesKeys(r, filter, schema.names());
    Projection projection = ex.projection();
    ex.checkAllUsed();
    String select = select(r, table, index, projection);
    boolean forward = !Boolean.FALSE.equals(r.bool("ScanIndexForward"));
    Map<String, AttributeValue> start = startKey(r, table, index);

    // The table's or a local index's (the table's too) partition key: key text; a global index's
    // too, or its values' sortable renderings for a multi-attribute partition key.
    String partition =
        index != null && table.isGlobal(index.name())
            ? DynamoDbKeys.globalPartitionKey(index.key(), key.partitionValues())
            : DynamoDbKeys.partitionKey(key.partitionValue());
    KeyAttribute tableRange = table.key().range();
    Bounds bounds =
        Bounds.of(
            key.sortConditions(),
            index == null && tableRange != null && tableRange.type() == AttributeType.S);
    Query q = Query.partition(partition).descending(!forward);
    if (start != null) {
      for (Map.Entry<String, AttributeValue> p : key.partitionValues().entrySet()) {
        if (!p.getValue().equals(start.get(p.getKey()))) {
          throw ItemOperations.validation(
              "The provided starting key is outside query boundaries based on provided"
                  + " conditions");
        }
      }
      bounds = bounds.after(startId(table, index, start), forward);
    }
    q = bounds.apply(q);
    return page(r, table, index, q, null, 0, filter, projection, select, limit(r));
  }

  Object scan(RequestTree r) {
    DynamoDbTable table = tables.require(r.string("TableName"));
    Index index = index(table, r.string("IndexName"));
    RequestExpressions ex = RequestExpressions.of(r, LegacyParameters.Operation.SCAN);
    Condition filter = ex.filter("ScanFilter");
    Projection projection = ex.projection();
    ex.checkAllUsed();
    String select = select(r, table, index, projection);
    Long total = r.number("TotalSegments");
    Long segment = r.number("Segment");
    if ((total == null) != (segment == null)) {
      throw ItemOperations.validation(
          "The TotalSegments parameter is required but was not present in the request when"
              + " Segment parameter is present");
    }
    if (total != null && (total < 1 || total > 1_000_000 || segment < 0 || segment >= total)) {
      throw ItemOperations.validation(
          "The Segment parameter is zero-based and must be less than parameter TotalSegments:"
              + " Segment: "
              + segment
              + " is not less than TotalSegments: "
              + total);
    }
    Map<String, AttributeValue> start = startKey(r, table, index);
    Query q = Query.all();
    if (start != null) {
      String pk =
          index == null
              ? DynamoDbKeys.identity(table, start).partitionKey()
              : DynamoDbKeys.indexPartitionKey(table, index, start);
      String id = startId(table, index, start);
      q = q.withFilter(Filters.after(pk, id));
    }
    return page(
        r,
        table,
        index,
        q,
        total,
        segment == null ? 0 : segment.intValue(),
        filter,
        projection,
        select,
        limit(r));
  }

  private Object page(
      RequestTree r,
      DynamoDbTable table,
      Index index,
      Query q,
      Long totalSegments,
      int segment,
      Condition filter,
      Projection projection,
      String select,
      long limit) {
    Table source = db.table(index == null ? table.viewbaseName() : index.viewName());
    Table base =
        index != null
                && !table.isGlobal(index.name())
                && select.equals("ALL_ATTRIBUTES")
                && index.projection().type() != ProjectionType.ALL
            ? db.table(table.viewbaseName())
            : null;
    List<Object> items = new ArrayList<>();
    long scanned = 0;
    long bytes = 0;
    Map<String, AttributeValue> last = null;
    boolean more = true;
    String continuation = null;
    outer:
    while (true) {
      int want = (int) Math.min(1000, limit - scanned);
      Page page = source.query(q.withLimit(want).withContinuation(continuation));
      for (int i = 0; i < page.items().size(); i++) {
        io.viewbase.api.Item stored = page.items().get(i);
        if (totalSegments != null && segmentOf(stored.partitionKey(), totalSegments) != segment) {
          continue;
        }
        Map<String, AttributeValue> item = StoredItems.fromItem(stored);
        if (base != null) {
          item =
              base.get(stored.sourcePartitionKey(), stored.sourceId())
                  .map(StoredItems::fromItem)
                  .orElse(item);
        }
        scanned++;
        bytes += ItemSize.of(item);
        last = item;
        if (filter == null || filter.test(item)) { // item is never null here
          if (!select.equals("COUNT")) {
            items.add(projection == null ? item : projection.apply(item));
          } else {
            items.add(Boolean.TRUE);
          }
        }
        if (scanned >= limit || bytes >= PAGE_BYTES) {
          // DynamoDB does not look ahead: a page it stopped carries a key even if nothing follows
          break outer;
        }
      }
      if (!page.hasMore()) {
        more = false;
        break;
      }
      continuation = page.continuation();
    }
    Map<String, Object> answer = new LinkedHashMap<>();
    if (!select.equals("COUNT")) {
      answer.put("Items", items);
    }
    answer.put("Count", BigDecimal.valueOf(items.size()));
    answer.put("ScannedCount", BigDecimal.valueOf(scanned));
    if (more && last != null) {
      answer.put("LastEvaluatedKey", StoredItems.keyOf(table, index, last));
    }
    Capacity.scanned(answer, r, table, bytes);
    return answer;
  }

  /**
   * Refuses a Query's filter that reads a key attribute of the table or index queried, as DynamoDB
   * does: those belong in the key condition. (A global index's filter may read the table's keys; a
   * Scan's may read any attribute.)
   */
  private static void checkFilterSparesKeys(RequestTree r, Condition filter, List<String> keys) {
    if (filter == null) {
      return;
    }
    for (String name : filter.attributes()) {
      if (keys.contains(name)) {
        String parameter =
            r.members().containsKey("QueryFilter") ? "QueryFilter" : "Filter Expression";
        throw ItemOperations.validation(
            parameter
                + " can only contain non-primary key attributes: Primary key attribute: "
                + name);
      }
    }
  }

  /**
   * Refuses key condition values whose types are not the key attributes' types (each attribute's of
   * a multi-attribute key).
   */
  private static void checkTypes(KeyCondition key, DynamoDbTable table) {
    boolean ok = true;
    for (Map.Entry<String, AttributeValue> p : key.partitionValues().entrySet()) {
      ok &= p.getValue().type().equals(table.typeOf(p.getKey()).name());
    }
    for (KeyCondition.SortCondition sort : key.sortConditions()) {
      AttributeType type = table.typeOf(sort.name());
      ok &= sort.value().type().equals(type.name());
      ok &= sort.upper() == null || sort.upper().type().equals(type.name());
      if (sort.operator() == KeyCondition.SortOperator.BEGINS_WITH && type == AttributeType.N) {
        throw ItemOperations.validation(
            "Invalid KeyConditionExpression: Incorrect operand type for operator or function;"
                + " operator or function: begins_with, operand type: N");
      }
    }
    if (!ok) {
      throw ItemOperations.validation(
          "One or more parameter values were invalid: Condition parameter type does not match"
              + " schema type");
    }
  }

  private static List<String> names(List<KeyAttribute> attributes) {
    return attributes.stream().map(KeyAttribute::name).toList();
  }

  /** The index named, or null for none; refuses a name the table has no index of. */
  private static Index index(DynamoDbTable table, String name) {
    if (name == null) {
      return null;
    }
    return table
        .index(name)
        .orElseThrow(
            () ->
                ItemOperations.validation("The table does not have the specified index: " + name));
  }

  private static long limit(RequestTree r) {
    Long limit = r.number("Limit");
    if (limit == null) {
      return Long.MAX_VALUE;
    }
    if (limit < 1) {
      throw ItemOperations.validation(
          "1 validation error detected: Value '"
              + limit
              + "' at 'limit' failed to satisfy constraint: Member must have value greater than or"
              + " equal to 1");
    }
    return limit;
  }

  /** The request's Select, checked against its projection and index as DynamoDB checks it. */
  private static String select(
      RequestTree r, DynamoDbTable table, Index index, Projection projection) {
    String select = r.string("Select");
    if (select == null) {
      return projection != null
          ? "SPECIFIC_ATTRIBUTES"
          : index == null ? "ALL_ATTRIBUTES" : "ALL_PROJECTED_ATTRIBUTES";
    }
    switch (select) {
      case "ALL_ATTRIBUTES", "COUNT" -> {
        if (projection != null) {
          throw ItemOperations.validation(
              "Cannot specify the AttributesToGet when choosing to get only the Count");
        }
        if (select.equals("ALL_ATTRIBUTES")
            && index != null
            && table.isGlobal(index.name())
            && index.projection().type() != ProjectionType.ALL) {
          throw ItemOperations.validation(
              "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not"
                  + " supported for global secondary index "
                  + index.name()
                  + " because its projection type is not ALL");
        }
      }
      case "ALL_PROJECTED_ATTRIBUTES" -> {
        if (index == null) {
          throw ItemOperations.validation(
              "One or more parameter values were invalid: Select type ALL_PROJECTED_ATTRIBUTES"
                  + " can only be used when querying an index");
        }
      }
      case "SPECIFIC_ATTRIBUTES" -> {
        if (projection == null) {
          throw ItemOperations.validation(
              "One or more parameter values were invalid: Must specify the AttributesToGet or"
                  + " ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES");
        }
      }
      default ->
          throw ItemOperations.validation(
              "1 validation error detected: Value '"
                  + select
                  + "' at 'select' failed to satisfy constraint: Member must satisfy enum value set:"
                  + " [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]");
    }
    return select;
  }

  /** ExclusiveStartKey, checked: the table's key, and the index's for an index. */
  private static Map<String, AttributeValue> startKey(
      RequestTree r, DynamoDbTable table, Index index) {
    Object tree = r.members().get("ExclusiveStartKey");
    if (tree == null) {
      return null;
    }
    Map<String, AttributeValue> start = AttributeValues.readItem(tree);
    int expected = table.key().names().size();
    for (String name : table.key().names()) {
      if (!start.containsKey(name)) {
        throw ItemOperations.validation("The provided starting key is invalid");
      }
    }
    if (index != null) {
      for (String name : index.key().names()) {
        if (!table.key().names().contains(name)) {
          expected++;
        }
        if (!start.containsKey(name)) {
          throw ItemOperations.validation("The provided starting key is invalid");
        }
      }
    }
    if (start.size() != expected) {
      throw ItemOperations.validation("The provided starting key is invalid");
    }
    return start;
  }

  /** The id in the table or view of a start key's item: what the key templates render. */
  private static String startId(
      DynamoDbTable table, Index index, Map<String, AttributeValue> start) {
    DynamoDbKeys.Identity at = DynamoDbKeys.identity(table, start);
    if (index == null) {
      return at.id();
    }
    StringBuilder viewId = new StringBuilder();
    for (KeyAttribute range : index.key().rangeKeys()) {
      viewId.append(DynamoDbKeys.sortable(start.get(range.name())));
    }
    if (table.isGlobal(index.name())) {
      viewId.append(DynamoDbKeys.sortable(new AttributeValue.S(at.partitionKey())));
    }
    return viewId.append(DynamoDbKeys.sortable(new AttributeValue.S(at.id()))).toString();
  }

  /** A Scan segment's share: partitions spread by a hash of their key. */
  static int segmentOf(String partitionKey, long totalSegments) {
    CRC32 crc = new CRC32();
    crc.update(partitionKey.getBytes(StandardCharsets.UTF_8));
    return (int) (crc.getValue() % totalSegments);
  }

  /**
   * A key condition's range of ids: a point, a range, or a prefix. Sort keys are stored either as
   * their plain text (a table's S sort key: an id is the string itself) or in KeyText's sortable
   * form, self-delimiting, followed by the rest of a view's key. A condition on a multi-attribute
   * sort key fixes its first attributes by equality: their renderings are a prefix of every id it
   * matches, and the last condition's range lies within that prefix.
   */
  record Bounds(String from, String to, String prefix) {
    /**
     * The ids that satisfy {@code conditions} (equalities but the last), plain only for a table's S
     * sort key.
     */
    static Bounds of(List<KeyCondition.SortCondition> conditions, boolean plain) {
      if (conditions.isEmpty()) {
        return new Bounds(null, null, null);
      }
      StringBuilder equalities = new StringBuilder();
      for (KeyCondition.SortCondition c : conditions.subList(0, conditions.size() - 1)) {
        equalities.append(DynamoDbKeys.sortable(c.value()));
      }
      String fixed = equalities.toString();
      String within = fixed.isEmpty() ? null : fixed;
      KeyCondition.SortCondition sort = conditions.get(conditions.size() - 1);
      String low = fixed + text(sort.value(), plain);
      return switch (sort.operator()) {
        case EQ -> plain ? new Bounds(low, low + '\0', null) : new Bounds(null, null, low);
        case LT -> new Bounds(null, low, within);
        case LE -> new Bounds(null, past(low, plain), within);
        case GT -> new Bounds(past(low, plain), null, within);
        case GE -> new Bounds(low, null, within);
        case BETWEEN -> {
          if (KeyOrder.compare(sort.value(), sort.upper()) > 0) {
            throw ItemOperations.validation(
                "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be"
                    + " greater than or equal to lower bound");
          }
          yield new Bounds(low, past(fixed + text(sort.upper(), plain), plain), within);
        }
        case BEGINS_WITH ->
            new Bounds(
                null,
                null,
                plain ? low : fixed + KeyText.sortablePrefix(ItemValues.toValue(sort.value())));
      };
    }

    private static String text(AttributeValue v, boolean plain) {
      return plain ? ((AttributeValue.S) v).value() : DynamoDbKeys.sortable(v);
    }

    /** The first id past every id equal to {@code id} (plain) or beginning with it (sortable). */
    private static String past(String id, boolean plain) {
      if (plain) {
        return id + '\0';
      }
      return KeyText.prefixEnd(id);
    }

    /** These bounds, starting past {@code after} (ascending) or ending before it (descending). */
    Bounds after(String after, boolean forward) {
      if (forward) {
        String next = after + '\0';
        return new Bounds(from == null || compare(next, from) > 0 ? next : from, to, prefix);
      }
      return new Bounds(from, to == null || compare(after, to) < 0 ? after : to, prefix);
    }

    Query apply(Query q) {
      Query out = q;
      if (from != null || to != null) {
        out = out.withRange(from, to);
      }
      if (prefix != null) {
        out = out.withPrefix(prefix);
      }
      return out;
    }

    private static int compare(String a, String b) {
      return KeyOrder.compareUtf8(a, b);
    }
  }
}
