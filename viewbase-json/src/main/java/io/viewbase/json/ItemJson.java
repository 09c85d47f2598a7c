package io.viewbase.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.PropertyName;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.io.IOException;
import java.time.Instant;

/**
 * Items as JSON: {@code {"partitionKey": ..., "id": ..., "_etag": ..., "_timestamp": ...,
 * props...}}; an item read from a view also carries {@code "_sourcePartitionKey"} and {@code
 * "_sourceId"} after {@code _timestamp}, the identity of the source item it copies.
 *
 * <p>Reading a body, by member name:
 *
 * <pre>
 * name                                  | effect
 * --------------------------------------+------------------------------------------------------
 * partitionKey, id                      | returned apart (a string; the caller checks the address)
 * _etag, _timestamp                     | returned apart, never stored (a client may PUT what it GOT)
 * _sourcePartitionKey, _sourceId        | returned apart, never stored (view items carry them)
 * _operation, _deleted                  | properties of a history view's entries, read as such; a
 *                                       |   write carrying them is refused by the engine (reserved)
 * other name starting with '_'          | 400 InvalidPropertyName ({@link PropertyName}'s rule, which
 * empty, longer than the limit, '@' ... |   the engine applies again: one rule, checked early here)
 * name@odata.type                       | types the property "name" (before or after it)
 * anything else                         | a user property, typed as {@link ValueReader} says
 * </pre>
 *
 * Malformed JSON, a top-level value that is not an object, and duplicate names are {@link
 * ErrorCode#InvalidJson} (with line and column).
 */
public final class ItemJson {
  public static final String PARTITION_KEY = PropertyName.PARTITION_KEY;
  public static final String ID = PropertyName.ID;
  public static final String ETAG = "_etag";
  public static final String TIMESTAMP = "_timestamp";
  public static final String SOURCE_PARTITION_KEY = "_sourcePartitionKey";
  public static final String SOURCE_ID = "_sourceId";

  /** A history view entry's operation (the write's kind, or backfill, repair). */
  public static final String OPERATION = "_operation";

  /** A history view entry's tombstone mark. */
  public static final String DELETED = "_deleted";

  private ItemJson() {}

  /** Reads an item body (a JSON object). */
  public static ItemBody read(byte[] json, Limits limits) {
    return read(json, 0, json.length, limits);
  }

  public static ItemBody read(byte[] json, int offset, int length, Limits limits) {
    ValueReader values = new ValueReader(limits);
    return Json.read(json, offset, length, p -> readObject(p, values, limits));
  }

  /** Reads a stored item as a server writes it: identity and system properties included. */
  public static Item readStored(byte[] json, Limits limits) {
    return read(json, limits).toStoredItem();
  }

  /**
   * The item as JSON; system properties are written when the item has them. The same bytes as
   * {@link #write(JsonGenerator, Item)} (which pages and batch results use inside their documents),
   * written without a Jackson generator: a point read's answer is this document alone.
   */
  public static byte[] write(Item item) {
    JsonBytes out = JsonBytes.scratch();
    write(out, item);
    return out.toByteArray();
  }

  /**
   * Appends the item's object to {@code out}: what {@link #write(Item)} answers, inside a larger
   * document.
   */
  static void write(JsonBytes out, Item item) {
    out.startObject()
        .name(PARTITION_KEY)
        .string(item.partitionKey())
        .comma()
        .name(ID)
        .string(item.id());
    if (item.etag() != null) {
      out.comma().name(ETAG).string(item.etag());
    }
    if (item.timestamp() != null) {
      out.comma().name(TIMESTAMP).isoTime(item.timestamp());
    }
    if (item.sourceId() != null) {
      out.comma()
          .name(SOURCE_PARTITION_KEY)
          .string(item.sourcePartitionKey())
          .comma()
          .name(SOURCE_ID)
          .string(item.sourceId());
    }
    ValueWriter.writeProperties(out, item.properties(), true);
    out.endObject();
  }

