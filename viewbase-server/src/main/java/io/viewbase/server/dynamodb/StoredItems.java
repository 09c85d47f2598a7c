package io.viewbase.server.dynamodb;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.dynamodb.DynamoDbTable.AttributeType;
import io.viewbase.server.dynamodb.DynamoDbTable.Index;
import io.viewbase.server.dynamodb.DynamoDbTable.KeySchema;
import io.viewbase.server.dynamodb.model.AttributeValue;
import io.viewbase.server.dynamodb.model.ItemSize;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * DynamoDB items as the Viewbase items that hold them: the identity from the key attributes ({@link
 * DynamoDbKeys}), every attribute a property ({@link AttributeNames}) holding its value ({@link
 * ItemValues}), the key attributes included, so that the native API, its filters and the index
 * views see them by name. And the checks DynamoDB makes of an item and a key before any write.
 */
final class StoredItems {
  private StoredItems() {}

  /**
   * The Viewbase item holding a DynamoDB item (checked: {@link #checkItem}), with its {@code _ttl}
   * when the table's time to live applies ({@link TtlAttribute}).
   */
  static Item toItem(DynamoDbTable table, Map<String, AttributeValue> item) {
    Map<String, Value> properties = new LinkedHashMap<>();
    item.forEach((name, v) -> properties.put(AttributeNames.property(name), ItemValues.toValue(v)));
    TtlAttribute.apply(table, item, properties);
    DynamoDbKeys.Identity identity = DynamoDbKeys.identity(table, item);
    return Item.of(identity.partitionKey(), identity.id(), properties);
  }

  /**
   * The DynamoDB item a stored item holds: its properties but the system ones (names starting with
   * '_', such as the item's own time-to-live, which DynamoDB shows as the attribute it came from).
   */
  static Map<String, AttributeValue> fromItem(Item item) {
    Map<String, Value> properties = item.properties();
    // sized for every property, so that it is never rehashed (a query makes one per item)
    Map<String, AttributeValue> out = new LinkedHashMap<>(properties.size() * 4 / 3 + 1);
    properties.forEach(
        (property, v) -> {
          if (!property.startsWith("_")) {
            out.put(AttributeNames.attribute(property), ItemValues.toAttribute(v));
          }
        });
    return out;
  }

  /** The key attributes of an item, the table's or an index's too. */
  static Map<String, AttributeValue> keyOf(
      DynamoDbTable table, Index index, Map<String, AttributeValue> item) {
    Map<String, AttributeValue> key = new LinkedHashMap<>();
    for (String name : table.key().names()) {
      put(key, name, item);
    }
    if (index != null) {
      for (String name : index.key().names()) {
        put(key, name, item);
      }
    }
    return key;
  }

  private static void put(
      Map<String, AttributeValue> key, String name, Map<String, AttributeValue> item) {
    AttributeValue v = item.get(name);
    if (v != null) {
      key.put(name, v);
    }
  }

  /**
   * Refuses a key that is not exactly the table's key schema, with DynamoDB's message: every key
   * attribute, of its type and not empty ({@link DynamoDbKeys#identity} checks those), and nothing
   * else.
   */
  static void checkKey(DynamoDbTable table, Map<String, AttributeValue> key) {
    if (key.size() != table.key().names().size()) {
      throw ViewbaseException.of(
          ErrorCode.ValidationFailure, "The provided key element does not match the schema");
    }
    DynamoDbKeys.identity(table, key);
  }

  /**
   * Refuses an item DynamoDB would refuse: a missing or mistyped key attribute, an empty key value,
   * an index key attribute of the wrong type, more than 400 KB.
   */
  static void checkItem(DynamoDbTable table, Map<String, AttributeValue> item) {
    KeySchema schema = table.key();
    for (String name : schema.names()) {
      if (!item.containsKey(name)) {
        throw ViewbaseException.of(
            ErrorCode.ValidationFailure,
            "One or more parameter values were invalid: Missing the key " + name + " in the item");
      }
    }
    DynamoDbKeys.identity(table, item); // the key attributes' types, and none empty
    for (Index index : table.indexes()) {
      for (String name : index.key().names()) {
        AttributeValue v = item.get(name);
        AttributeType expected = table.typeOf(name);
        if (v != null && expected != null && !v.type().equals(expected.name())) {
          throw ViewbaseException.of(
              ErrorCode.ValidationFailure,
              "One or more parameter values were invalid: Type mismatch for Index Key "
                  + name
                  + " Expected: "
                  + expected.name()
                  + " Actual: "
                  + v.type()
                  + " IndexName: "
                  + index.name());
        }
        if (v != null && isEmpty(v)) {
          throw ViewbaseException.of(
              ErrorCode.ValidationFailure,
              "One or more parameter values are not valid. A value specified for a secondary index"
                  + " key is not supported. The AttributeValue for a key attribute cannot contain an"
                  + " empty string value. IndexName: "
                  + index.name()
                  + ", IndexKey: "
                  + name);
        }
      }
    }
    ItemSize.check(item);
  }

  private static boolean isEmpty(AttributeValue v) {
    return v instanceof AttributeValue.S s && s.value().isEmpty()
        || v instanceof AttributeValue.B b && b.length() == 0;
  }
}
