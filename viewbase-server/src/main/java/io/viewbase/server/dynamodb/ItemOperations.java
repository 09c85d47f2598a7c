package io.viewbase.server.dynamodb;

import io.viewbase.api.Batch;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Table;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.dynamodb.expr.Condition;
import io.viewbase.server.dynamodb.expr.LegacyParameters;
import io.viewbase.server.dynamodb.expr.Projection;
import io.viewbase.server.dynamodb.expr.Update;
import io.viewbase.server.dynamodb.model.AttributeValue;
import io.viewbase.server.dynamodb.model.AttributeValues;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The item operations of one item at a time: PutItem, GetItem, UpdateItem and DeleteItem, and the
 * batches of them: BatchGetItem, BatchWriteItem, TransactGetItems and TransactWriteItems. Queries
 * and scans are {@link ItemQueries}. Each reads its request as DynamoDB does, turns it into reads
 * and writes of the Viewbase table that holds the DynamoDB table ({@link StoredItems}) and answers
 * in DynamoDB's shape.
 *
 * <pre>
 * operation          | how it writes
 * -------------------+------------------------------------------------------------------------
 * PutItem            | an upsert when nothing depends on the old item; else {@link
 *                    |   ConditionalWrite} (condition, ReturnValues ALL_OLD)
 * UpdateItem         | ConditionalWrite: the update applied to the item read
 * DeleteItem         | a delete when nothing depends on the old item; else ConditionalWrite
 * BatchWriteItem     | one atomic Viewbase batch of upserts and deletes (DynamoDB promises less:
 *                    |   each write on its own); UnprocessedItems is always empty
 * TransactWriteItems | read every item, decide every action, then one atomic batch conditional
 *                    |   on each item being as read (its ETag, or still absent); a lost race
 *                    |   decides again
 * TransactGetItems   | read every item, then an atomic batch of checks that each is as read, so
 *                    |   the items are one snapshot
 * </pre>
 */
final class ItemOperations {
  /** Most actions in a transaction, and writes in BatchWriteItem; most keys in BatchGetItem. */
  static final int MAX_TRANSACT_ACTIONS = 100;

  static final int MAX_BATCH_WRITES = 25;
  static final int MAX_BATCH_GETS = 100;

  private final Database db;
  private final DynamoDbTables tables;
  private final ItemQueries queries;
  private final ClientTokens tokens = new ClientTokens();

  ItemOperations(Database db, DynamoDbTables tables) {
    this.db = db;
    this.tables = tables;
    this.queries = new ItemQueries(db, tables);
  }

  /** The operations by name. */
  Map<String, DynamoDbOperation> operations() {
    Map<String, DynamoDbOperation> ops = new LinkedHashMap<>();
    ops.put("PutItem", (body, call) -> putItem(RequestTree.of(body)));
    ops.put("GetItem", (body, call) -> getItem(RequestTree.of(body)));
    ops.put("UpdateItem", (body, call) -> updateItem(RequestTree.of(body)));
    ops.put("DeleteItem", (body, call) -> deleteItem(RequestTree.of(body)));
    ops.put("Query", (body, call) -> queries.query(RequestTree.of(body)));
    ops.put("Scan", (body, call) -> queries.scan(RequestTree.of(body)));
    ops.put("BatchGetItem", (body, call) -> batchGetItem(RequestTree.of(body)));
    ops.put("BatchWriteItem", (body, call) -> batchWriteItem(RequestTree.of(body)));
    ops.put("TransactGetItems", (body, call) -> transactGetItems(RequestTree.of(body)));
    ops.put("TransactWriteItems", (body, call) -> transactWriteItems(RequestTree.of(body)));
    return ops;
  }

  // ---- PutItem ----

