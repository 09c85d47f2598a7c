package io.viewbase.benchmarks.dynamodb;

import io.viewbase.benchmarks.sidebyside.Operation;
import io.viewbase.benchmarks.sidebyside.Target;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The AWS SDK workload against one server: one table, its index and the operation of each phase.
 * Every operation checks its answer (the right item, every item of the partition or index key, no
 * unprocessed write), so both servers are measured doing the same, correct work.
 *
 * <p>The table: {@code pk} (S, partition key), {@code sk} (S, sort key), on demand, with one global
 * index {@code byCode} ({@code code} S, {@code sk} S, every attribute projected), which every write
 * of every phase maintains.
 *
 * <table>
 *   <caption>Phases</caption>
 *   <tr><th>phase</th><th>one operation</th></tr>
 *   <tr><td>load</td><td>BatchWriteItem of 25 items of one partition of the big part</td></tr>
 *   <tr><td>insert</td><td>PutItem of a new item (partitions {@code n000}..{@code n999})</td></tr>
 *   <tr><td>point read</td><td>GetItem of a random loaded item</td></tr>
 *   <tr><td>query</td><td>Query {@code pk = p042}: the 100 items of a random partition, every page</td></tr>
 *   <tr><td>index query</td><td>Query of {@code byCode} with {@code code = c042}: 100 items spread
 *       over 100 partitions, every page</td></tr>
 *   <tr><td>batch write</td><td>BatchWriteItem of 25 new items in a new partition</td></tr>
 * </table>
 *
 * <p>Each phase's operation opens a new client (new connections): dynalite, a Node server, closes a
 * connection left idle for 5 s, as the other server's phase leaves it, and a request sent on it as
 * it closes fails; the SDK, without retries, would report that failure.
 */
final class DynamoDbWorkload {
  static final String TABLE = "DdbBench";
  static final String INDEX = "byCode";
  static final int BATCH_SIZE = 25;

  private final Target target;
  private final DynamoDbClients.Transport transport;
  private final int items;
  private final int partitions;
  private final AtomicLong nextLoad = new AtomicLong();
  private final AtomicLong nextInsert = new AtomicLong();
  private final AtomicLong nextBatch = new AtomicLong();
  private DynamoDbClient dynamo;

  /**
   * Creates the workload's table on the target (a fresh server: it may not exist yet) and waits
   * until it and its index are active; the big part will hold {@code items} items in {@code
   * partitions} partitions.
   */
  DynamoDbWorkload(
      Target target, DynamoDbClients.Transport transport, int items, int partitions, Duration wait)
      throws InterruptedException {
    int perPartition = items / Math.max(1, partitions);
    if (partitions < 1
        || items % partitions != 0
        || perPartition % Math.min(perPartition, BATCH_SIZE) != 0
        || items % 100 != 0) {
      throw new IllegalArgumentException(
          "--items must be a multiple of 100 that fills the "
              + partitions
              + " partitions alike, each with at most "
              + BATCH_SIZE
              + " items or a multiple of it; was "
              + items);
    }
    this.target = target;
    this.transport = transport;
    this.items = items;
    this.partitions = partitions;
    this.dynamo = DynamoDbClients.client(target, transport);
    createTable(wait);
  }

  int perPartition() {
    return items / partitions;
  }

  /** How many loaded items carry each code: the blocks of 100 numbered c, c + 1000, ... */
  int perCode(long code) {
    int matches = 0;
    for (long block = code; block * 100 < items; block += 1000) {
      matches += 100;
    }
    return matches;
  }

