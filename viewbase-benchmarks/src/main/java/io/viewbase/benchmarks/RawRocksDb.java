package io.viewbase.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ConfigOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.OptionsUtil;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * A plain RocksDB opened with the options stored in a database directory's latest OPTIONS file: the
 * baseline that the engine is measured against, and the tool that reads the engine's files.
 *
 * <p>Taking the options from the OPTIONS file that the engine's backend wrote (rather than
 * restating them here) keeps the comparison fair when the backend's tuning changes: bloom filter,
 * block size, index and filter caching, compression and write buffers all follow it. The one
 * setting an OPTIONS file does not record is the block cache's capacity, so it is given explicitly
 * (and the engine is opened with the same capacity).
 */
public final class RawRocksDb implements AutoCloseable {
  static {
    RocksDB.loadLibrary();
  }

  private final DBOptions dbOptions;
  private final List<ColumnFamilyDescriptor> descriptors;
  private final TableOptions tables;
  private final List<ColumnFamilyHandle> handles;
  private final RocksDB db;

  private RawRocksDb(
      DBOptions dbOptions, List<ColumnFamilyDescriptor> descriptors, TableOptions tables, Path dir)
      throws RocksDBException {
    this.dbOptions = dbOptions;
    this.descriptors = descriptors;
    this.tables = tables;
    this.handles = new ArrayList<>();
    this.db = RocksDB.open(dbOptions, dir.toString(), descriptors, handles);
  }

  /**
   * Opens the existing database in {@code dir}, every column family, with its own stored options
   * and a block cache of {@code blockCacheBytes}.
   */
  public static RawRocksDb open(Path dir, long blockCacheBytes) throws RocksDBException {
    DBOptions dbOptions = new DBOptions();
    List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
    loadOptions(dir, dbOptions, descriptors);
    TableOptions tables = TableOptions.restore(dir, descriptors, blockCacheBytes);
    return new RawRocksDb(dbOptions, descriptors, tables, dir);
  }

  /**
   * Creates an empty database in {@code dir} whose default column family has the options of column
   * family {@code columnFamily} of the database in {@code template}.
   */
  public static RawRocksDb createLike(
      Path dir, Path template, byte[] columnFamily, long blockCacheBytes) throws RocksDBException {
    DBOptions dbOptions = new DBOptions();
    List<ColumnFamilyDescriptor> loaded = new ArrayList<>();
    loadOptions(template, dbOptions, loaded);
    dbOptions.setCreateIfMissing(true).setCreateMissingColumnFamilies(true);
    ColumnFamilyDescriptor chosen = null;
    for (ColumnFamilyDescriptor d : loaded) {
      if (chosen == null && java.util.Arrays.equals(d.getName(), columnFamily)) {
        chosen = d;
      } else {
        d.getOptions().close();
      }
    }
    if (chosen == null) {
      dbOptions.close();
      throw new IllegalArgumentException(
          "no column family " + new String(columnFamily) + " in " + template);
    }
    List<ColumnFamilyDescriptor> descriptors =
        List.of(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, chosen.getOptions()));
    TableOptions tables = TableOptions.restore(template, descriptors, blockCacheBytes);
    return new RawRocksDb(dbOptions, descriptors, tables, dir);
  }

  private static void loadOptions(Path dir, DBOptions dbOptions, List<ColumnFamilyDescriptor> out)
      throws RocksDBException {
    try (ConfigOptions config = new ConfigOptions().setIgnoreUnknownOptions(true)) {
      OptionsUtil.loadLatestOptions(config, dir.toString(), dbOptions, out);
    }
  }

  public RocksDB db() {
    return db;
  }

  public List<ColumnFamilyHandle> columnFamilies() {
    return handles;
  }

  /** The column family holding the most entries: the one with the items. */
  public ColumnFamilyHandle largestColumnFamily() throws RocksDBException {
    ColumnFamilyHandle largest = null;
    long most = -1;
    for (ColumnFamilyHandle h : handles) {
      long entries = count(h);
      if (entries > most) {
        most = entries;
        largest = h;
      }
    }
    return largest;
  }

  private long count(ColumnFamilyHandle handle) {
    long n = 0;
    try (RocksIterator it = db.newIterator(handle)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        n++;
      }
    }
    return n;
  }

  /** Flushes memtables and compacts every column family, so reads see one settled LSM shape. */
  public void settle() throws RocksDBException {
    try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
      db.flush(flush, handles);
    }
    for (ColumnFamilyHandle h : handles) {
      db.compactRange(h);
    }
  }

  /** A RocksDB property of the default column family, e.g. {@code rocksdb.block-cache-capacity}. */
  public String property(String name) throws RocksDBException {
    return db.getProperty(name);
  }

  @Override
  public void close() {
    for (ColumnFamilyHandle h : handles) {
      h.close();
    }
    db.close();
    for (ColumnFamilyDescriptor d : descriptors) {
      d.getOptions().close();
    }
    dbOptions.close();
    tables.close();
  }
}