  Object putItem(RequestTree r) {
    DynamoDbTable table = tables.require(r.string("TableName"));
    Map<String, AttributeValue> item = AttributeValues.readItem(required(r, "Item"));
    RequestExpressions ex = RequestExpressions.of(r, LegacyParameters.Operation.PUT_ITEM);
    Condition condition = ex.condition();
    ex.checkAllUsed();
    String returnValues = returnValues(r, "NONE", "ALL_OLD");
    boolean onFailure = returnOldOnFailure(r);
    StoredItems.checkItem(table, item);
    Table items = db.table(table.viewbaseName());
    Map<String, AttributeValue> before;
    if (condition == null && returnValues.equals("NONE")) {
      items.upsert(StoredItems.toItem(table, item));
      before = null;
    } else {
      before =
          ConditionalWrite.run(
                  table,
                  items,
                  StoredItems.keyOf(table, null, item),
                  current -> {
                    check(condition, current, onFailure);
                    return item;
                  })
              .before();
    }
    Map<String, Object> answer = oldAttributes(returnValues, before);
    Capacity.write(answer, r, table, item);
    return answer;
  }

  // ---- GetItem ----

  Object getItem(RequestTree r) {
    DynamoDbTable table = tables.require(r.string("TableName"));
    Map<String, AttributeValue> key = AttributeValues.readItem(required(r, "Key"));
    StoredItems.checkKey(table, key);
    RequestExpressions ex = RequestExpressions.of(r, LegacyParameters.Operation.GET_ITEM);
    Projection projection = ex.projection();
    ex.checkAllUsed();
    Optional<Map<String, AttributeValue>> found = read(table, key);
    Map<String, Object> answer = new LinkedHashMap<>();
    found.ifPresent(item -> answer.put("Item", projection == null ? item : projection.apply(item)));
    Capacity.read(answer, r, table, found.orElse(null));
    return answer;
  }

  private Optional<Map<String, AttributeValue>> read(
      DynamoDbTable table, Map<String, AttributeValue> key) {
    DynamoDbKeys.Identity at = DynamoDbKeys.identity(table, key);
    return db.table(table.viewbaseName())
        .get(at.partitionKey(), at.id())
        .map(StoredItems::fromItem);
  }

  // ---- DeleteItem ----

  Object deleteItem(RequestTree r) {
    DynamoDbTable table = tables.require(r.string("TableName"));
    Map<String, AttributeValue> key = AttributeValues.readItem(required(r, "Key"));
    StoredItems.checkKey(table, key);
    RequestExpressions ex = RequestExpressions.of(r, LegacyParameters.Operation.DELETE_ITEM);
    Condition condition = ex.condition();
    ex.checkAllUsed();
    String returnValues = returnValues(r, "NONE", "ALL_OLD");
    boolean onFailure = returnOldOnFailure(r);
    Table items = db.table(table.viewbaseName());
    Map<String, AttributeValue> before;
    if (condition == null && returnValues.equals("NONE")) {
      try {
        DynamoDbKeys.Identity at = DynamoDbKeys.identity(table, key);
        items.delete(at.partitionKey(), at.id(), null);
      } catch (ViewbaseException e) {
        if (e.code() != ErrorCode.ItemNotFound) {
          throw e;
        }
      }
      before = null;
    } else {
      before =
          ConditionalWrite.run(
                  table,
                  items,
                  key,
                  current -> {
                    check(condition, current, onFailure);
                    return null;
                  })
              .before();
    }
    Map<String, Object> answer = oldAttributes(returnValues, before);
    Capacity.write(answer, r, table, before);
    return answer;
  }

  // ---- UpdateItem ----

  Object updateItem(RequestTree r) {
    DynamoDbTable table = tables.require(r.string("TableName"));
    Map<String, AttributeValue> key = AttributeValues.readItem(required(r, "Key"));
    StoredItems.checkKey(table, key);
    RequestExpressions ex = RequestExpressions.of(r, LegacyParameters.Operation.UPDATE_ITEM);
    Update update = ex.update();
    Condition condition = ex.condition();
    if (update != null) {
      update.checkKeyAttributes(key.keySet());
    }
    ex.checkAllUsed();
    String returnValues =
        returnValues(r, "NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW");
    boolean onFailure = returnOldOnFailure(r);
    Update.Result[] applied = new Update.Result[1];
    ConditionalWrite.Outcome outcome =
        ConditionalWrite.run(
            table,
            db.table(table.viewbaseName()),
            key,
            current -> {
              check(condition, current, onFailure);
              if (update == null) {
                applied[0] = null;
                return current != null ? current : key;
              }
              applied[0] = update.apply(current, key);
              return applied[0].item();
            });
    Map<String, Object> answer = new LinkedHashMap<>();
    Map<String, AttributeValue> attributes =
        switch (returnValues) {
          case "ALL_OLD" -> outcome.before();
          case "ALL_NEW" -> outcome.after();
          case "UPDATED_OLD" -> applied[0] == null ? null : applied[0].updatedOld(outcome.before());
          case "UPDATED_NEW" -> applied[0] == null ? null : applied[0].updatedNew();
          default -> null;
        };
    if (attributes != null && !attributes.isEmpty()) {
      answer.put("Attributes", attributes);
    }
    Capacity.write(answer, r, table, outcome.after());
    return answer;
  }

