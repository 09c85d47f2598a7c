package io.viewbase.benchmarks;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.Table;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.openjdk.jmh.annotations.Warmup;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

/**
 * Embedded write without sync ({@code table.upsert} on a database opened with {@code sync=false})
 * against a raw {@code RocksDB.put} with {@code sync=false} of the same bytes. Both overwrite
 * random existing items, so both pay for the same memtable growth, flushes and compactions.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class WriteBenchmark {
  @Param("100000")
  int items;

  private Path root;
  private Database db;
  private Table table;
  private Item[] toWrite;
  private RawRocksDb raw;
  private WriteOptions noSync;
  private byte[][] rawKeys;
  private byte[][] rawValues;

  @Setup(Level.Trial)
  public void setUp() throws IOException, RocksDBException {
    root = Files.createTempDirectory("viewbase-bench-write");
    Dataset dataset = Dataset.create(root, items);
    System.out.println("dataset: " + dataset.describe());
    rawKeys = dataset.keys();
    rawValues = dataset.values();
    toWrite = BenchItems.items(items);
    db = dataset.openEngine(false);
    table = db.table(BenchItems.TABLE);
    raw = dataset.openRaw();
    noSync = new WriteOptions().setSync(false);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    if (db != null) {
      db.close();
    }
    if (noSync != null) {
      noSync.close();
    }
    if (raw != null) {
      raw.close();
    }
    Dataset.deleteTree(root);
  }

  @Benchmark
  public Item engineUpsertNoSync() {
    return table.upsert(toWrite[ThreadLocalRandom.current().nextInt(items)]);
  }

  @Benchmark
  public void rawPutNoSync() throws RocksDBException {
    int i = ThreadLocalRandom.current().nextInt(rawKeys.length);
    raw.db().put(noSync, rawKeys[i], rawValues[i]);
  }
}