  private void createTable(Duration wait) throws InterruptedException {
    dynamo.createTable(
        b ->
            b.tableName(TABLE)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                    definition(PersonItems.PK),
                    definition(PersonItems.SK),
                    definition(PersonItems.CODE))
                .keySchema(key(PersonItems.PK, KeyType.HASH), key(PersonItems.SK, KeyType.RANGE))
                .globalSecondaryIndexes(
                    GlobalSecondaryIndex.builder()
                        .indexName(INDEX)
                        .keySchema(
                            key(PersonItems.CODE, KeyType.HASH), key(PersonItems.SK, KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.ALL))
                        .build()));
    // dynalite answers CREATING for half a second (its --createTableMs); Viewbase ACTIVE at once
    long deadline = System.nanoTime() + wait.toNanos();
    while (!active(dynamo.describeTable(b -> b.tableName(TABLE)).table())) {
      expect(System.nanoTime() < deadline, "table " + TABLE + " not active after " + wait);
      Thread.sleep(50);
    }
  }

  private static boolean active(TableDescription table) {
    return table.tableStatus() == TableStatus.ACTIVE
        && table.globalSecondaryIndexes().stream()
            .map(GlobalSecondaryIndexDescription::indexStatusAsString)
            .allMatch("ACTIVE"::equals);
  }

  /**
   * Loads the big part with 25-item batches: partition p gets items p, p + P, ...; a partition of
   * more than 25 items takes several batches. False when all are loaded.
   */
  Operation load() {
    DynamoDbClient client = reconnect();
    int size = Math.min(perPartition(), BATCH_SIZE);
    long total = (long) partitions * (perPartition() / size);
    return random -> {
      long n = nextLoad.getAndIncrement();
      if (n >= total) {
        return false;
      }
      long partition = n % partitions;
      long chunk = n / partitions;
      List<WriteRequest> writes = new ArrayList<>(size);
      for (int j = 0; j < size; j++) {
        writes.add(put(PersonItems.big(partition + partitions * (chunk * size + j), partitions)));
      }
      expectAllProcessed(client.batchWriteItem(b -> b.requestItems(Map.of(TABLE, writes))));
      return true;
    };
  }

  Operation insert() {
    DynamoDbClient client = reconnect();
    return random -> {
      long i = nextInsert.getAndIncrement();
      Map<String, AttributeValue> item = PersonItems.inserted(i);
      client.putItem(b -> b.tableName(TABLE).item(item));
      return true;
    };
  }

  Operation pointRead() {
    DynamoDbClient client = reconnect();
    return random -> {
      long i = random.nextInt(items);
      Map<String, AttributeValue> item =
          client
              .getItem(
                  b ->
                      b.tableName(TABLE)
                          .key(
                              PersonItems.key(
                                  PersonItems.partition(i % partitions), PersonItems.sortKey(i))))
              .item();
      expect(
          item != null && ("Person " + i).equals(item.get("name").s()),
          "GetItem of item " + i + " answered " + item);
      return true;
    };
  }

  Operation query() {
    DynamoDbClient client = reconnect();
    return random -> {
      String partition = PersonItems.partition(random.nextInt(partitions));
      int count =
          queryAll(
              client,
              QueryRequest.builder()
                  .tableName(TABLE)
                  .keyConditionExpression("pk = :p")
                  .expressionAttributeValues(Map.of(":p", PersonItems.s(partition))),
              PersonItems.PK,
              partition);
      expect(
          count == perPartition(),
          "partition " + partition + " has " + perPartition() + " items, Query answered " + count);
      return true;
    };
  }

  Operation indexQuery() {
    DynamoDbClient client = reconnect();
    return random -> {
      int code = random.nextInt(Math.min(1000, items / 100));
      String value = PersonItems.code(code);
      int count =
          queryAll(
              client,
              QueryRequest.builder()
                  .tableName(TABLE)
                  .indexName(INDEX)
                  .keyConditionExpression("#c = :c")
                  .expressionAttributeNames(Map.of("#c", PersonItems.CODE))
                  .expressionAttributeValues(Map.of(":c", PersonItems.s(value))),
              PersonItems.CODE,
              value);
      expect(
          count == perCode(code),
          "code " + value + " has " + perCode(code) + " items, the index Query answered " + count);
      return true;
    };
  }

  Operation batchWrite() {
    DynamoDbClient client = reconnect();
    return random -> {
      String partition = "b" + nextBatch.getAndIncrement();
      List<WriteRequest> writes = new ArrayList<>(BATCH_SIZE);
      for (int j = 0; j < BATCH_SIZE; j++) {
        writes.add(put(PersonItems.person(partition, PersonItems.sortKey(j), partition, j)));
      }
      expectAllProcessed(client.batchWriteItem(b -> b.requestItems(Map.of(TABLE, writes))));
      return true;
    };
  }

  /** The items a Query answers over all its pages, each checked to have {@code name = value}. */
  private static int queryAll(
      DynamoDbClient client, QueryRequest.Builder request, String name, String value) {
    int count = 0;
    Map<String, AttributeValue> start = null;
    do {
      QueryResponse page = client.query(request.exclusiveStartKey(start).build());
      for (Map<String, AttributeValue> item : page.items()) {
        expect(
            value.equals(item.get(name).s()),
            "Query of " + name + " = " + value + " answered " + item);
        count++;
      }
      start = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
    } while (start != null);
    return count;
  }

  /** A new client for the next phase, closing the last one's connections. */
  private synchronized DynamoDbClient reconnect() {
    dynamo.close();
    dynamo = DynamoDbClients.client(target, transport);
    return dynamo;
  }

  private static WriteRequest put(Map<String, AttributeValue> item) {
    return WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build();
  }

  private static AttributeDefinition definition(String name) {
    return AttributeDefinition.builder()
        .attributeName(name)
        .attributeType(ScalarAttributeType.S)
        .build();
  }

  private static KeySchemaElement key(String name, KeyType type) {
    return KeySchemaElement.builder().attributeName(name).keyType(type).build();
  }

  private static void expectAllProcessed(BatchWriteItemResponse response) {
    expect(
        response.unprocessedItems().isEmpty(),
        "BatchWriteItem left items unprocessed: " + response.unprocessedItems());
  }

  private static void expect(boolean condition, String message) {
    if (!condition) {
      throw new IllegalStateException(message);
    }
  }
}
