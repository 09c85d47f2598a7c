package io.viewbase.benchmarks;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.ApiKey;
import io.viewbase.server.ApiKeys;
import io.viewbase.server.ApiRequest;
import io.viewbase.server.ApiResponse;
import io.viewbase.server.KeyScope;
import io.viewbase.server.NativeApi;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
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
 * What the API-key check costs a native point read, without a socket: {@link NativeApi#handle} of
 * the same point reads of the {@link BenchItems} data set on one RocksDB database, once through a
 * view of it that keeps no settings (so no keys: served openly) and once through a view that sees
 * its keys, each request with {@code Authorization: Bearer} and a read key for table Bench (a key
 * with a table list: the check that does the most). Both views are the same kind of proxy, so the
 * difference is the check: parsing the header, the id lookup, one SHA-256, the scope and table.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class ApiKeyCheckBenchmark {
  private static final int REQUESTS = 4096;
  private static final int PARTITIONS = 1000;

  @Param("100000")
  int items;

  private Database db;
  private NativeApi open;
  private NativeApi keyed;
  private final ApiRequest[] plainReads = new ApiRequest[REQUESTS];
  private final ApiRequest[] keyedReads = new ApiRequest[REQUESTS];
  private int next;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    db =
        Dataset.openLoadedOnce(
            "viewbase-bench-api-keys-" + items, loading -> Dataset.load(loading, items));
    Database withKeys = view(db, true);
    ApiKeys keys = ApiKeys.of(withKeys);
    for (ApiKey old : keys.list()) {
      keys.revoke(old.id()); // a run that died left its key in the reused data set
    }
    String key = keys.create(KeyScope.READ, List.of("Bench"), "bench").secret();
    open = new NativeApi(view(db, false));
    keyed = new NativeApi(withKeys);
    SplittableRandom random = new SplittableRandom(42);
    for (int r = 0; r < REQUESTS; r++) {
      int i = random.nextInt(items);
      String path =
          "/v1/tables/Bench/items/"
              + String.format("p%03d", i % PARTITIONS)
              + "/"
              + String.format("i%07d", i);
      plainReads[r] = ApiRequest.of("GET", path);
      keyedReads[r] = ApiRequest.of("GET", path).withAuthorization("Bearer " + key);
    }
    check(open.handle(plainReads[0]).status(), keyed.handle(keyedReads[0]).status());
    if (keyed.handle(plainReads[0]).status() != 401) {
      throw new IllegalStateException("the keyed API served a request without a key");
    }
  }

  private static void check(int openStatus, int keyedStatus) {
    if (openStatus != 200 || keyedStatus != 200) {
      throw new IllegalStateException(
          "expected 200 from both, got " + openStatus + " and " + keyedStatus);
    }
  }

  /** The database through a proxy; without settings, it has no keys. */
  private static Database view(Database real, boolean settings) {
    return (Database)
        Proxy.newProxyInstance(
            Database.class.getClassLoader(),
            new Class<?>[] {Database.class},
            (proxy, method, args) -> {
              if (!settings && method.getName().equals("setting")) {
                throw new ViewbaseException(ErrorCode.NotImplemented, "no settings in this view");
              }
              if (method.getName().equals("close")) {
                return null; // the real one is closed once, in tearDown
              }
              try {
                return method.invoke(real, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
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
  public ApiResponse pointReadWithoutKeys() {
    return open.handle(plainReads[nextIndex()]);
  }

  @Benchmark
  public ApiResponse pointReadWithAKey() {
    return keyed.handle(keyedReads[nextIndex()]);
  }
}
