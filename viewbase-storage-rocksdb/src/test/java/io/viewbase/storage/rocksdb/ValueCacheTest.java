package io.viewbase.storage.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The value cache's own rules: second-chance eviction within the bound, and refused stale inserts. */
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
    long weight = 160 + 1 + VALUE_BYTES; // overhead, a one-byte key, the value
    ValueCache cache = new ValueCache(3 * (VALUE_BYTES + 200)); // room for three entries, not four
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
