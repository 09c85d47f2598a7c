package io.viewbase.storage.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.Snapshot;
import io.viewbase.storage.spi.StorageException;
import io.viewbase.storage.spi.StoreConfig;
import io.viewbase.storage.spi.Versioned;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Point reads through the value cache: hits, misses, and every write kind making it forget. */
class RocksDbValueCacheTest {
  private static final byte[] P = b("p");

  @TempDir Path dir;
  private RocksDbStore store;

  private RocksDbStore open(String valueCacheBytes) {
    store =
        RocksDbStore.open(
            new StoreConfig(
                dir,
                false,
                Map.of(
                    "rocksdb.valueCacheBytes",
                    valueCacheBytes,
                    "rocksdb.blockCacheBytes",
                    "8m",
                    "rocksdb.writeBufferBytes",
                    "4m")));
    return store;
  }

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
  }

  @Test
  void getOfAKeyReadBeforeIsAnsweredFromTheCacheWithTheSameEntry() throws Exception {
    open("1m");
    store.commit(List.of(Mutation.put(P, b("k"), 7, b("seven"))));
    assertThat(store.valueCacheEntries()).isZero();

    Versioned first = store.get(P, b("k")).orElseThrow();
    assertThat(store.valueCacheEntries()).isEqualTo(1);
    Versioned second = store.get(P, b("k")).orElseThrow();

    assertThat(second.version()).isEqualTo(7);
    assertThat(second.value()).isEqualTo(b("seven")).isEqualTo(first.value());
    assertThat(store.valueCacheEntries()).isEqualTo(1);
  }

  @Test
  void getWhenTheCallerChangedAnEarlierResultStillReturnsTheStoredValue() throws Exception {
    open("1m");
    store.commit(List.of(Mutation.put(P, b("k"), 1, b("abc"))));
    store.get(P, b("k")).orElseThrow().value()[0] = 'X'; // the miss that fills the cache
    store.get(P, b("k")).orElseThrow().value()[1] = 'Y'; // a hit

    assertThat(store.get(P, b("k")).orElseThrow().value()).isEqualTo(b("abc"));
  }

  @Test
  void getOfAnAbsentKeyCachesTheAbsenceUntilTheKeyIsWritten() throws Exception {
    open("1m");
    assertThat(store.get(P, b("k"))).isEmpty();
    assertThat(store.valueCacheEntries()).isEqualTo(1);
    assertThat(store.get(P, b("k"))).isEmpty();

    store.commit(List.of(Mutation.put(P, b("k"), 3, b("now"))));

    assertThat(version(b("k"))).isEqualTo(3);
  }

  @Test
  void everyWriteKindMakesTheNextGetSeeIt() throws Exception {
    open("1m");
    byte[] k = b("k");
    store.commit(List.of(Mutation.put(P, k, 1, b("v1"))));
    assertThat(version(k)).isEqualTo(1);

    store.commit(List.of(Mutation.put(P, k, 2, b("v2")))); // unconditional put
    assertThat(version(k)).isEqualTo(2);
    assertThat(store.get(P, k).orElseThrow().value()).isEqualTo(b("v2"));

    store.commit(
        List.of(new Mutation.Put(P, k, 3, b("v3"), Condition.version(2)))); // conditional put
    assertThat(version(k)).isEqualTo(3);

    store.commit(List.of(new Mutation.Delete(P, k, Condition.version(3)))); // conditional delete
    assertThat(store.get(P, k)).isEmpty();

    store.commit(List.of(new Mutation.Put(P, k, 4, b("v4"), Condition.ABSENT))); // insert
    assertThat(version(k)).isEqualTo(4);

    store.commit(List.of(Mutation.delete(P, k))); // unconditional delete
    assertThat(store.get(P, k)).isEmpty();
  }

  @Test
  void aBatchOfManyKeysAcrossPartitionsMakesEachOfThemSeen() throws Exception {
    open("1m");
    byte[] q = b("q");
    store.commit(List.of(Mutation.put(P, b("a"), 1, b("a1")), Mutation.put(q, b("b"), 1, b("b1"))));
    assertThat(version(b("a"))).isEqualTo(1);
    assertThat(store.get(q, b("b"))).isPresent();
    assertThat(store.get(q, b("c"))).isEmpty();

    store.commit(
        List.of(
            Mutation.put(P, b("a"), 2, b("a2")),
            Mutation.delete(q, b("b")),
            Mutation.put(q, b("c"), 5, b("c5")),
            new Mutation.Check(P, b("z"), Condition.ABSENT)));

    assertThat(version(b("a"))).isEqualTo(2);
    assertThat(store.get(q, b("b"))).isEmpty();
    assertThat(store.get(q, b("c")).orElseThrow().version()).isEqualTo(5);
  }

  @Test
  void aBatchWhoseConditionFailsLeavesTheCachedEntryAsStored() throws Exception {
    open("1m");
    store.commit(List.of(Mutation.put(P, b("k"), 1, b("v1"))));
    assertThat(version(b("k"))).isEqualTo(1);

    assertThatThrownBy(
            () ->
                store.commit(
                    List.of(
                        Mutation.put(P, b("other"), 1, b("x")),
                        new Mutation.Put(P, b("k"), 9, b("v9"), Condition.version(8)))))
        .isInstanceOf(ConditionFailedException.class);

    assertThat(version(b("k"))).isEqualTo(1);
    assertThat(store.get(P, b("other"))).isEmpty();
  }

  @Test
  void concurrentBatchesGroupedInOneWriteAreEachSeen() throws Exception {
    open("1m");
    int threads = 8;
    for (int t = 0; t < threads; t++) {
      store.commit(List.of(Mutation.put(P, b("k" + t), 1, b("old"))));
      assertThat(version(b("k" + t))).isEqualTo(1);
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      Future<?>[] done = new Future<?>[threads];
      for (int t = 0; t < threads; t++) {
        byte[] key = b("k" + t);
        done[t] =
            pool.submit(
                () -> {
                  start.await();
                  store.commit(
                      List.of(new Mutation.Put(P, key, 2, b("new"), Condition.version(1))));
                  // acknowledged: this thread's next read must see its own write
                  assertThat(store.get(P, key).orElseThrow().version()).isEqualTo(2);
                  return null;
                });
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get(30, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    for (int t = 0; t < threads; t++) {
      assertThat(version(b("k" + t))).isEqualTo(2);
    }
  }

  @Test
  void getAtASnapshotIgnoresANewerCachedEntry() throws Exception {
    open("1m");
    store.commit(List.of(Mutation.put(P, b("k"), 1, b("v1"))));
    try (Snapshot snapshot = store.snapshot()) {
      store.commit(List.of(Mutation.put(P, b("k"), 2, b("v2"))));
      assertThat(version(b("k"))).isEqualTo(2); // now cached

      assertThat(snapshot.get(P, b("k")).orElseThrow().version()).isEqualTo(1);
    }
  }

  @Test
  void theCacheHoldsNoMoreBytesThanItsBound() throws Exception {
    long bound = 64 * 1024;
    open(Long.toString(bound));
    byte[] value = new byte[1000];
    for (int i = 0; i < 300; i++) {
      store.commit(List.of(Mutation.put(P, b("k" + i), 1, value)));
    }
    for (int i = 0; i < 300; i++) {
      assertThat(store.get(P, b("k" + i))).isPresent();
    }

    assertThat(store.valueCacheBytes()).isPositive().isLessThanOrEqualTo(bound);
    assertThat(store.valueCacheEntries()).isLessThan(300);
    for (int i = 0; i < 300; i++) {
      assertThat(store.get(P, b("k" + i)).orElseThrow().value())
          .hasSize(1000); // evicted or not, still read
    }
  }

  @Test
  void aZeroBoundTurnsTheCacheOff() throws Exception {
    open("0");
    store.commit(List.of(Mutation.put(P, b("k"), 1, b("v1"))));
    assertThat(version(b("k"))).isEqualTo(1);
    assertThat(store.get(P, b("absent"))).isEmpty();
    store.commit(List.of(Mutation.put(P, b("k"), 2, b("v2"))));

    assertThat(version(b("k"))).isEqualTo(2);
    assertThat(store.valueCacheEntries()).isZero();
  }

  @Test
  void getAfterCloseFailsEvenForACachedKey() throws Exception {
    open("1m");
    store.commit(List.of(Mutation.put(P, b("k"), 1, b("v1"))));
    assertThat(version(b("k"))).isEqualTo(1);

    store.close();

    assertThat(store.valueCacheEntries()).isZero();
    assertThatThrownBy(() -> store.get(P, b("k")))
        .isInstanceOfSatisfying(
            StorageException.class,
            e -> {
              assertThat(e.isUnavailable()).isTrue();
              assertThat(e.kind()).isEqualTo(StorageException.Kind.CLOSED);
            });
  }

  @Test
  void aMalformedBoundIsRejectedNamingTheOption() {
    assertThatThrownBy(() -> open("lots"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rocksdb.valueCacheBytes");
    store = null;
  }

  @Test
  void reopeningTheStoreServesWhatWasWrittenBeforeClose() throws Exception {
    open("1m");
    store.commit(List.of(Mutation.put(P, b("k"), 1, b("v1"))));
    assertThat(version(b("k"))).isEqualTo(1);
    store.commit(List.of(Mutation.put(P, b("k"), 2, b("v2"))));
    store.close();

    open("1m");

    assertThat(version(b("k"))).isEqualTo(2);
  }

  private long version(byte[] key) {
    Optional<Versioned> v = store.get(P, key);
    return v.orElseThrow(
            () -> new AssertionError("no entry for " + new String(key, StandardCharsets.UTF_8)))
        .version();
  }

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
