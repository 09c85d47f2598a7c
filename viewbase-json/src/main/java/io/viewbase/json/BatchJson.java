package io.viewbase.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.viewbase.api.Batch;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.ViewbaseException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A batch as JSON, the body of {@code POST /v1/batch}: {@code {"operations": [{"op": "insert",
 * "table": "People", "partitionKey": "acme", "id": "ann", "item": {...}, "ifMatch": "..."}, ...]}}.
 *
 * <p>Reading one operation, by member:
 *
 * <pre>
 * member       | accepted                                          | otherwise
 * -------------+---------------------------------------------------+------------------------------
 * op           | insert replace merge upsert upsertMerge delete    | 400 InvalidInput naming it
 *              | check (required)                                  |
 * table        | string (required)                                 | 400 InvalidInput
 * partitionKey | string (required unless the item carries it)      | 400 InvalidKey / InvalidInput
 * id           | string (required unless the item carries it)      | 400 InvalidKey / InvalidInput
 * item         | an item object, required for writes; it may       | 400 InvalidInput (missing, or
 *              | repeat partitionKey and id, which must then match | given to delete/check);
 *              |                                                   | 400 KeyMismatch (differs)
 * ifMatch      | string or null; replace, merge, delete, check     | 400 InvalidInput (other ops)
 * anything else| -                                                 | 400 InvalidInput naming every one
 * </pre>
 *
 * Every error in an operation names its {@code operationIndex} (0-based), as the engine's errors
 * do, so a client can point at the operation whatever refused it. Malformed JSON is {@link
 * ErrorCode#InvalidJson}. The batch's size limits (operations, bytes, an item twice) are the
 * engine's to judge: the server's request size limit already bounds what is read here.
 */
public final class BatchJson {
  public static final String OPERATIONS = "operations";
  private static final Set<String> KNOWN =
      Set.of("op", "table", "partitionKey", "id", "item", "ifMatch");
  private static final Map<String, Batch.Kind> KINDS =
      Map.of(
          "insert",
          Batch.Kind.INSERT,
          "replace",
          Batch.Kind.REPLACE,
          "merge",
          Batch.Kind.MERGE,
          "upsert",
          Batch.Kind.UPSERT,
          "upsertMerge",
          Batch.Kind.UPSERT_MERGE,
          "delete",
          Batch.Kind.DELETE,
          "check",
          Batch.Kind.CHECK);
  private static final String KNOWN_OPS =
      "insert, replace, merge, upsert, upsertMerge, delete, check";

  private BatchJson() {}

  /** The JSON name of an operation kind ({@code upsertMerge} for UPSERT_MERGE). */
  public static String opName(Batch.Kind kind) {
    return switch (kind) {
      case UPSERT_MERGE -> "upsertMerge";
      default -> kind.name().toLowerCase(Locale.ROOT);
    };
  }

  /** Whether an operation of this kind carries an item's properties. */
  static boolean writesItem(Batch.Kind kind) {
    return kind != Batch.Kind.DELETE && kind != Batch.Kind.CHECK;
  }

  /** Whether an operation of this kind takes an {@code ifMatch}. */
  static boolean takesIfMatch(Batch.Kind kind) {
    return switch (kind) {
      case REPLACE, MERGE, DELETE, CHECK -> true;
      case INSERT, UPSERT, UPSERT_MERGE -> false;
    };
  }

  /** The batch as a client sends it. */
  public static byte[] write(Batch batch) {
    return Json.write(
        g -> {
          g.writeStartObject();
          g.writeArrayFieldStart(OPERATIONS);
          for (Batch.Operation op : batch.operations()) {
            writeOperation(g, op);
          }
          g.writeEndArray();
          g.writeEndObject();
        });
  }

  private static void writeOperation(JsonGenerator g, Batch.Operation op) throws IOException {
    g.writeStartObject();
    g.writeStringField("op", opName(op.kind()));
    g.writeStringField("table", op.table());
    g.writeStringField("partitionKey", op.partitionKey());
    g.writeStringField("id", op.id());
    if (writesItem(op.kind())) {
      g.writeObjectFieldStart("item");
      ValueWriter.writeProperties(g, op.item().properties());
      g.writeEndObject();
    }
    if (op.ifMatch() != null) {
      g.writeStringField("ifMatch", op.ifMatch());
    }
    g.writeEndObject();
  }

  /** Reads a request body into a batch (in order, not yet checked against the batch limits). */
  public static Batch read(byte[] json, Limits limits) {
    ValueReader values = new ValueReader(limits);
    return Json.read(json, 0, json.length, p -> readBatch(p, values, limits));
  }

  private static Batch readBatch(JsonParser p, ValueReader values, Limits limits)
      throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      throw Json.shape(p, "A batch must be a JSON object with an \"operations\" array");
    }
    List<List<Batch.Operation>> operationsHolder = new ArrayList<>(1);
    Set<String> unknown =
        Json.readKnownMembers(
            p,
            Set.of(OPERATIONS),
            (q, member) -> operationsHolder.add(readOperations(q, values, limits)));
    List<Batch.Operation> operations = operationsHolder.isEmpty() ? null : operationsHolder.get(0);
    if (!unknown.isEmpty()) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "Unknown members in the batch; the only one is operations",
          "members",
          List.copyOf(unknown));
    }
    if (operations == null) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput, "A batch needs an \"operations\" array", "field", OPERATIONS);
    }
    return Batch.of(operations);
  }

  private static List<Batch.Operation> readOperations(
      JsonParser p, ValueReader values, Limits limits) throws IOException {
    if (p.currentToken() != JsonToken.START_ARRAY) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput, "\"operations\" must be a JSON array", "field", OPERATIONS);
    }
    List<Batch.Operation> operations = new ArrayList<>();
    while (p.nextToken() != JsonToken.END_ARRAY) {
      int index = operations.size();
      try {
        operations.add(readOperation(p, values, limits));
      } catch (ViewbaseException e) {
        throw at(index, e);
      }
    }
    return operations;
  }

  /** The same error with the operation's index first in its context. */
  private static ViewbaseException at(int index, ViewbaseException e) {
    Map<String, Object> context = new LinkedHashMap<>();
    context.put("operationIndex", index);
    context.putAll(e.context());
    return new ViewbaseException(e.code(), e.getMessage(), context, e.getCause());
  }

  /** The members of one operation as read. */
  private static final class OperationFields {
    String op;
    String table;
    String partitionKey;
    String id;
    String ifMatch;
    ItemBody item;
  }

  private static Batch.Operation readOperation(JsonParser p, ValueReader values, Limits limits)
      throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      throw Json.shape(p, "An operation must be a JSON object");
    }
    OperationFields f = new OperationFields();
    Set<String> unknown =
        Json.readKnownMembers(
            p,
            KNOWN,
            (q, member) -> {
              switch (member) {
                case "op" -> f.op = text(q, member);
                case "table" -> f.table = text(q, member);
                case "partitionKey" -> f.partitionKey = key(q, member);
                case "id" -> f.id = key(q, member);
                case "ifMatch" ->
                    f.ifMatch = q.currentToken() == JsonToken.VALUE_NULL ? null : text(q, member);
                default ->
                    f.item =
                        q.currentToken() == JsonToken.VALUE_NULL
                            ? null
                            : ItemJson.readObject(q, values, limits);
              }
            });
    String op = f.op;
    String table = f.table;
    String partitionKey = f.partitionKey;
    String id = f.id;
    String ifMatch = f.ifMatch;
    ItemBody item = f.item;
    if (!unknown.isEmpty()) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "Unknown members in the operation; known are op, table, partitionKey, id, item, ifMatch",
          "members",
          List.copyOf(unknown));
    }
    Batch.Kind kind = kind(op);
    if (table == null) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput, "The operation needs a table", "field", "table");
    }
    if (writesItem(kind) && item == null) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "A write operation needs an item (its properties)",
          "field",
          "item",
          "op",
          op);
    }
    if (!writesItem(kind) && item != null) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "A " + op + " operation takes no item; give partitionKey and id",
          "field",
          "item",
          "op",
          op);
    }
    if (ifMatch != null && !takesIfMatch(kind)) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "ifMatch applies to replace, merge, delete and check only",
          "field",
          "ifMatch",
          "op",
          op);
    }
    if (ifMatch != null && ifMatch.isBlank()) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput, "ifMatch is empty; send an ETag or *", "field", "ifMatch");
    }
    String pk = identity("partitionKey", partitionKey, item == null ? null : item.partitionKey());
    String itemId = identity("id", id, item == null ? null : item.id());
    Item target = item == null ? Item.of(pk, itemId, Map.of()) : item.addressedTo(pk, itemId);
    return new Batch.Operation(kind, table, target, ifMatch == null ? null : ifMatch.trim());
  }

  private static Batch.Kind kind(String op) {
    if (op == null) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput, "The operation needs an op (" + KNOWN_OPS + ")", "field", "op");
    }
    Batch.Kind kind = KINDS.get(op);
    if (kind == null) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput, "Unknown op; known are " + KNOWN_OPS, "op", op);
    }
    return kind;
  }

  /**
   * The operation's partitionKey or id: its own member, else the item's (which must agree, checked
   * later).
   */
  private static String identity(String field, String own, String fromItem) {
    String value = own != null ? own : fromItem;
    if (value == null) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput, "The operation needs a " + field, "field", field);
    }
    return value;
  }

  private static String text(JsonParser p, String member) throws IOException {
    if (p.currentToken() != JsonToken.VALUE_STRING) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput, "The member must be a JSON string", "field", member);
    }
    return ValueReader.text(p.getText(), member);
  }

  private static String key(JsonParser p, String member) throws IOException {
    if (p.currentToken() != JsonToken.VALUE_STRING) {
      throw ViewbaseException.of(
          ErrorCode.InvalidKey,
          "The operation's " + member + " must be a JSON string",
          "field",
          member);
    }
    return p.getText();
  }
}
