package io.viewbase.benchmarks;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.Table;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Durable writes from 64 concurrent writers: the engine opened with {@code sync=true}, where
 * concurrent commits share one log sync (group commit), against "one sync per write": the same 64
 * threads whose raw {@code RocksDB.put}s with {@code sync=true} are serialized by a lock, which is
 * what a store without group commit does. Target (issue acceptance 5): group commit at least 20x
 * the writes per second of one sync per write.
 *
 * <p>The lock matters: RocksDB itself groups concurrent synced writers into one WAL sync, so raw
 * puts from 64 unlocked threads measure RocksDB's own group commit, not its absence. That is the
 * third figure, a control: the most that grouping syncs can give on this machine and disk, to tell
 * a weak group commit in the engine from a machine where syncs are cheap next to CPU.
 *
 * <p>{@code engineUpsertAsync64InFlight} keeps the same 64 writes in flight from one thread with
 * {@code Table.upsertAsync}, as the server's event loops do (each request a write in flight, no
 * thread parked for it): each operation waits for the oldest of its 64 writes and starts a new one,
 * so its rate is durable writes per second with 64 concurrent.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
@Threads(64)
public class DurableWriteBenchmark {
  @Param("100000")
  int items;

  /**
   * The log's compression ({@code rocksdb.walCompression}), for the engine and the raw baselines
   * alike (the raw copy has the engine's RocksDB options): {@code -p walCompression=zstd,none}
   * measures both in one run.
   */
  @Param("zstd")
  String walCompression;

  /**
   * Memtable size ({@code rocksdb.writeBufferBytes}), small enough that every benchmark switches
   * memtables, and so reuses flushed log files, within its priming writes.
   */
  @Param("8m")
  String writeBufferBytes;

  /**
   * Writes made before measuring, each benchmark in its own way (below): enough for several
   * memtable switches, so that both sides of the comparison write into recycled log files, as a
   * running server does (docs/benchmarks.md, "Recycled log files"), and not one side into new
   * files.
   */
  @Param("150000")
  int primeWrites;

  private Path root;
  private Database db;
  private Table table;
  private Item[] toWrite;
  private RawRocksDb raw;
  private WriteOptions sync;
  private byte[][] rawKeys;
  private byte[][] rawValues;
  private final Object oneWriterAtATime = new Object();

  @Setup(Level.Trial)
  public void setUp(BenchmarkParams params) throws IOException, RocksDBException {
    root = Files.createTempDirectory("viewbase-bench-durable");
    Dataset dataset =
        Dataset.create(
            root,
            items,
            Map.of(
                "rocksdb.walCompression",
                walCompression,
                "rocksdb.writeBufferBytes",
                writeBufferBytes));
    System.out.println("dataset: " + dataset.describe());
    rawKeys = dataset.keys();
    rawValues = dataset.values();
    toWrite = BenchItems.items(items);
    db = dataset.openEngine(true);
    table = db.table(BenchItems.TABLE);
    raw = dataset.openRaw();
    sync = new WriteOptions().setSync(true);
    prime(params.getBenchmark());
  }

  /**
   * Writes {@link #primeWrites} items the way the benchmark will, so that its log records (one per
   * write, or one per group: they compress differently) fill the log files it will later write
   * over. The raw baselines prime without sync, in records of the same shape.
   */
  private void prime(String benchmark) throws RocksDBException {
    long started = System.nanoTime();
    if (benchmark.endsWith(".engineUpsertOneSyncPerWrite")) {
      for (int i = 0; i < primeWrites; i++) {
        table.upsert(toWrite[i % items]);
      }
    } else if (benchmark.endsWith(".rawPutOneSyncPerWrite")) {
      try (WriteOptions unsynced = new WriteOptions()) {
        for (int i = 0; i < primeWrites; i++) {
          raw.db().put(unsynced, rawKeys[i % rawKeys.length], rawValues[i % rawKeys.length]);
        }
      }
    } else if (benchmark.endsWith(".rawPutRocksDbGroupCommit")) {
      try (WriteOptions unsynced = new WriteOptions()) {
        for (int i = 0; i < primeWrites; i += InFlight.WRITES) {
          try (WriteBatch group = new WriteBatch()) {
            for (int j = i; j < i + InFlight.WRITES; j++) {
              group.put(rawKeys[j % rawKeys.length], rawValues[j % rawKeys.length]);
            }
            raw.db().write(unsynced, group);
          }
        }
      }
    } else {
      InFlightUpserts.write(table, toWrite, InFlight.WRITES, primeWrites);
    }
    System.out.printf(
        "primed with %,d writes in %.1f s%n", primeWrites, (System.nanoTime() - started) / 1e9);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    if (db != null) {
      db.close();
    }
    if (sync != null) {
      sync.close();
    }
    if (raw != null) {
      raw.close();
    }
    Dataset.deleteTree(root);
  }

  @Benchmark
  public Item engineUpsertGroupCommit() {
    return table.upsert(toWrite[ThreadLocalRandom.current().nextInt(items)]);
  }

  /** One thread's writes in flight, oldest first (a ring). */
  @State(Scope.Thread)
  public static class InFlight {
    static final int WRITES = 64;
    final CompletableFuture<?>[] ring = new CompletableFuture<?>[WRITES];
    int oldest;

    /** Lets every write finish, so that none runs into the next iteration or past the trial. */
    @TearDown(Level.Iteration)
    public void drain() {
      for (int i = 0; i < WRITES; i++) {
        if (ring[i] != null) {
          ring[i].join();
          ring[i] = null;
        }
      }
    }
  }

  @Benchmark
  @Threads(1)
  public Object engineUpsertAsync64InFlight(InFlight inFlight) {
    CompletableFuture<?> done = inFlight.ring[inFlight.oldest];
    Object result = done == null ? null : done.join();
    inFlight.ring[inFlight.oldest] =
        table.upsertAsync(toWrite[ThreadLocalRandom.current().nextInt(items)]);
    inFlight.oldest = (inFlight.oldest + 1) % InFlight.WRITES;
    return result;
  }

  @Benchmark
  public void rawPutRocksDbGroupCommit() throws RocksDBException {
    int i = ThreadLocalRandom.current().nextInt(rawKeys.length);
    raw.db().put(sync, rawKeys[i], rawValues[i]);
  }

  /**
   * The engine's own "one sync per write": the same upserts as {@code engineUpsertGroupCommit},
   * serialized by a lock, so that each is a group of one with its own log sync. Against it, group
   * commit is measured with everything else equal (the engine's work per write, the compressed
   * log); against {@code rawPutOneSyncPerWrite}, whose puts skip the engine, it is not.
   */
  @Benchmark
  public Item engineUpsertOneSyncPerWrite() {
    synchronized (oneWriterAtATime) {
      return table.upsert(toWrite[ThreadLocalRandom.current().nextInt(items)]);
    }
  }

  @Benchmark
  public void rawPutOneSyncPerWrite() throws RocksDBException {
    int i = ThreadLocalRandom.current().nextInt(rawKeys.length);
    synchronized (oneWriterAtATime) {
      raw.db().put(sync, rawKeys[i], rawValues[i]);
    }
  }
}
