package io.viewbase.storage.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.StoreConfig;
import io.viewbase.storage.spi.Versioned;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers and conditional writers hammering a few keys: no read that starts after a write was
 * acknowledged returns an older version, whatever the interleaving of misses, inserts and
 * invalidations.
 */
class RocksDbValueCacheRaceTest {
  private static final byte[] P = "p".getBytes(StandardCharsets.UTF_8);
  private static final int KEYS = 4;
  private static final int WRITERS = 2;
  private static final int READERS = 4;
  private static final long RUN_NANOS = TimeUnit.MILLISECONDS.toNanos(1500);

  /** Bounds each thread's loop too, should the clock be slow to run out. */
  private static final int MAX_OPS_PER_THREAD = 2_000_000;

  @TempDir Path dir;

  @Test
  void noReadStartedAfterAnAcknowledgedWriteReturnsAnOlderVersion() throws Exception {
    try (RocksDbStore store =
        RocksDbStore.open(
            new StoreConfig(
                dir,
                false,
                Map.of(
                    "rocksdb.valueCacheBytes",
                    "1m",
                    "rocksdb.blockCacheBytes",
                    "8m",
                    "rocksdb.writeBufferBytes",
                    "4m")))) {
      // the highest version acknowledged to a writer, per key: versions of a key only grow
      AtomicLongArray acknowledged = new AtomicLongArray(KEYS);
      for (int k = 0; k < KEYS; k++) {
        store.commit(List.of(Mutation.put(P, key(k), 1, value(1))));
        acknowledged.set(k, 1);
      }
      long deadline = System.nanoTime() + RUN_NANOS;
      ExecutorService pool = Executors.newFixedThreadPool(WRITERS + READERS);
      try {
        List<Future<long[]>> writers = new ArrayList<>();
        List<Future<long[]>> readers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
          writers.add(pool.submit(() -> write(store, acknowledged, deadline)));
        }
        for (int r = 0; r < READERS; r++) {
          readers.add(pool.submit(() -> read(store, acknowledged, deadline)));
        }
        long written = 0;
        for (Future<long[]> f : writers) {
          written += f.get(60, TimeUnit.SECONDS)[0];
        }
        long reads = 0;
        long stale = 0;
        for (Future<long[]> f : readers) {
          long[] counts = f.get(60, TimeUnit.SECONDS);
          reads += counts[0];
          stale += counts[1];
        }
        System.out.println(
            "value cache race: " + written + " writes, " + reads + " reads, " + stale + " stale");
        assertThat(written).as("writes acknowledged").isPositive();
        assertThat(reads).as("reads").isPositive();
        assertThat(stale).as("reads older than a write acknowledged before they started").isZero();
      } finally {
        pool.shutdownNow();
      }
      for (int k = 0; k < KEYS; k++) {
        assertThat(store.get(P, key(k)).orElseThrow().version()).isEqualTo(acknowledged.get(k));
      }
    }
  }

  /**
   * Bumps a random key's version by one under a version condition; returns {writes acknowledged}.
   */
  private static long[] write(RocksDbStore store, AtomicLongArray acknowledged, long deadline) {
    long written = 0;
    for (int i = 0; i < MAX_OPS_PER_THREAD && System.nanoTime() < deadline; i++) {
      int k = ThreadLocalRandom.current().nextInt(KEYS);
      long current = store.get(P, key(k)).orElseThrow().version();
      try {
        store.commit(
            List.of(
                new Mutation.Put(
                    P, key(k), current + 1, value(current + 1), Condition.version(current))));
      } catch (ConditionFailedException e) {
        continue; // the other writer got there first
      }
      acknowledged.accumulateAndGet(k, current + 1, Math::max);
      written++;
    }
    return new long[] {written};
  }

  /** Reads random keys; returns {reads, reads older than the floor taken before they started}. */
  private static long[] read(RocksDbStore store, AtomicLongArray acknowledged, long deadline) {
    long reads = 0;
    long stale = 0;
    for (int i = 0; i < MAX_OPS_PER_THREAD && System.nanoTime() < deadline; i++) {
      int k = ThreadLocalRandom.current().nextInt(KEYS);
      long floor = acknowledged.get(k);
      Optional<Versioned> got = store.get(P, key(k));
      reads++;
      long version = got.orElseThrow().version();
      if (version < floor || ByteBuffer.wrap(got.get().value()).getLong() != version) {
        stale++;
      }
    }
    return new long[] {reads, stale};
  }

  private static byte[] key(int k) {
    return ("k" + k).getBytes(StandardCharsets.UTF_8);
  }

  /** The version itself as the value, so a read can tell a torn or mismatched entry. */
  private static byte[] value(long version) {
    return ByteBuffer.allocate(Long.BYTES).putLong(version).array();
  }
}
