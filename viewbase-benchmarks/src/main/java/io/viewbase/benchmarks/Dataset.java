package io.viewbase.benchmarks;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Table;
import io.viewbase.api.Viewbase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * A RocksDB-backed Viewbase database loaded with {@link BenchItems}, and beside it a raw RocksDB
 * holding exactly the key and value bytes that the engine stored, under the same options.
 *
 * <p>The raw copy is made from the engine's own files rather than by re-encoding items here, so key
 * and value sizes match whatever the engine's codecs and backend actually write. Both are flushed
 * and fully compacted before measuring, so neither reads through a memtable or a deeper LSM than
 * the other.
 *
 * @param engineDir the engine's data directory (closed; open it with {@link #openEngine})
 * @param rawDir the raw copy's directory (closed; open it with {@link #openRaw})
 * @param keys the raw keys of the engine's largest column family (the items, plus the few catalog
 *     entries when the backend keeps them in the same column family)
 * @param values the raw value stored under each key
 * @param storeOptions the store options (beyond the block cache) the engine was created and is
 *     opened with; the raw copy has the same RocksDB options
 */
public record Dataset(
    Path engineDir, Path rawDir, byte[][] keys, byte[][] values, Map<String, String> storeOptions) {
  /**
   * Block cache of both databases: the RocksDB backend's default (128 MiB), set explicitly on both
   * because an OPTIONS file does not record it. The data set fits in it, as a hot set would.
   */
  public static final long BLOCK_CACHE_BYTES = 128L << 20;

  /**
   * Loads {@code count} items into a new engine database under {@code root} and copies its bytes.
   */
  public static Dataset create(Path root, int count) {
    return create(root, count, Map.of());
  }

  /**
   * The same, the engine (and so the raw copy's RocksDB options) set up with {@code storeOptions}.
   */
  public static Dataset create(Path root, int count, Map<String, String> storeOptions) {
    Path engineDir = root.resolve("engine");
    Path rawDir = root.resolve("raw");
    try (Database db = Viewbase.open(engineOptions(engineDir, false, storeOptions))) {
      load(db, count);
    }
    try (RawRocksDb engine = RawRocksDb.open(engineDir, BLOCK_CACHE_BYTES)) {
      engine.settle();
      ColumnFamilyHandle items = engine.largestColumnFamily();
      try (RawRocksDb raw =
          RawRocksDb.createLike(rawDir, engineDir, items.getName(), BLOCK_CACHE_BYTES)) {
        Dataset dataset = copy(engine, items, raw, engineDir, rawDir, storeOptions);
        raw.settle();
        return dataset;
      }
    } catch (RocksDBException e) {
      throw new IllegalStateException(
          "could not copy the engine's RocksDB files: " + e.getMessage(), e);
    }
  }

  /** Creates the benchmark table in {@code db} and writes items 0..count-1 into it. */
  public static void load(Database db, int count) {
    db.createTable(BenchItems.TABLE);
    Table table = db.table(BenchItems.TABLE);
    for (Item item : BenchItems.items(count)) {
      table.upsert(item);
    }
  }

  private static Dataset copy(
      RawRocksDb engine,
      ColumnFamilyHandle from,
      RawRocksDb raw,
      Path engineDir,
      Path rawDir,
      Map<String, String> storeOptions)
      throws RocksDBException {
    List<byte[]> keys = new ArrayList<>();
    List<byte[]> values = new ArrayList<>();
    try (RocksIterator it = engine.db().newIterator(from);
        // logged, unsynced (settle flushes): RocksDB refuses writes without the log once its
        // logs are recycled, as the engine's OPTIONS, which the raw copy has, say they are
        WriteOptions bulk = new WriteOptions()) {
      WriteBatch batch = new WriteBatch();
      for (it.seekToFirst(); it.isValid(); it.next()) {
        keys.add(it.key());
        values.add(it.value());
        batch.put(it.key(), it.value());
        if (batch.count() == 1000) {
          raw.db().write(bulk, batch);
          batch.close();
          batch = new WriteBatch();
        }
      }
      raw.db().write(bulk, batch);
      batch.close();
    }
    return new Dataset(
        engineDir,
        rawDir,
        keys.toArray(new byte[0][]),
        values.toArray(new byte[0][]),
        storeOptions);
  }

  /** Opens the engine's database with the given durability. */
  public Database openEngine(boolean sync) {
    return Viewbase.open(engineOptions(engineDir, sync, storeOptions));
  }

  /** Opens the raw copy. */
  public RawRocksDb openRaw() throws RocksDBException {
    return RawRocksDb.open(rawDir, BLOCK_CACHE_BYTES);
  }

  private static OpenOptions engineOptions(
      Path dir, boolean sync, Map<String, String> storeOptions) {
    Map<String, String> options = new HashMap<>(storeOptions);
    options.put("rocksdb.blockCacheBytes", Long.toString(BLOCK_CACHE_BYTES));
    return OpenOptions.at(dir).withSync(sync).withOptions(options);
  }

  /** Mean key and value sizes, for the benchmark log. */
  public String describe() {
    long keyBytes = 0;
    long valueBytes = 0;
    for (int i = 0; i < keys.length; i++) {
      keyBytes += keys[i].length;
      valueBytes += values[i].length;
    }
    return String.format(
        "%d entries, mean key %d B, mean value %d B",
        keys.length, keyBytes / Math.max(1, keys.length), valueBytes / Math.max(1, keys.length));
  }

  /**
   * What loads a kept dataset into a fresh database (the checked exceptions of a setup may pass).
   */
  @FunctionalInterface
  public interface Loader {
    void load(Database db) throws Exception;
  }

  /**
   * A database under {@code <tmpdir>/<name>}, loaded by {@code loader} on the first run only (a
   * marker file says the load finished) and opened without sync: large datasets survive between
   * benchmark runs instead of being loaded again each time.
   */
  public static Database openLoadedOnce(String name, Loader loader) throws IOException {
    Path dir = Path.of(System.getProperty("java.io.tmpdir"), name);
    Path done = dir.resolve("loaded");
    if (!Files.exists(done)) {
      deleteTree(dir);
      Files.createDirectories(dir);
      try (Database loading = Viewbase.open(OpenOptions.at(dir.resolve("db")).withSync(false))) {
        loader.load(loading);
      } catch (IOException | RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IOException("loading " + name + " failed", e);
      }
      Files.createFile(done);
    }
    return Viewbase.open(OpenOptions.at(dir.resolve("db")).withSync(false));
  }

  /** Deletes a directory tree made for a benchmark run. */
  public static void deleteTree(Path root) {
    if (root == null || !Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
