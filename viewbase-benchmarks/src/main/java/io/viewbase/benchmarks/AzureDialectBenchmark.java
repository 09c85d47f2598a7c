package io.viewbase.benchmarks;

import io.viewbase.api.Database;
import io.viewbase.server.ApiRequest;
import io.viewbase.server.ApiResponse;
import io.viewbase.server.NativeApi;
import io.viewbase.server.azure.AzureApi;
import io.viewbase.server.azure.AzureOptions;
import io.viewbase.server.azure.AzureRequest;
import io.viewbase.server.azure.AzureResponse;
import java.io.IOException;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
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

/**
 * What the Azure dialect costs on top of the native API, without a socket: the same point reads and
 * partition queries (100 items) of the {@link BenchItems} data set, as {@link AzureApi#handle} of
 * requests shaped and signed as the Java SDK sends them (SharedKeyLite, minimal metadata) and as
 * {@link NativeApi#handle}. Both sides do all their own work: routing, authentication (Azure), the
 * engine read, the JSON answer and its headers; neither touches the network.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class AzureDialectBenchmark {
  private static final int REQUESTS = 4096;
  private static final int PARTITIONS = 1000;

  @Param("100000")
  int items;

  private Database db;
  private AzureApi azure;
  private NativeApi nativeApi;
  private final AzureRequest[] azureReads = new AzureRequest[REQUESTS];
  private final AzureRequest[] azureQueries = new AzureRequest[REQUESTS];
  private final ApiRequest[] nativeReads = new ApiRequest[REQUESTS];
  private final ApiRequest[] nativeQueries = new ApiRequest[REQUESTS];
  private int next;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    db =
        Dataset.openLoadedOnce(
            "viewbase-bench-azure-dialect-" + items, loading -> Dataset.load(loading, items));
    azure = new AzureApi(db, AzureOptions.defaults());
    nativeApi = new NativeApi(db);
    // Signed once here: a SharedKeyLite signature stays valid for 15 minutes, longer than a run.
    String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
    SplittableRandom random = new SplittableRandom(42);
    for (int r = 0; r < REQUESTS; r++) {
      int i = random.nextInt(items);
      String pk = String.format("p%03d", i % PARTITIONS);
      String id = String.format("i%07d", i);
      azureReads[r] =
          signed(
              "/devstoreaccount1/Bench(PartitionKey='" + pk + "',RowKey='" + id + "')", "", date);
      azureQueries[r] =
          signed(
              "/devstoreaccount1/Bench()", "?$filter=PartitionKey%20eq%20%27" + pk + "%27", date);
      nativeReads[r] = ApiRequest.of("GET", "/v1/tables/Bench/items/" + pk + "/" + id);
      nativeQueries[r] = ApiRequest.of("GET", "/v1/tables/Bench/items/" + pk);
    }
    check(azure.handle(azureReads[0]).status(), nativeApi.handle(nativeReads[0]).status());
    check(azure.handle(azureQueries[0]).status(), nativeApi.handle(nativeQueries[0]).status());
  }

  private static void check(int azureStatus, int nativeStatus) {
    if (azureStatus != 200 || nativeStatus != 200) {
      throw new IllegalStateException(
          "expected 200 from both APIs, got " + azureStatus + " and " + nativeStatus);
    }
  }

  /**
   * A GET as the Java SDK sends it: x-ms-date, SharedKeyLite over an empty date line and the
   * resource.
   */
  private static AzureRequest signed(String path, String query, String date) {
    Map<String, String> headers = new HashMap<>();
    headers.put("host", "127.0.0.1:10002");
    headers.put("x-ms-date", date);
    headers.put("x-ms-version", "2019-02-02");
    headers.put("accept", "application/json;odata=minimalmetadata");
    headers.put("dataserviceversion", "3.0");
    headers.put("x-ms-client-request-id", "0f8fad5b-d9cb-469f-a165-70867728950e");
    headers.put(
        "authorization",
        "SharedKeyLite devstoreaccount1:" + DevAccountKey.sign("\n/devstoreaccount1" + path));
    return new AzureRequest("GET", path + query, headers, null, "127.0.0.1");
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    db.close();
  }

  private int nextIndex() {
    next = (next + 1) & (REQUESTS - 1);
    return next;
  }

  @Benchmark
  public AzureResponse azurePointRead() {
    return azure.handle(azureReads[nextIndex()]);
  }

  @Benchmark
  public ApiResponse nativePointRead() {
    return nativeApi.handle(nativeReads[nextIndex()]);
  }

  @Benchmark
  public AzureResponse azurePartitionQuery() {
    return azure.handle(azureQueries[nextIndex()]);
  }

  @Benchmark
  public ApiResponse nativePartitionQuery() {
    return nativeApi.handle(nativeQueries[nextIndex()]);
  }
}