  /**
   * The item as JSON through a Jackson generator: what {@link #write(Item)} must equal, byte for
   * byte.
   */
  static byte[] writeWithGenerator(Item item) {
    return Json.write(g -> write(g, item));
  }

  static void write(JsonGenerator g, Item item) throws IOException {
    g.writeStartObject();
    g.writeStringField(PARTITION_KEY, item.partitionKey());
    g.writeStringField(ID, item.id());
    if (item.etag() != null) {
      g.writeStringField(ETAG, item.etag());
    }
    if (item.timestamp() != null) {
      g.writeStringField(TIMESTAMP, Value.DateTime.isoString(item.timestamp()));
    }
    if (item.sourceId() != null) {
      g.writeStringField(SOURCE_PARTITION_KEY, item.sourcePartitionKey());
      g.writeStringField(SOURCE_ID, item.sourceId());
    }
    ValueWriter.writeProperties(g, item.properties());
    g.writeEndObject();
  }

  /** Reads the object at the parser's current token. */
  static ItemBody readObject(JsonParser p, ValueReader values, Limits limits) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      throw Json.shape(p, "An item must be a JSON object");
    }
    String partitionKey = null;
    String id = null;
    String etag = null;
    Instant timestamp = null;
    String sourcePartitionKey = null;
    String sourceId = null;
    Members members = new Members();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      p.nextToken();
      if (name.endsWith(EdmTypes.ANNOTATION)) {
        String target = name.substring(0, name.length() - EdmTypes.ANNOTATION.length());
        String edm = ValueReader.annotation(p, target);
        if (!isIdentityOrSystem(target)) { // e.g. an Azure client's "Timestamp@odata.type" twin
          members.annotate(p, checkName(target, limits), edm);
        }
        continue;
      }
      switch (name) {
        case PARTITION_KEY -> partitionKey = once(p, name, partitionKey, key(p, name));
        case ID -> id = once(p, name, id, key(p, name));
        case ETAG -> etag = textOrSkip(p);
        case TIMESTAMP ->
            timestamp =
                p.currentToken() == JsonToken.VALUE_STRING
                    ? IsoTimes.parseInstant(p.getText()).orElse(null)
                    : skip(p);
        case SOURCE_PARTITION_KEY -> sourcePartitionKey = textOrSkip(p);
        case SOURCE_ID -> sourceId = textOrSkip(p);
        case OPERATION, DELETED -> members.put(p, name, values.readMember(p, name, 1));
        default -> members.put(p, checkName(name, limits), values.readMember(p, name, 1));
      }
    }
    return new ItemBody(
        partitionKey, id, members.resolve(null), etag, timestamp, sourcePartitionKey, sourceId);
  }

  private static boolean isIdentityOrSystem(String name) {
    return name.equals(PARTITION_KEY)
        || name.equals(ID)
        || name.equals(ETAG)
        || name.equals(TIMESTAMP)
        || name.equals(SOURCE_PARTITION_KEY)
        || name.equals(SOURCE_ID);
  }

  /**
   * A system property's text; one of another type is informational, so it is skipped, not refused.
   */
  private static String textOrSkip(JsonParser p) throws IOException {
    return p.currentToken() == JsonToken.VALUE_STRING ? p.getText() : skip(p);
  }

  private static <T> T skip(JsonParser p) throws IOException {
    p.skipChildren();
    return null;
  }

  private static String key(JsonParser p, String name) throws IOException {
    if (p.currentToken() != JsonToken.VALUE_STRING) {
      throw ViewbaseException.of(
          ErrorCode.InvalidKey, "The item's " + name + " must be a JSON string", "field", name);
    }
    return p.getText();
  }

  private static String once(JsonParser p, String name, String previous, String value) {
    if (previous != null) {
      throw Json.duplicate(p, name);
    }
    return value;
  }

  /** A user property name at the top level, as {@link PropertyName#check} allows it. */
  static String checkName(String name, Limits limits) {
    PropertyName.check(name, true, limits.maxPropertyNameLength());
    return name;
  }
}
