package io.viewbase.storage.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.storage.spi.Derivation;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The value cache's own rules: second-chance eviction within the bound, refused stale inserts, what
 * an invalidated entry leaves behind, and derived results.
 */
class ValueCacheTest {
  private static final int VALUE_BYTES = 1000;

  @Test
  void evictionOverTheBoundDropsAnEntryNotHitBeforeOneThatWasHit() {
    ValueCache cache = new ValueCache(2 * (VALUE_BYTES + 200)); // room for two entries, not three
    put(cache, "a");
    put(cache, "b");
    assertThat(cache.get(key("a"))).isNotNull(); // a hit: "a" gets a second chance

    put(cache, "c");

    assertThat(cache.get(key("a"))).isNotNull();
    assertThat(cache.get(key("b"))).isNull();
    assertThat(cache.get(key("c"))).isNotNull();
    assertThat(cache.weightedBytes()).isLessThanOrEqualTo(2 * (VALUE_BYTES + 200));
  }

  @Test
  void insertAfterAnInvalidationOfTheKeySinceTheStampIsRefused() {
    ValueCache cache = new ValueCache(1 << 20);
    long stamp = cache.stamp(key("k"));
    cache.invalidate(bytes("k")); // a write landed while the reader read

    cache.insert(key("k"), stamp, new ValueCache.Entry(1, new byte[VALUE_BYTES]));

    assertThat(cache.get(key("k"))).isNull();
    assertThat(cache.weightedBytes()).isZero();
  }

  @Test
  void anInvalidatedEntryStopsCountingAgainstTheBoundAtOnce() {
    long weight =
        ValueCache.ENTRY_OVERHEAD + 1 + VALUE_BYTES; // overhead, a one-byte key, the value
    ValueCache cache = new ValueCache(3 * (VALUE_BYTES + 250)); // room for three entries, not four
    put(cache, "a");
    put(cache, "b");
    put(cache, "c");
    cache.invalidate(bytes("b")); // written: what "b" held is garbage now

    assertThat(cache.weightedBytes()).isEqualTo(2 * weight + ValueCache.DEAD_WEIGHT);
    put(cache, "d");

    // "d" took the room "b" left, instead of evicting "a", the oldest live entry
    assertThat(cache.get(key("a"))).isNotNull();
    assertThat(cache.get(key("c"))).isNotNull();
    assertThat(cache.get(key("d"))).isNotNull();
    assertThat(cache.weightedBytes()).isEqualTo(3 * weight + ValueCache.DEAD_WEIGHT);
  }

  @Test
  void keysReadAbsentAndThenWrittenLeaveABoundedResidue() {
    // what a run of inserts in batches does: each key is read (absent), cached, then written
    long bound = 64 * 1024;
    ValueCache cache = new ValueCache(bound);
    for (int i = 0; i < 100_000; i++) {
      ValueCache.Key k = key("k" + i);
      long stamp = cache.stamp(k);
      assertThat(cache.insert(k, stamp, ValueCache.Entry.absent())).isTrue();
      cache.invalidate(bytes("k" + i));
    }

    assertThat(cache.weightedBytes()).isLessThanOrEqualTo(bound);
    assertThat(cache.queuedEntries()).isLessThanOrEqualTo(bound / ValueCache.DEAD_WEIGHT + 1);
    assertThat(cache.size()).isZero();
  }

  @Test
  void anEntryLargerThanTheWholeBoundIsNotCached() {
    ValueCache cache = new ValueCache(VALUE_BYTES);
    put(cache, "k");

    assertThat(cache.get(key("k"))).isNull();
    assertThat(cache.size()).isZero();
  }

  @Test
  void anInvalidatedEntryIsNotKeptReachable() throws InterruptedException {
    ValueCache cache = new ValueCache(1 << 20);
    ValueCache.Entry entry = new ValueCache.Entry(1, new byte[VALUE_BYTES]);
    ValueCache.Key k = key("k");
    assertThat(cache.insert(k, cache.stamp(k), entry)).isTrue();
    WeakReference<ValueCache.Entry> ref = new WeakReference<>(entry);
    entry = null;

    cache.invalidate(bytes("k"));

    // the clock still queues the entry's slot (nothing forced an eviction), but not the entry
    assertThat(cache.queuedEntries()).isEqualTo(1);
    for (int i = 0; i < 50 && ref.get() != null; i++) {
      System.gc();
      Thread.sleep(10);
    }
    assertThat(ref.get()).as("the invalidated entry and its value after GC").isNull();
  }