  // ---- BatchGetItem ----

  Object batchGetItem(RequestTree r) {
    Map<String, Object> requestItems = r.map("RequestItems");
    if (requestItems == null || requestItems.isEmpty()) {
      throw validation(
          "1 validation error detected: Value null at 'requestItems' failed to satisfy constraint:"
              + " Member must not be null");
    }
    Map<String, Object> responses = new LinkedHashMap<>();
    int keys = 0;
    List<Map<String, Object>> consumed = new ArrayList<>();
    for (var entry : requestItems.entrySet()) {
      DynamoDbTable table = tables.require(entry.getKey());
      RequestTree spec = RequestTree.of(entry.getValue());
      RequestExpressions ex =
          RequestExpressions.of(spec, LegacyParameters.Operation.BATCH_GET_TABLE);
      Projection projection = ex.projection();
      ex.checkAllUsed();
      List<Object> keyTrees = spec.list("Keys");
      if (keyTrees == null || keyTrees.isEmpty()) {
        throw validation(
            "1 validation error detected: Value null at 'requestItems."
                + entry.getKey()
                + ".member.keys' failed to satisfy constraint: Member must not be null");
      }
      keys += keyTrees.size();
      if (keys > MAX_BATCH_GETS) {
        throw validation("Too many items requested for the BatchGetItem call");
      }
      Set<DynamoDbKeys.Identity> seen = new HashSet<>();
      List<Object> found = new ArrayList<>();
      for (Object keyTree : keyTrees) {
        Map<String, AttributeValue> key = AttributeValues.readItem(keyTree);
        StoredItems.checkKey(table, key);
        if (!seen.add(DynamoDbKeys.identity(table, key))) {
          throw validation("Provided list of item keys contains duplicates");
        }
        read(table, key)
            .ifPresent(item -> found.add(projection == null ? item : projection.apply(item)));
      }
      responses.put(table.name(), found);
      Capacity.batch(consumed, r, table, found.size(), false);
    }
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("Responses", responses);
    answer.put("UnprocessedKeys", Map.of());
    if (!consumed.isEmpty()) {
      answer.put("ConsumedCapacity", consumed);
    }
    return answer;
  }

  // ---- BatchWriteItem ----

  Object batchWriteItem(RequestTree r) {
    Map<String, Object> requestItems = r.map("RequestItems");
    if (requestItems == null || requestItems.isEmpty()) {
      throw validation(
          "1 validation error detected: Value null at 'requestItems' failed to satisfy constraint:"
              + " Member must not be null");
    }
    List<Batch.Operation> operations = new ArrayList<>();
    Set<List<String>> seen = new HashSet<>();
    List<Map<String, Object>> consumed = new ArrayList<>();
    for (var entry : requestItems.entrySet()) {
      DynamoDbTable table = tables.require(entry.getKey());
      List<Object> requests = RequestTree.of(Map.of("r", entry.getValue())).list("r");
      if (requests == null || requests.isEmpty()) {
        throw validation(
            "1 validation error detected: Value '[]' at 'requestItems' failed to satisfy"
                + " constraint: Map value must satisfy constraint: [Member must have length less"
                + " than or equal to 25, Member must have length greater than or equal to 1]");
      }
      int writes = 0;
      for (Object request : requests) {
        RequestTree w = RequestTree.of(request);
        RequestTree put = w.structure("PutRequest");
        RequestTree delete = w.structure("DeleteRequest");
        if ((put == null) == (delete == null)) {
          throw validation(
              "Supplied AttributeValue has more than one datatypes set, must contain exactly one of"
                  + " the supported datatypes");
        }
        Item target;
        if (put != null) {
          Map<String, AttributeValue> item = AttributeValues.readItem(required(put, "Item"));
          StoredItems.checkItem(table, item);
          target = StoredItems.toItem(table, item);
          operations.add(
              new Batch.Operation(Batch.Kind.UPSERT, table.viewbaseName(), target, null));
        } else {
          Map<String, AttributeValue> key = AttributeValues.readItem(required(delete, "Key"));
          StoredItems.checkKey(table, key);
          DynamoDbKeys.Identity at = DynamoDbKeys.identity(table, key);
          target = Item.of(at.partitionKey(), at.id(), Map.of());
          operations.add(
              new Batch.Operation(Batch.Kind.DELETE, table.viewbaseName(), target, null));
        }
        if (!seen.add(List.of(table.viewbaseName(), target.partitionKey(), target.id()))) {
          throw validation("Provided list of item keys contains duplicates");
        }
        writes++;
      }
      Capacity.batch(consumed, r, table, writes, true);
    }
    if (operations.size() > MAX_BATCH_WRITES) {
      throw validation(
          "1 validation error detected: Value at 'requestItems' failed to satisfy constraint: Map"
              + " value must satisfy constraint: [Member must have length less than or equal to"
              + " 25, Member must have length greater than or equal to 1]");
    }
    commitSkippingAbsentDeletes(operations);
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("UnprocessedItems", Map.of());
    if (!consumed.isEmpty()) {
      answer.put("ConsumedCapacity", consumed);
    }
    return answer;
  }

