package io.viewbase.storage.rocksdb;

import java.util.Map;
import java.util.function.ToLongFunction;
import org.rocksdb.PerfContext;
import org.rocksdb.PerfLevel;
import org.rocksdb.RocksDB;

/** RocksDB's perf context around some reads: what RocksDB did for them, by its own counters. */
final class PerfCounts {
  /**
   * Store options with the value and row caches off: they would answer reads before RocksDB counts
   * them.
   */
  static final Map<String, String> CACHES_OFF =
      Map.of("rocksdb.rowCacheBytes", "0", "rocksdb.valueCacheBytes", "0");

  private PerfCounts() {}

  /**
   * Runs {@code reads} on this thread with counting on, and returns {@code counter} of what they
   * did.
   */
  static long during(RocksDB db, Runnable reads, ToLongFunction<PerfContext> counter) {
    db.setPerfLevel(PerfLevel.ENABLE_COUNT); // this thread only
    try {
      PerfContext perf = db.getPerfContext();
      perf.reset();
      reads.run();
      return counter.applyAsLong(perf);
    } finally {
      db.setPerfLevel(PerfLevel.DISABLE);
    }
  }
}
