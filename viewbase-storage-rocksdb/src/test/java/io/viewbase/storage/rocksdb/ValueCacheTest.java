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