  /**
   * Commits the batch; a delete of an item that is absent (which DynamoDB does without complaint)
   * fails a Viewbase batch with ItemNotFound, so such deletes are dropped and the rest committed.
   */
  private void commitSkippingAbsentDeletes(List<Batch.Operation> operations) {
    List<Batch.Operation> remaining = new ArrayList<>(operations);
    while (!remaining.isEmpty()) {
      try {
        db.commit(Batch.of(remaining));
        return;
      } catch (ViewbaseException e) {
        Object index = e.context().get("operationIndex");
        if (e.code() != ErrorCode.ItemNotFound || !(index instanceof Number n)) {
          throw e;
        }
        remaining.remove(n.intValue());
      }
    }
  }

  // ---- TransactGetItems ----

  Object transactGetItems(RequestTree r) {
    List<RequestTree> actions = r.structures("TransactItems");
    if (actions == null || actions.isEmpty() || actions.size() > MAX_TRANSACT_ACTIONS) {
      throw validation(
          "1 validation error detected: Value at 'transactItems' failed to satisfy constraint:"
              + " Member must have length less than or equal to 100, Member must have length"
              + " greater than or equal to 1");
    }
    record Get(DynamoDbTable table, Map<String, AttributeValue> key, Projection projection) {}
    List<Get> gets = new ArrayList<>();
    Set<List<Object>> seen = new HashSet<>();
    for (int i = 0; i < actions.size(); i++) {
      RequestTree action = actions.get(i);
      RequestTree get = action == null ? null : action.structure("Get");
      if (get == null) {
        throw validation("TransactItems can only contain Get actions");
      }
      DynamoDbTable table =
          tables.require(
              get.string("TableName"), "transactItems." + (i + 1) + ".member.get.tableName");
      Map<String, AttributeValue> key = AttributeValues.readItem(required(get, "Key"));
      StoredItems.checkKey(table, key);
      if (!seen.add(List.of(table.viewbaseName(), DynamoDbKeys.identity(table, key)))) {
        throw validation("Transaction request cannot include multiple operations on one item");
      }
      RequestExpressions ex = RequestExpressions.of(get);
      Projection projection = ex.projection();
      ex.checkAllUsed();
      gets.add(new Get(table, key, projection));
    }
    for (int round = 0; round < ConditionalWrite.ROUNDS; round++) {
      List<Object> responses = new ArrayList<>();
      Batch.Builder checks = Batch.builder();
      for (Get g : gets) {
        DynamoDbKeys.Identity at = DynamoDbKeys.identity(g.table(), g.key());
        String pk = at.partitionKey();
        String id = at.id();
        Optional<Item> item = db.table(g.table().viewbaseName()).get(pk, id);
        checks.check(g.table().viewbaseName(), pk, id, item.map(Item::etag).orElse(null));
        Map<String, Object> response = new LinkedHashMap<>();
        item.map(StoredItems::fromItem)
            .ifPresent(
                i -> response.put("Item", g.projection() == null ? i : g.projection().apply(i)));
        responses.add(response);
      }
      try {
        db.commit(checks.build());
      } catch (ViewbaseException e) {
        if (ConditionalWrite.lostRace(e)) {
          continue;
        }
        throw e;
      }
      Map<String, Object> answer = new LinkedHashMap<>();
      answer.put("Responses", responses);
      return answer;
    }
    throw ViewbaseException.of(
        ErrorCode.TransactionConflict,
        "Transaction is ongoing for the item: the items kept changing while they were read");
  }

