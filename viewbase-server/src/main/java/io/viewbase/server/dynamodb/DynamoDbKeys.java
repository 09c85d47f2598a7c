package io.viewbase.server.dynamodb;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.KeyText;
import io.viewbase.api.Stability;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.dynamodb.DynamoDbTable.Index;
import io.viewbase.server.dynamodb.DynamoDbTable.KeyAttribute;
import io.viewbase.server.dynamodb.DynamoDbTable.KeySchema;
import io.viewbase.server.dynamodb.model.AttributeValue;
import java.util.Map;

/**
 * Where a DynamoDB item lives in its Viewbase table: its identity {@code (partitionKey, id)} from
 * its key attributes, by one rule for the table and for every index's view key.
 *
 * <pre>
 * part          | the table                         | a global index's view       | a local index's view
 * --------------+-----------------------------------+-----------------------------+---------------------------
 * partition key | keyText(hash value)               | keyText(index hash value);  | the item's partitionKey
 *               |                                   |   sortable(h1) + … +        |
 *               |                                   |   sortable(hN) for several  |
 * id            | keyText(range value), "" without  | sortable(r1) + … +          | sortable(index range) +
 *               |                                   |   sortable(rN) +            |
 *               |   a range key                     |   sortable(partitionKey) +  |   sortable(id)
 *               |                                   |   sortable(id)              |
 * </pre>
 *
 * where {@code keyText} is a string as it is and a number or binary as {@link KeyText#sortable}
 * ({@code 12.5} is {@code "!>502125 "}, {@code X'0aff'} is {@code "!#0aff "}), so ids sort as
 * DynamoDB sorts sort keys: strings by code point (UTF-8 byte order), numbers numerically, binaries
 * bytewise. {@code sortable} is {@link KeyText#sortable}, whose renderings delimit themselves, so a
 * view id made of several sorts as their tuple does ({@link IndexViews} holds the templates). The
 * key attributes stay properties of the item as well ({@link AttributeNames}), so an item read back
 * has them in their own types.
 *
 * <p>A key that Viewbase cannot hold is refused by the engine's key rules: over 1024 bytes of UTF-8
 * (DynamoDB allows 2048 for a partition key), or holding a control character.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class DynamoDbKeys {
  private DynamoDbKeys() {}

  /** An item's identity in its Viewbase table. */
  public record Identity(String partitionKey, String id) {}

  /**
   * The identity of the item whose key attributes {@code item} holds (a Key, or a whole item whose
   * other attributes are ignored); refuses a missing key attribute, one of another type than the
   * schema's, or an empty string or binary, with DynamoDB's messages.
   */
  public static Identity identity(DynamoDbTable table, Map<String, AttributeValue> item) {
    KeySchema key = table.key();
    String partitionKey = keyText(keyValue(key.hash(), item));
    String id = key.range() == null ? "" : keyText(keyValue(key.range(), item));
    return new Identity(partitionKey, id);
  }

  /**
   * The Viewbase partition key of a table item whose partition (hash) key value is {@code
   * hashValue}.
   */
  public static String partitionKey(AttributeValue hashValue) {
    return keyText(hashValue);
  }

  /** The Viewbase id of a table item whose sort (range) key value is {@code rangeValue}. */
  public static String id(AttributeValue rangeValue) {
    return keyText(rangeValue);
  }

  /**
   * The view's partition key of the entry of {@code item} in an index: its index hash value as the
   * table's for a global index, the item's own partition key for a local one.
   */
  public static String indexPartitionKey(
      DynamoDbTable table, Index index, Map<String, AttributeValue> item) {
    if (table.isGlobal(index.name())) {
      return globalPartitionKey(index.key(), item);
    }
    return identity(table, item).partitionKey();
  }

  /**
   * A global index's view partition key of the item (or key condition) whose values are {@code
   * values}: its one partition key value as {@link #keyText}, or, for a multi-attribute partition
   * key, the {@link #sortable} renderings of its values in key order, which delimit themselves so
   * that two different tuples of values never render alike.
   */
  public static String globalPartitionKey(KeySchema key, Map<String, AttributeValue> values) {
    if (key.hashKeys().size() == 1) {
      return keyText(keyValue(key.hash(), values));
    }
    StringBuilder sb = new StringBuilder();
    for (KeyAttribute attribute : key.hashKeys()) {
      sb.append(sortable(keyValue(attribute, values)));
    }
    return sb.toString();
  }

  /** A key value as key text: a string as it is, a number or binary as {@link KeyText#sortable}. */
  public static String keyText(AttributeValue v) {
    if (v instanceof AttributeValue.S s) {
      return s.value();
    }
    return KeyText.sortable(value(v));
  }

  /**
   * A key value as {@link KeyText#sortable} renders it, the form of every part of an index view's
   * id (a string too, unlike {@link #keyText}).
   */
  public static String sortable(AttributeValue v) {
    return KeyText.sortable(value(v));
  }

  /** A key value (S, N or B) as the Viewbase value it is stored as. */
  public static Value value(AttributeValue v) {
    if (v instanceof AttributeValue.S s) {
      return Value.of(s.value());
    }
    if (v instanceof AttributeValue.N n) {
      return Value.of(n.value());
    }
    if (v instanceof AttributeValue.B b) {
      return Value.of(b.value());
    }
    throw new IllegalArgumentException("A key value is S, N or B, not " + v.type());
  }

  private static AttributeValue keyValue(KeyAttribute attribute, Map<String, AttributeValue> item) {
    AttributeValue v = item.get(attribute.name());
    if (v == null) {
      throw ViewbaseException.of(
          ErrorCode.ValidationFailure, "The provided key element does not match the schema");
    }
    if (!v.type().equals(attribute.type().name())) {
      throw ViewbaseException.of(
          ErrorCode.ValidationFailure,
          "One or more parameter values were invalid: Type mismatch for key "
              + attribute.name()
              + " expected: "
              + attribute.type()
              + " actual: "
              + v.type());
    }
    if (v instanceof AttributeValue.S s && s.value().isEmpty()
        || v instanceof AttributeValue.B b && b.length() == 0) {
      throw ViewbaseException.of(
          ErrorCode.ValidationFailure,
          "One or more parameter values are not valid. The AttributeValue for a key attribute"
              + " cannot contain an empty "
              + (v instanceof AttributeValue.S ? "string" : "binary")
              + " value. Key: "
              + attribute.name());
    }
    return v;
  }
}