  @Test
  void aDerivedResultIsKeptForEqualDerivationsAndWeighed() {
    ValueCache cache = new ValueCache(1 << 20);
    put(cache, "k");
    long entryWeight = cache.weightedBytes();
    CountingDerivation upper = new CountingDerivation("upper");

    assertThat(cache.derive(cache.get(key("k")), upper)).contains("upper:1:1000");
    assertThat(cache.derive(cache.get(key("k")), new CountingDerivation("upper", upper.calls)))
        .contains("upper:1:1000"); // an equal derivation: the same result, not derived again
    assertThat(upper.calls.get()).isEqualTo(1);
    assertThat(cache.weightedBytes()).isEqualTo(entryWeight + ValueCache.MEMO_OVERHEAD + 100);

    CountingDerivation other = new CountingDerivation("other");
    assertThat(cache.derive(cache.get(key("k")), other)).contains("other:1:1000");
    assertThat(other.calls.get()).isEqualTo(1);
    assertThat(cache.weightedBytes())
        .isEqualTo(entryWeight + ValueCache.MEMO_OVERHEAD + 100); // replaced, not added

    cache.invalidate(bytes("k"));
    assertThat(cache.weightedBytes()).isEqualTo(ValueCache.DEAD_WEIGHT);
  }

  @Test
  void derivedResultsStayWithinTheBoundByEvictingEntries() {
    long bound = 64 * 1024;
    ValueCache cache = new ValueCache(bound);
    CountingDerivation d = new CountingDerivation("d"); // 100 bytes a result, on entries of ~1.2 KB
    for (int i = 0; i < 200; i++) {
      ValueCache.Key k = key("k" + i);
      cache.insert(k, cache.stamp(k), new ValueCache.Entry(1, new byte[VALUE_BYTES]));
      ValueCache.Entry cached = cache.get(k);
      if (cached != null) {
        assertThat(cache.derive(cached, d)).contains("d:1:1000");
      }
      assertThat(cache.weightedBytes()).isLessThanOrEqualTo(bound);
    }
    long perEntry = ValueCache.ENTRY_OVERHEAD + 4 + VALUE_BYTES + ValueCache.MEMO_OVERHEAD + 100;
    assertThat(cache.size()).isBetween(bound / perEntry - 2, bound / perEntry + 1);
  }

  @Test
  void aResultDerivedFromAnEntryTheCacheRefusedWeighsNothing() {
    ValueCache cache = new ValueCache(1 << 20);
    ValueCache.Key k = key("k");
    long stamp = cache.stamp(k);
    cache.invalidate(bytes("k"));
    ValueCache.Entry refused = new ValueCache.Entry(1, new byte[VALUE_BYTES]);
    assertThat(cache.insert(k, stamp, refused)).isFalse();

    assertThat(cache.derive(refused, new CountingDerivation("d"))).contains("d:1:1000");
    assertThat(cache.weightedBytes()).isZero();
  }

  @Test
  void anAbsentEntryDerivesNothing() {
    ValueCache cache = new ValueCache(1 << 20);
    ValueCache.Key k = key("k");
    cache.insert(k, cache.stamp(k), ValueCache.Entry.absent());
    CountingDerivation d = new CountingDerivation("d");

    assertThat(cache.derive(cache.get(k), d)).isEmpty();
    assertThat(d.calls.get()).isZero();
  }

  /** Derives "name:version:length", weighing 100 bytes; equal by name. */
  private static final class CountingDerivation implements Derivation<String> {
    private final String name;
    final AtomicInteger calls;

    CountingDerivation(String name) {
      this(name, new AtomicInteger());
    }

    CountingDerivation(String name, AtomicInteger calls) {
      this.name = name;
      this.calls = calls;
    }

    @Override
    public String derive(long version, byte[] value) {
      calls.incrementAndGet();
      return name + ":" + version + ":" + value.length;
    }

    @Override
    public long weight(String result) {
      return 100;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof CountingDerivation c && c.name.equals(name);
    }

    @Override
    public int hashCode() {
      return name.hashCode();
    }
  }

  private static void put(ValueCache cache, String k) {
    ValueCache.Key key = key(k);
    cache.insert(key, cache.stamp(key), new ValueCache.Entry(1, new byte[VALUE_BYTES]));
  }

  private static ValueCache.Key key(String k) {
    return new ValueCache.Key(bytes(k));
  }

  private static byte[] bytes(String k) {
    return k.getBytes(StandardCharsets.UTF_8);
  }
}