  // ---- TransactWriteItems ----

  Object transactWriteItems(RequestTree r) {
    List<RequestTree> actions = r.structures("TransactItems");
    if (actions == null || actions.isEmpty() || actions.size() > MAX_TRANSACT_ACTIONS) {
      throw validation(
          "1 validation error detected: Value at 'transactItems' failed to satisfy constraint:"
              + " Member must have length less than or equal to 100, Member must have length"
              + " greater than or equal to 1");
    }
    String token = r.string("ClientRequestToken");
    return tokens.once(token, r.members(), () -> transactWrite(r, actions));
  }

  /** One action of a transaction, parsed. */
  private record Action(
      String kind,
      DynamoDbTable table,
      Map<String, AttributeValue> key,
      Map<String, AttributeValue> item,
      Update update,
      Condition condition,
      boolean returnOnFailure) {}

  private Object transactWrite(RequestTree r, List<RequestTree> actions) {
    List<Action> parsed = new ArrayList<>();
    Set<List<Object>> seen = new HashSet<>();
    for (int i = 0; i < actions.size(); i++) {
      RequestTree action = actions.get(i);
      RequestTree spec = null;
      String kind = null;
      if (action != null && action.members().size() == 1) {
        kind = action.members().keySet().iterator().next();
        spec = action.structure(kind); // null when the member is null: no action either
      }
      if (spec == null) {
        throw validation("TransactItems can only contain one of Check, Put, Update or Delete");
      }
      DynamoDbTable table =
          tables.require(
              spec.string("TableName"),
              "transactItems."
                  + (i + 1)
                  + ".member."
                  + Character.toLowerCase(kind.charAt(0))
                  + kind.substring(1)
                  + ".tableName");
      RequestExpressions ex = RequestExpressions.of(spec);
      Map<String, AttributeValue> key;
      Map<String, AttributeValue> item = null;
      Update update = null;
      switch (kind) {
        case "Put" -> {
          item = AttributeValues.readItem(required(spec, "Item"));
          StoredItems.checkItem(table, item);
          key = StoredItems.keyOf(table, null, item);
        }
        case "Update" -> {
          key = AttributeValues.readItem(required(spec, "Key"));
          StoredItems.checkKey(table, key);
          update = ex.update();
          if (update != null) {
            update.checkKeyAttributes(key.keySet());
          }
          if (update == null) {
            throw validation(
                "1 validation error detected: Value null at 'transactItems.update."
                    + "updateExpression' failed to satisfy constraint: Member must not be null");
          }
        }
        case "Delete", "ConditionCheck" -> {
          key = AttributeValues.readItem(required(spec, "Key"));
          StoredItems.checkKey(table, key);
        }
        default ->
            throw validation("TransactItems can only contain one of Check, Put, Update or Delete");
      }
      Condition condition = ex.condition();
      if (kind.equals("ConditionCheck") && condition == null) {
        throw validation(
            "1 validation error detected: Value null at 'conditionExpression' failed to satisfy"
                + " constraint: Member must not be null");
      }
      ex.checkAllUsed();
      if (!seen.add(List.of(table.viewbaseName(), DynamoDbKeys.identity(table, key)))) {
        throw validation("Transaction request cannot include multiple operations on one item");
      }
      parsed.add(new Action(kind, table, key, item, update, condition, returnOldOnFailure(spec)));
    }
    for (int round = 0; round < ConditionalWrite.ROUNDS; round++) {
      Batch.Builder batch = Batch.builder();
      List<Map<String, Object>> reasons = new ArrayList<>();
      boolean failed = false;
      for (Action a : parsed) {
        DynamoDbKeys.Identity at = DynamoDbKeys.identity(a.table(), a.key());
        String pk = at.partitionKey();
        String id = at.id();
        String vb = a.table().viewbaseName();
        Optional<Item> read = db.table(vb).get(pk, id);
        String etag = read.map(Item::etag).orElse(null);
        Map<String, AttributeValue> current = read.map(StoredItems::fromItem).orElse(null);
        Map<String, Object> reason = new LinkedHashMap<>();
        if (a.condition() != null && !a.condition().test(current == null ? Map.of() : current)) {
          failed = true;
          reason.put("Code", "ConditionalCheckFailed");
          reason.put("Message", "The conditional request failed");
          if (a.returnOnFailure() && current != null) {
            reason.put("Item", current);
          }
          reasons.add(reason);
          continue;
        }
        reason.put("Code", "None");
        reasons.add(reason);
        Map<String, AttributeValue> next =
            switch (a.kind()) {
              case "Put" -> a.item();
              case "Update" -> a.update().apply(current, a.key()).item();
              default -> null;
            };
        if (next != null) {
          StoredItems.checkItem(a.table(), next);
          Item stored = StoredItems.toItem(a.table(), next);
          if (etag != null) {
            batch.replace(vb, stored, etag);
          } else {
            batch.insert(vb, stored);
          }
        } else if (a.kind().equals("Delete") && etag != null) {
          batch.delete(vb, pk, id, etag);
        } else {
          batch.check(vb, pk, id, etag);
        }
      }
      if (failed) {
        throw DynamoDbErrors.transactionCanceled(reasons);
      }
      try {
        db.commit(batch.build());
      } catch (ViewbaseException e) {
        if (ConditionalWrite.lostRace(e)) {
          continue;
        }
        throw e;
      }
      Map<String, Object> answer = new LinkedHashMap<>();
      Capacity.transaction(answer, r, parsed.stream().map(Action::table).toList());
      return answer;
    }
    throw ViewbaseException.of(
        ErrorCode.TransactionConflict,
        "Transaction is ongoing for the item: the items kept changing while they were decided");
  }

