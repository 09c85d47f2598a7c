package io.viewbase.server.dynamodb;

import io.viewbase.api.Change;
import io.viewbase.server.dynamodb.DynamoDbTable.AttributeType;
import io.viewbase.server.dynamodb.DynamoDbTable.KeyAttribute;
import io.viewbase.server.dynamodb.model.AttributeValue;
import io.viewbase.server.dynamodb.model.ItemSize;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A change-feed entry as a DynamoDB stream record.
 *
 * <pre>
 * Change.kind | eventName | NewImage (NEW_IMAGE,     | OldImage (OLD_IMAGE,     | userIdentity
 *             |           |   NEW_AND_OLD_IMAGES)    |   NEW_AND_OLD_IMAGES)    |
 * ------------+-----------+--------------------------+--------------------------+-------------------
 * INSERT      | INSERT    | the item                 | none                     | none
 * UPDATE      | MODIFY    | the item                 | the item before          | none
 * DELETE      | REMOVE    | none                     | the item before          | none
 * EXPIRE      | REMOVE    | none                     | the item expired         | Service,
 *             |           |                          |                          |   dynamodb.amazonaws.com
 * </pre>
 *
 * Keys are always there: the key attributes of the item after the write or, for a removal, before
 * it (a feed without before-images, which the dialect never sets up, has the keys from the item's
 * Viewbase identity instead). An UPDATE whose item has the same attributes before and after (a
 * PutItem of the item as it was, a time-to-live pass setting {@code _ttl}) is no record, as
 * DynamoDB writes none for a write that changes nothing. Images are the items' attributes only
 * ({@link StoredItems#fromItem}): never {@code _ttl}. The eventID is derived from the table, the
 * stream and the sequence number, so a record read twice has one id.
 */
final class StreamRecords {
  /** The userIdentity of a removal by time to live. */
  static final Map<String, Object> TTL_IDENTITY =
      Map.of("PrincipalId", "dynamodb.amazonaws.com", "Type", "Service");

  static final String EVENT_VERSION = "1.1";

  private StreamRecords() {}

  /** The record of an entry of {@code table}'s stream, or null when the stream has none for it. */
  static Map<String, Object> record(DynamoDbTable table, Change change, String region) {
    String viewType = table.stream().viewType();
    Map<String, AttributeValue> after =
        change.item() == null ? null : StoredItems.fromItem(change.item());
    Map<String, AttributeValue> before =
        change.before() == null ? null : StoredItems.fromItem(change.before());
    if (change.kind() == Change.Kind.UPDATE && before != null && before.equals(after)) {
      return null;
    }
    Map<String, AttributeValue> keys =
        after != null
            ? StoredItems.keyOf(table, null, after)
            : before != null
                ? StoredItems.keyOf(table, null, before)
                : keysOf(table, change.partitionKey(), change.id());
    Map<String, Object> dynamodb = new LinkedHashMap<>();
    dynamodb.put("ApproximateCreationDateTime", change.timestamp().getEpochSecond());
    dynamodb.put("Keys", keys);
    long size = ItemSize.of(keys);
    boolean newImage = viewType.equals("NEW_IMAGE") || viewType.equals("NEW_AND_OLD_IMAGES");
    boolean oldImage = viewType.equals("OLD_IMAGE") || viewType.equals("NEW_AND_OLD_IMAGES");
    if (newImage && after != null) {
      dynamodb.put("NewImage", after);
      size += ItemSize.of(after);
    }
    if (oldImage && before != null) {
      dynamodb.put("OldImage", before);
      size += ItemSize.of(before);
    }
    dynamodb.put("SequenceNumber", StreamNames.sequenceNumber(change.sequence()));
    dynamodb.put("SizeBytes", Math.max(1, size));
    dynamodb.put("StreamViewType", viewType);
    Map<String, Object> record = new LinkedHashMap<>();
    record.put("awsRegion", region);
    record.put("dynamodb", dynamodb);
    record.put("eventID", eventId(table, change.sequence()));
    record.put("eventName", eventName(change.kind()));
    record.put("eventSource", "aws:dynamodb");
    record.put("eventVersion", EVENT_VERSION);
    if (change.kind() == Change.Kind.EXPIRE) {
      record.put("userIdentity", TTL_IDENTITY);
    }
    return record;
  }

  /** How many bytes a record counts toward GetRecords' 1 MB. */
  static long size(Map<String, Object> record) {
    return ((Number) ((Map<?, ?>) record.get("dynamodb")).get("SizeBytes")).longValue();
  }

  static String eventName(Change.Kind kind) {
    return switch (kind) {
      case INSERT -> "INSERT";
      case UPDATE -> "MODIFY";
      case DELETE, EXPIRE -> "REMOVE";
    };
  }

  private static String eventId(DynamoDbTable table, long sequence) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      byte[] digest =
          md.digest(
              (table.tableId() + "/" + table.stream().label() + "/" + sequence)
                  .getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("Every Java platform has SHA-256", e);
    }
  }

  /** The key attributes of an item, from its Viewbase identity ({@link DynamoDbKeys}). */
  static Map<String, AttributeValue> keysOf(DynamoDbTable table, String partitionKey, String id) {
    Map<String, AttributeValue> keys = new LinkedHashMap<>();
    put(keys, table.key().hash(), partitionKey);
    if (table.key().range() != null) {
      put(keys, table.key().range(), id);
    }
    return keys;
  }

  private static void put(Map<String, AttributeValue> keys, KeyAttribute key, String text) {
    AttributeValue v = keyValue(key.type(), text);
    if (v != null) {
      keys.put(key.name(), v);
    }
  }

  /**
   * The key value whose key text is {@code text}: a string as it is; a number or a binary from
   * {@link io.viewbase.api.KeyText#sortable}'s rendering ({@code "!>502125 "} is 12.5, {@code
   * "!<497874~"} is -12.5, {@code "!="} is 0, {@code "!#0aff "} is X'0aff'); null for text that is
   * none of those.
   */
  static AttributeValue keyValue(AttributeType type, String text) {
    try {
      return switch (type) {
        case S -> new AttributeValue.S(text);
        case B ->
            text.startsWith("!#") && text.endsWith(" ")
                ? new AttributeValue.B(HexFormat.of().parseHex(text, 2, text.length() - 1))
                : null;
        case N -> number(text);
      };
    } catch (IllegalArgumentException | ArithmeticException e) {
      return null;
    }
  }

  private static AttributeValue number(String text) {
    if (text.equals("!=")) {
      return new AttributeValue.N(BigDecimal.ZERO);
    }
    boolean negative = text.startsWith("!<") && text.endsWith("~");
    if (!negative && !(text.startsWith("!>") && text.endsWith(" ")) || text.length() < 7) {
      return null;
    }
    int stored = Integer.parseInt(text.substring(2, 5));
    int exponent = (negative ? 999 - stored : stored) - 500;
    StringBuilder digits = new StringBuilder(text.substring(5, text.length() - 1));
    if (negative) {
      for (int i = 0; i < digits.length(); i++) {
        digits.setCharAt(i, (char) ('9' - digits.charAt(i) + '0'));
      }
    }
    BigDecimal magnitude =
        new BigDecimal(new BigInteger(digits.toString()), digits.length() - exponent);
    return new AttributeValue.N(negative ? magnitude.negate() : magnitude);
  }
}
