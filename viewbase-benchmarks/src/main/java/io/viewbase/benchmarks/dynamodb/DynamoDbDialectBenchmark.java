package io.viewbase.benchmarks.dynamodb;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.benchmarks.Dataset;
import io.viewbase.server.dynamodb.DynamoDbAnswer;
import io.viewbase.server.dynamodb.DynamoDbApi;
import io.viewbase.server.dynamodb.DynamoDbOptions;
import io.viewbase.server.dynamodb.RequestSigner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What the DynamoDB dialect costs per request without a socket: {@link DynamoDbApi#handle} of
 * requests signed as the AWS SDKs sign them (SigV4 over host, x-amz-date, x-amz-target and the
 * content type), over RocksDB in a temporary directory. The table is {@link DynamoDbSdkBench}'s:
 * {@code pk}/{@code sk}, the global index {@code byCode}, the person items of {@link PersonItems}
 * (about 200 bytes, {@link PersonItems#big}: {@code items / 100} partitions of 100 and, up to
 * 100,000 items, each code on 100 items of 100 partitions; the writes {@link
 * PersonItems#inserted}). Every answer is checked once at setup; the benchmarks then return it (JMH
 * consumes it).
 *
 * <ul>
 *   <li>{@code getItem}: GetItem of a random loaded item;
 *   <li>{@code query}: Query {@code pk = :p}, the 100 items of a random partition;
 *   <li>{@code indexQuery}: Query of {@code byCode}, {@code code = :c}, 100 items;
 *   <li>{@code putItem}: PutItem of a new item (its index entry in the same commit), without the
 *       log sync, so that the dialect's and the engine's CPU show rather than the disk's.
 * </ul>
 *
 * <p>Signed once at setup: SigV4 allows a request's date 15 minutes of skew, more than a run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class DynamoDbDialectBenchmark {
  private static final int REQUESTS = 4096;
  private static final String HOST = "127.0.0.1:8000";
  private static final String REGION = "us-east-1";
  private static final String TABLE = "DdbBench";

  @Param("10000")
  int items;

  private Path dir;
  private Database db;
  private DynamoDbApi api;
  private final Signed[] reads = new Signed[REQUESTS];
  private final Signed[] queries = new Signed[REQUESTS];
  private final Signed[] indexQueries = new Signed[REQUESTS];
  private final Signed[] puts = new Signed[REQUESTS];
  private int next;

  /** A request as the listener hands it on: headers and body, signed. */
  private record Signed(HttpHeaders headers, byte[] body) {}

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("viewbase-bench-dynamodb-dialect");
    db = Viewbase.open(OpenOptions.at(dir).withSync(false));
    api = new DynamoDbApi(db, DynamoDbOptions.defaults());
    serve(
        "CreateTable",
        "{\"TableName\":\""
            + TABLE
            + "\",\"BillingMode\":\"PAY_PER_REQUEST\",\"AttributeDefinitions\":["
            + "{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},"
            + "{\"AttributeName\":\"sk\",\"AttributeType\":\"S\"},"
            + "{\"AttributeName\":\"code\",\"AttributeType\":\"S\"}],"
            + "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
            + "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}],"
            + "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"byCode\",\"KeySchema\":["
            + "{\"AttributeName\":\"code\",\"KeyType\":\"HASH\"},"
            + "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}],"
            + "\"Projection\":{\"ProjectionType\":\"ALL\"}}]}");
    int partitions = Math.max(1, items / 100);
    for (int first = 0; first < items; first += 25) {
      StringBuilder batch = new StringBuilder("{\"RequestItems\":{\"" + TABLE + "\":[");
      for (int i = first; i < Math.min(items, first + 25); i++) {
        batch.append(i == first ? "" : ",").append("{\"PutRequest\":{\"Item\":");
        batch.append(json(PersonItems.big(i, partitions)));
        batch.append("}}");
      }
      serve("BatchWriteItem", batch.append("]}}").toString());
    }
    SplittableRandom random = new SplittableRandom(42);
    for (int r = 0; r < REQUESTS; r++) {
      int i = random.nextInt(items);
      Map<String, AttributeValue> loaded = PersonItems.big(i, partitions);
      String pk = loaded.get(PersonItems.PK).s();
      reads[r] =
          signed(
              "GetItem",
              "{\"TableName\":\""
                  + TABLE
                  + "\",\"Key\":{\"pk\":{\"S\":\""
                  + pk
                  + "\"},\"sk\":{\"S\":\""
                  + loaded.get(PersonItems.SK).s()
                  + "\"}}}");
      queries[r] = signed("Query", query(null, "pk", pk));
      indexQueries[r] =
          signed("Query", query("byCode", PersonItems.CODE, loaded.get(PersonItems.CODE).s()));
      puts[r] =
          signed(
              "PutItem",
              "{\"TableName\":\""
                  + TABLE
                  + "\",\"Item\":"
                  + json(PersonItems.inserted(items + (long) r))
                  + "}");
    }
    check(reads[0], "\"Person ");
    check(queries[0], "\"Count\":100,");
    check(indexQueries[0], "\"Count\":100,");
  }

  private static String query(String index, String name, String value) {
    return "{\"TableName\":\""
        + TABLE
        + "\","
        + (index == null ? "" : "\"IndexName\":\"" + index + "\",")
        + "\"KeyConditionExpression\":\"#k = :v\",\"ExpressionAttributeNames\":{\"#k\":\""
        + name
        + "\"},\"ExpressionAttributeValues\":{\":v\":{\"S\":\""
        + value
        + "\"}}}";
  }

  /** A {@link PersonItems} item in DynamoDB JSON: its strings, numbers and booleans. */
  private static String json(Map<String, AttributeValue> item) {
    StringBuilder json = new StringBuilder("{");
    item.forEach(
        (name, value) -> {
          json.append(json.length() == 1 ? "" : ",").append('"').append(name).append("\":");
          if (value.s() != null) {
            json.append("{\"S\":\"").append(value.s()).append("\"}");
          } else if (value.n() != null) {
            json.append("{\"N\":\"").append(value.n()).append("\"}");
          } else if (value.bool() != null) {
            json.append("{\"BOOL\":").append(value.bool()).append('}');
          } else {
            throw new IllegalStateException("a person's " + name + " is " + value);
          }
        });
    return json.append('}').toString();
  }

  private static Signed signed(String operation, String json) {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    HttpHeaders headers = new DefaultHttpHeaders();
    for (Map.Entry<String, String> h :
        RequestSigner.localHeaders(HOST, operation, REGION, body).entrySet()) {
      headers.add(h.getKey(), h.getValue());
    }
    headers.add("content-length", Integer.toString(body.length));
    return new Signed(headers, body);
  }

  private void serve(String operation, String json) {
    check(signed(operation, json), "");
  }

  private void check(Signed request, String expected) {
    DynamoDbAnswer answer = handle(request);
    if (answer.status() != 200 || !answer.bodyText().contains(expected)) {
      throw new IllegalStateException("expected " + expected + " in " + answer.bodyText());
    }
  }

  private DynamoDbAnswer handle(Signed request) {
    return api.handle("POST", "/", request.headers(), request.body());
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    api.close();
    db.close();
    Dataset.deleteTree(dir);
  }

  private int nextIndex() {
    next = (next + 1) & (REQUESTS - 1);
    return next;
  }

  @Benchmark
  public DynamoDbAnswer getItem() {
    return handle(reads[nextIndex()]);
  }

  @Benchmark
  public DynamoDbAnswer query() {
    return handle(queries[nextIndex()]);
  }

  @Benchmark
  public DynamoDbAnswer indexQuery() {
    return handle(indexQueries[nextIndex()]);
  }

  /**
   * A new item each call while the 4096 signed ones last; then the same items again, which replaces
   * them (a write of the same size, its index entry replaced in the same commit).
   */
  @Benchmark
  public DynamoDbAnswer putItem() {
    return handle(puts[nextIndex()]);
  }
}