  // ---- shared ----

  /**
   * An answer holding the item as it was when the request asked for it (ALL_OLD) and there was one.
   */
  private static Map<String, Object> oldAttributes(
      String returnValues, Map<String, AttributeValue> before) {
    Map<String, Object> answer = new LinkedHashMap<>();
    if (returnValues.equals("ALL_OLD") && before != null) {
      answer.put("Attributes", before);
    }
    return answer;
  }

  private static void check(Condition condition, Map<String, AttributeValue> current, boolean old) {
    if (condition != null && !condition.test(current == null ? Map.of() : current)) {
      if (old && current != null) {
        throw ViewbaseException.of(
            ErrorCode.ConditionalCheckFailed, "The conditional request failed", "Item", current);
      }
      throw ViewbaseException.of(
          ErrorCode.ConditionalCheckFailed, "The conditional request failed");
    }
  }

  private static String returnValues(RequestTree r, String... allowed) {
    String v = r.string("ReturnValues");
    if (v == null) {
      return "NONE";
    }
    for (String a : allowed) {
      if (a.equals(v)) {
        return v;
      }
    }
    throw validation(
        "1 validation error detected: Value '"
            + v
            + "' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value"
            + " set: "
            + List.of(allowed));
  }

  private static boolean returnOldOnFailure(RequestTree r) {
    String v = r.string("ReturnValuesOnConditionCheckFailure");
    if (v == null || v.equals("NONE")) {
      return false;
    }
    if (v.equals("ALL_OLD")) {
      return true;
    }
    throw validation(
        "1 validation error detected: Value '"
            + v
            + "' at 'returnValuesOnConditionCheckFailure' failed to satisfy constraint: Member"
            + " must satisfy enum value set: [ALL_OLD, NONE]");
  }

  static Object required(RequestTree r, String member) {
    Object v = r.members().get(member);
    if (v == null) {
      String lower = Character.toLowerCase(member.charAt(0)) + member.substring(1);
      throw validation(
          "1 validation error detected: Value null at '"
              + lower
              + "' failed to satisfy constraint: Member must not be null");
    }
    return v;
  }

  static ViewbaseException validation(String message) {
    return ViewbaseException.of(ErrorCode.ValidationFailure, message);
  }
}
